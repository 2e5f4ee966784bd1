//! `/operations`: the viewer. The signed-in user's long-running operations
//! (everyone's for administrators), filtered by state and kind, newest
//! first, with live progress for running ones, details, cancel and delete.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use serde_json::json;

use crate::api;
use crate::components::live_operation::{follow, OperationProgressBar};
use crate::domain::operation::{self, Operation, OperationList, State};
use crate::domain::operation_kind::{self, OperationKind};
use crate::domain::timestamp;

const PAGE_SIZE: u32 = 20;

#[component]
pub fn OperationsPage() -> impl IntoView {
    let state_choice = RwSignal::new(String::new());
    let kind_choice = RwSignal::new(String::new());
    let rows = RwSignal::new(Vec::<Operation>::new());
    let next = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let signed_out = RwSignal::new(false);
    let loading = RwSignal::new(true);

    let load = move |more: bool| {
        let filter = operation::filter(&state_choice.get_untracked(), &kind_choice.get_untracked());
        let mut path = format!(
            "/v1/operations?pageSize={PAGE_SIZE}&filter={}",
            operation::query_value(&filter)
        );
        if more {
            match next.get_untracked() {
                Some(token) => {
                    path.push_str(&format!("&pageToken={}", operation::query_value(&token)))
                }
                None => return,
            }
        }
        loading.set(true);
        leptos::task::spawn_local(async move {
            match api::get_json::<OperationList>(&path).await {
                Ok(page) => {
                    error.set(None);
                    next.set(page.next_page_token);
                    if more {
                        rows.update(|all| all.extend(page.operations));
                    } else {
                        rows.set(page.operations);
                    }
                }
                Err(failure) if failure.status() == Some(401) => signed_out.set(true),
                Err(failure) => error.set(Some(failure.message())),
            }
            loading.set(false);
        });
    };
    Effect::new(move || {
        state_choice.track();
        kind_choice.track();
        load(false);
    });
    let remove = move |name: String| rows.update(|all| all.retain(|op| op.name != name));

    view! {
        <Title text="Operations"/>
        <h1>"Operations"</h1>
        <Show
            when=move || !signed_out.get()
            fallback=|| view! { <p>"You are signed out. " <A href="/login">"Sign in"</A> " to see your operations."</p> }
        >
            <p class="hint">
                "Slow work (backups, restore checks, re-encrypting secrets) runs in the background as operations. "
                "The same list is at " <code>"GET /v1/operations"</code> " for API clients."
            </p>
            <form class="filters" on:submit=|event| event.prevent_default() aria-label="Filter operations">
                <label for="op-state">"State"</label>
                <select id="op-state" on:change=move |ev| state_choice.set(event_target_value(&ev))>
                    <option value="">"All"</option>
                    <option value="running">"Running"</option>
                    <option value="done">"Finished"</option>
                </select>
                <label for="op-kind">"Kind"</label>
                <select id="op-kind" on:change=move |ev| kind_choice.set(event_target_value(&ev))>
                    <option value="">"All kinds"</option>
                    {operation_kind::ALL.iter().map(|kind: &OperationKind| view! { <option value=kind.name()>{kind.label()}</option> }).collect_view()}
                </select>
            </form>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <div class="table-wrap">
                <table class="data-table" data-testid="operations">
                    <thead>
                        <tr>
                            <th scope="col">"Started (UTC)"</th>
                            <th scope="col">"Kind"</th>
                            <th scope="col">"Owner"</th>
                            <th scope="col">"Progress"</th>
                            <th scope="col">"State"</th>
                            <th scope="col">"Actions"</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For each=move || rows.get() key=|op| op.name.clone() let:op>
                            <OperationRow operation=op on_deleted=remove/>
                        </For>
                    </tbody>
                </table>
            </div>
            <Show when=move || !loading.get() && rows.with(Vec::is_empty)>
                <p data-testid="no-operations">"No operations match."</p>
            </Show>
            <Show when=move || next.with(Option::is_some)>
                <button class="button button--quiet" on:click=move |_| load(true)>"Show more"</button>
            </Show>
        </Show>
    }
}

#[component]
fn OperationRow(
    operation: Operation,
    on_deleted: impl Fn(String) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let live = follow(operation);
    let problem = RwSignal::new(None::<String>);
    let cancel = move |_| {
        let name = live.get_untracked().name;
        leptos::task::spawn_local(async move {
            let path = format!("/v1/{name}:cancel");
            if let Err(failure) =
                api::send_json::<_, serde_json::Value>("POST", &path, &json!({})).await
            {
                problem.set(Some(failure.message()));
            }
        });
    };
    let delete = move |_| {
        let name = live.get_untracked().name;
        leptos::task::spawn_local(async move {
            match api::delete(&format!("/v1/{name}")).await {
                Ok(()) => on_deleted(name),
                Err(failure) => problem.set(Some(failure.message())),
            }
        });
    };
    let state = move || live.get().state();
    let details = move || {
        let op = live.get();
        let mut shown = json!({ "name": op.name, "metadata": op.metadata, "done": op.done });
        if let Some(error) = &op.error {
            shown["error"] = json!({ "code": error.code, "message": error.message });
        }
        if let Some(response) = &op.response {
            shown["response"] = response.clone();
        }
        serde_json::to_string_pretty(&shown).unwrap_or_default()
    };
    view! {
        <tr data-testid="operation-row" data-kind=move || live.get().kind().to_owned()>
            <td>{move || timestamp::minute(live.get().created())}</td>
            <td>{move || live.get().kind_label()}</td>
            <td>{move || live.get().owner().to_owned()}</td>
            <td><OperationProgressBar operation=live.into()/></td>
            <td>
                <span class=move || format!("op-state op-state--{}", state().label().to_lowercase())>
                    {move || state().label()}
                </span>
                <br/>
                <span class="hint">{move || live.get().summary()}</span>
                <details>
                    <summary>"Details"</summary>
                    <pre class="op-details">{details}</pre>
                </details>
            </td>
            <td>
                <div class="actions">
                    <Show when=move || state() == State::Running && !live.get().cancel_requested()>
                        <button class="button button--quiet" on:click=cancel>"Cancel"</button>
                    </Show>
                    <button
                        class="button button--quiet"
                        title="Forget this operation; a running one keeps running"
                        on:click=delete
                    >"Delete"</button>
                </div>
                <span class="field-error">{move || problem.get()}</span>
            </td>
        </tr>
    }
}
