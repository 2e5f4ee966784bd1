use crate::api::admin::{get_crm_status, list_submissions, resend_submissions};
use crate::api::{self, ApiFailure};
use crate::contract::contact::{CrmState, SubmissionKind};
use crate::domain::timestamp;
use leptos::prelude::*;

/// Admin: what the public forms received (leads or support requests,
/// newest first, searchable), each with its CRM state, the CRM's health,
/// and re-sending failed posts.
#[component]
pub fn Submissions() -> impl IntoView {
    let kind = RwSignal::new(SubmissionKind::Lead);
    let search = RwSignal::new(String::new());
    // Paging: the id the current page starts below (None: the newest).
    let before = RwSignal::new(None::<i64>);
    let error = RwSignal::new(None::<String>);
    let rows = api::BrowserResource::new(move || {
        let (kind, search, before) = (kind.get(), search.get(), before.get());
        async move {
            list_submissions(kind, search, before)
                .await
                .map_err(ApiFailure::from)
        }
    });
    let crm =
        api::BrowserResource::new(|| async { get_crm_status().await.map_err(ApiFailure::from) });
    let resend = move |kind: SubmissionKind, id: Option<i64>| {
        leptos::task::spawn_local(async move {
            match resend_submissions(kind, id).await {
                Ok(_) => {
                    error.set(None);
                    rows.refetch();
                    crm.refetch();
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };

    view! {
        <section class="card" aria-labelledby="submissions-title">
            <h2 id="submissions-title">"Leads and support requests"</h2>
            <p data-testid="crm-health">
                {move || crm.get().and_then(Result::ok).map(|status| {
                    let counts = status.counts.iter().map(|(state, n)| format!("{n} {}", state.as_str())).collect::<Vec<_>>().join(", ");
                    match (status.health.configured, status.health.paused_until) {
                        (false, _) => format!("CRM not configured; submissions are only stored. ({counts})"),
                        (true, Some(until)) => format!("CRM sync paused until {until}: {}. ({counts})", status.health.last_error.unwrap_or_default()),
                        (true, None) => format!("CRM sync running. ({counts})"),
                    }
                })}
            </p>
            <div class="actions">
                <button type="button" class="button button--quiet" aria-pressed=move || (kind.get() == SubmissionKind::Lead).to_string()
                    on:click=move |_| { kind.set(SubmissionKind::Lead); before.set(None); }>"Leads"</button>
                <button type="button" class="button button--quiet" aria-pressed=move || (kind.get() == SubmissionKind::Support).to_string()
                    on:click=move |_| { kind.set(SubmissionKind::Support); before.set(None); }>"Support requests"</button>
                <button type="button" class="button button--quiet" on:click=move |_| resend(kind.get_untracked(), None)>
                    "Re-send all failed"
                </button>
            </div>
            <div class="field">
                <label for="submission-search">"Search"</label>
                <input id="submission-search" type="search" prop:value=move || search.get()
                    on:change=move |ev| { search.set(event_target_value(&ev)); before.set(None); }/>
            </div>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <div class="table-wrap">
                <table class="data-table" data-testid="submissions">
                    <thead>
                        <tr>
                            <th scope="col">"Received (UTC)"</th>
                            <th scope="col">"From"</th>
                            <th scope="col">{move || if kind.get() == SubmissionKind::Lead { "Company" } else { "Subject" }}</th>
                            <th scope="col">"Message"</th>
                            <th scope="col">"CRM"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || rows.get().and_then(Result::ok).map(|page| page.items).unwrap_or_default().into_iter().map(|row| {
                            let failed = row.crm_state == CrmState::Failed;
                            let (row_kind, id) = (kind.get_untracked(), row.id);
                            view! {
                                <tr>
                                    <td>{timestamp::minute(&row.created_at)}</td>
                                    <td>{row.name.clone()} <br/> <span class="hint">{row.email.clone()}</span></td>
                                    <td>{row.headline.clone().unwrap_or_default()}</td>
                                    <td class="truncate">{row.message.clone()}</td>
                                    <td>
                                        {row.crm_state.as_str()}
                                        {row.crm_last_error.clone().map(|e| view! { <br/> <span class="hint">{e}</span> })}
                                        <Show when=move || failed>
                                            <button type="button" class="button button--quiet"
                                                on:click=move |_| resend(row_kind, Some(id))>"Re-send"</button>
                                        </Show>
                                    </td>
                                </tr>
                            }.into_any()
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <div class="actions">
                <Show when=move || before.get().is_some()>
                    <button type="button" class="button button--quiet" on:click=move |_| before.set(None)>"Newest"</button>
                </Show>
                {move || rows.get().and_then(Result::ok).and_then(|page| page.next_before).map(|next| view! {
                    <button type="button" class="button button--quiet" on:click=move |_| before.set(Some(next))>"Older"</button>
                })}
            </div>
        </section>
    }
}
