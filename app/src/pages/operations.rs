//! `/operations`: the viewer. The signed-in user's long-running operations
//! (everyone's for administrators), filtered by state and kind, newest
//! first, with live progress for running ones, details, cancel and delete.
//! The filters and the page are in the address (`?state=&kind=&page=`), so
//! they work without JavaScript (a GET form, and "Show more" a link to the
//! next page); with JavaScript a filter applies as it is chosen and "Show
//! more" adds the next page below.

use super::split_route::split_route;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use serde_json::json;

use crate::api::operations::{list_operations, CancelOperation, DeleteOperation};
use crate::api::session::current_session;
use crate::api::{self, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::components::live_operation::{follow, OperationProgressBar};
use crate::contract::operations::{Operation, OperationList};
use crate::domain::operation::{self, State};
use crate::domain::operation_kind::{self, OperationKind};
use crate::domain::{query_string, timestamp};

const PATH: &str = "/operations";

/// What the address asks for: a state (`running`, `done`), a kind, and
/// the page to start from (a page token).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct Asked {
    state: String,
    kind: String,
    page: String,
}

impl Asked {
    fn filter(&self) -> String {
        operation::filter(&self.state, &self.kind)
    }

    /// This filter's address from `page` (the first page when empty).
    fn link(&self, page: &str) -> String {
        query_string::link(
            PATH,
            &[("state", &self.state), ("kind", &self.kind), ("page", page)],
        )
    }
}

#[component]
pub fn OperationsPage() -> impl IntoView {
    let query = use_query_map();
    let asked = move || {
        query.with(|map| Asked {
            state: map.get("state").unwrap_or_default(),
            kind: map.get("kind").unwrap_or_default(),
            page: map.get("page").unwrap_or_default(),
        })
    };
    // The page the address asks for, rendered on the server with the page
    // (a blocking resource) and asked again when the address changes.
    let first = crate::api::page_resource(asked, |asked: Asked| async move {
        let token = (!asked.page.is_empty()).then(|| asked.page.clone());
        let page = list_operations(asked.filter(), token).await;
        page.map(|page| (asked, page)).map_err(ApiFailure::from)
    });
    // With JavaScript a filter applies as it is chosen: the address
    // changes (from the page's first), and with it the list.
    let now = untrack(asked);
    let state_choice = RwSignal::new(now.state);
    let kind_choice = RwSignal::new(now.kind);
    let navigate = use_navigate();
    let choose = move || {
        let wanted = Asked {
            state: state_choice.get_untracked(),
            kind: kind_choice.get_untracked(),
            page: String::new(),
        };
        navigate(&wanted.link(""), Default::default());
    };
    let choose_kind = choose.clone();
    // Who is looking: their own operations say "You", not "users/1".
    let me = crate::api::page_resource(
        || (),
        |()| async {
            current_session()
                .await
                .ok()
                .and_then(|session| session.user)
                .map(|user| user.id)
        },
    );

    view! {
        <Title text="Operations"/>
        <h1>"Operations"</h1>
        <p class="hint">
            "Slow work (backups, restore checks, re-encrypting secrets) runs in the background as operations. "
            "The same list is at " <code>"GET /v1/operations"</code> " for API clients."
        </p>
        <form class="filters" method="get" action=PATH aria-label="Filter operations">
            <label for="op-state">"State"</label>
            <select id="op-state" name="state" on:change=move |ev| {
                state_choice.set(event_target_value(&ev));
                choose();
            }>
                <option value="" selected=move || asked().state.is_empty()>"All"</option>
                <option value="running" selected=move || asked().state == "running">"Running"</option>
                <option value="done" selected=move || asked().state == "done">"Finished"</option>
            </select>
            <label for="op-kind">"Kind"</label>
            <select id="op-kind" name="kind" on:change=move |ev| {
                kind_choice.set(event_target_value(&ev));
                choose_kind();
            }>
                <option value="" selected=move || asked().kind.is_empty()>"All kinds"</option>
                {operation_kind::ALL.iter().map(|kind: &OperationKind| {
                    let name = kind.name();
                    view! { <option value=name selected=move || asked().kind == name>{kind.label()}</option> }
                }).collect_view()}
            </select>
            <button type="submit" class="button button--quiet">"Filter"</button>
        </form>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match first.await {
                    Err(failure) if failure.status() == Some(401) => view! {
                        <p>"You are signed out. " <A href="/login">"Sign in"</A> " to see your operations."</p>
                    }.into_any(),
                    Err(failure) => view! { <p class="field-error" role="alert">{failure.message()}</p> }.into_any(),
                    Ok((asked, page)) => {
                        let me = me.await;
                        view! { <OperationsTable asked page me/> }.into_any()
                    }
                }
            })}
        </Transition>
    }
}

/// The operations `asked` for, from the `page` it names; "Show more"
/// appends the next (without JavaScript it opens the next page).
#[component]
fn OperationsTable(asked: Asked, page: OperationList, me: Option<i64>) -> impl IntoView {
    let rows = RwSignal::new(page.operations);
    let next = RwSignal::new(page.next_page_token);
    let error = RwSignal::new(None::<String>);
    let asked = StoredValue::new(asked);
    let more = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        let Some(token) = next.get_untracked() else {
            return;
        };
        leptos::task::spawn_local(async move {
            match list_operations(asked.with_value(Asked::filter), Some(token)).await {
                Ok(page) => {
                    error.set(None);
                    next.set(page.next_page_token);
                    rows.update(|all| all.extend(page.operations));
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    // Cancel and Delete are forms (they post without JavaScript too, and
    // the page comes back with any refusal shown here); with JavaScript
    // the rows send them through these actions.
    let actions = RowActions {
        cancel: ServerAction::new(),
        delete: ServerAction::new(),
        deleting: RwSignal::new(None),
    };
    api::each_answer(actions.cancel, move |answer| {
        if let Err(failure) = answer {
            error.set(Some(failure.message()));
        }
    });
    api::each_answer(actions.delete, move |answer| match answer {
        Ok(()) => {
            if let Some(name) = actions.deleting.get_untracked() {
                rows.update(|all| all.retain(|op| op.name != name));
            }
        }
        Err(failure) => error.set(Some(failure.message())),
    });

    view! {
        <p class="field-error" role="alert">{move || error.get()}</p>
        <div class="table-wrap">
            <table class="data-table data-table--cards" data-testid="operations">
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
                        <OperationRow operation=op actions me/>
                    </For>
                </tbody>
            </table>
        </div>
        <Show when=move || rows.with(Vec::is_empty)>
            <p data-testid="no-operations">"No operations match."</p>
        </Show>
        {move || next.get().map(|token| view! {
            <a class="button button--quiet" href=asked.with_value(|asked| asked.link(&token)) on:click=more>
                "Show more"
            </a>
        })}
    }
}

/// The viewer's two writes, shared by its rows.
#[derive(Clone, Copy)]
struct RowActions {
    cancel: ServerAction<CancelOperation>,
    delete: ServerAction<DeleteOperation>,
    /// The operation whose delete was sent last, taken off the list once
    /// the server answers.
    deleting: RwSignal<Option<String>>,
}

#[component]
fn OperationRow(operation: Operation, actions: RowActions, me: Option<i64>) -> impl IntoView {
    let live = follow(operation);
    let name = move || live.with(|op| op.name.clone());
    let cancel = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        actions.cancel.dispatch(CancelOperation { name: name() });
    };
    let delete = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        actions.deleting.set(Some(name()));
        actions.delete.dispatch(DeleteOperation { name: name() });
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
            <td data-label="Started (UTC)">{move || timestamp::minute(live.get().created())}</td>
            <td class="cell-title">{move || live.get().kind_label()}</td>
            <td data-label="Owner">{move || owner_in_words(live.get().owner(), me)}</td>
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
                        <form class="inline-form" method="post" action=CancelOperation::url() on:submit=cancel>
                            <CsrfField/>
                            <input type="hidden" name="name" value=name/>
                            <button type="submit" class="button button--quiet">"Cancel"</button>
                        </form>
                    </Show>
                    <form class="inline-form" method="post" action=DeleteOperation::url() on:submit=delete>
                        <CsrfField/>
                        <input type="hidden" name="name" value=name/>
                        <button
                            type="submit"
                            class="button button--quiet"
                            title="Forget this operation; a running one keeps running"
                        >"Delete"</button>
                    </form>
                </div>
            </td>
        </tr>
    }
}

/// An operation's owner (`users/7`) as a person reads it: "You" for one's
/// own, "User 7" for someone else's (administrators see everyone's).
fn owner_in_words(owner: &str, me: Option<i64>) -> String {
    match owner
        .strip_prefix("users/")
        .and_then(|id| id.parse::<i64>().ok())
    {
        Some(id) if Some(id) == me => "You".to_owned(),
        Some(id) => format!("User {id}"),
        None => owner.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::owner_in_words;

    #[test]
    fn owners_read_as_you_or_a_user_number_never_as_a_resource_name() {
        assert_eq!(owner_in_words("users/1", Some(1)), "You");
        assert_eq!(owner_in_words("users/7", Some(1)), "User 7");
        assert_eq!(owner_in_words("users/7", None), "User 7");
        assert_eq!(owner_in_words("", Some(1)), "");
    }
}

/// `OperationsPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct OperationsRoute;

split_route!(OperationsRoute => OperationsPage in app);
