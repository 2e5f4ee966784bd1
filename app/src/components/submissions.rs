use crate::api;
use crate::contract::contact::{CrmState, CrmStatus, Requeued, SubmissionPage};
use crate::domain::timestamp;
use leptos::prelude::*;

/// Admin: what the public forms received (leads or support requests,
/// newest first, searchable), each with its CRM state, the CRM's health,
/// and re-sending failed posts.
#[component]
pub fn Submissions() -> impl IntoView {
    let kind = RwSignal::new("leads");
    let search = RwSignal::new(String::new());
    // Paging: the id the current page starts below (None: the newest).
    let before = RwSignal::new(None::<i64>);
    let error = RwSignal::new(None::<String>);
    let rows = api::BrowserResource::new(move || {
        let mut path = format!(
            "/api/admin/{}?search={}",
            kind.get(),
            percent_encode(&search.get())
        );
        if let Some(id) = before.get() {
            path.push_str(&format!("&before={id}"));
        }
        async move { api::get_json::<SubmissionPage>(&path).await }
    });
    let crm = api::BrowserResource::new(|| api::get_json::<CrmStatus>("/api/admin/crm"));
    let post = move |path: String| {
        leptos::task::spawn_local(async move {
            match api::send_json::<_, Requeued>("POST", &path, &serde_json::json!({})).await {
                Ok(_) => {
                    error.set(None);
                    rows.refetch();
                    crm.refetch();
                }
                Err(failure) => error.set(Some(failure.message())),
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
                <button type="button" class="button button--quiet" aria-pressed=move || (kind.get() == "leads").to_string()
                    on:click=move |_| { kind.set("leads"); before.set(None); }>"Leads"</button>
                <button type="button" class="button button--quiet" aria-pressed=move || (kind.get() == "support-requests").to_string()
                    on:click=move |_| { kind.set("support-requests"); before.set(None); }>"Support requests"</button>
                <button type="button" class="button button--quiet" on:click=move |_| post("/api/admin/crm/resend-failed".into())>
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
                            <th scope="col">{move || if kind.get() == "leads" { "Company" } else { "Subject" }}</th>
                            <th scope="col">"Message"</th>
                            <th scope="col">"CRM"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || rows.get().and_then(Result::ok).map(|page| page.items).unwrap_or_default().into_iter().map(|row| {
                            let failed = row.crm_state == CrmState::Failed;
                            let path = format!("/api/admin/{}/{}/resend", kind.get_untracked(), row.id);
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
                                            <button type="button" class="button button--quiet" on:click={
                                                let path = path.clone();
                                                move |_| post(path.clone())
                                            }>"Re-send"</button>
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

/// Percent-encodes a search term for a query string.
fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (byte as char).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}
