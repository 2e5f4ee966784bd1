//! `/admin/bank`: Admin → Bank Sync. The switch, the automatic sync's
//! interval, the lookback windows, the worker (running or idle, its last
//! and next run), every connection's last error, and which key protects
//! the stored bank access. Administrators only; it arrives with the page.
//! Its two writes are forms that work without JavaScript.

use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::api::bank::{get_bank_sync_status, RunBankSyncNow, SaveBankSync};
use crate::api::{self, ApiFailure};
use crate::components::admin_only::AdminOnly;
use crate::components::csrf_field::CsrfField;
use crate::contract::bank::BankSyncStatus;
use crate::contract::error::ErrorBody;
use crate::domain::timestamp;

#[component]
pub fn AdminBankPage() -> impl IntoView {
    let status = api::page_data(get_bank_sync_status);
    view! {
        <Title text="Bank sync · Administration"/>
        <p><A href="/admin">"Administration"</A> " › Bank sync"</p>
        <h1>"Bank sync"</h1>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match status.await {
                    Err(failure) => view! { <AdminOnly failure/> }.into_any(),
                    Ok(found) => view! { <Panel found/> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// The words of a failed answer, if the last one failed.
fn failure<T>(result: Option<Result<T, ErrorBody>>) -> Option<String> {
    result
        .and_then(Result::err)
        .map(|error| ApiFailure::from(error).message())
}

#[component]
fn Panel(found: BankSyncStatus) -> impl IntoView {
    // Both are forms that post without JavaScript too: the server answers
    // by showing this page again, with its state (and a refusal) in it.
    let save = ServerAction::<SaveBankSync>::new();
    let run = ServerAction::<RunBankSyncNow>::new();
    let current = RwSignal::new(found);
    // With JavaScript, each answer is the page's new state.
    Effect::new(move || {
        if let Some(Ok(now)) = save.value().get() {
            current.set(now);
        }
    });
    Effect::new(move || {
        if let Some(Ok(now)) = run.value().get() {
            current.set(now);
        }
    });
    let found = current.get_untracked();
    view! {
        <section class="card" aria-labelledby="bank-switch-title">
            <h2 id="bank-switch-title">"Settings"</h2>
            <ActionForm action=save>
                <CsrfField/>
                <p><label>
                    <input type="checkbox" name="enabled" value="on" checked=found.enabled/>
                    " Bank sync is on (people can connect their banks under Data → Bank Sync)"
                </label></p>
                <p>
                    <label for="bank-interval">"Automatic sync every (hours)"</label>
                    <input id="bank-interval" name="interval_hours" type="number" min="1" max="168"
                        required inputmode="numeric" value=found.interval_hours.to_string()/>
                </p>
                <button type="submit" class="button" aria-busy=move || save.pending().get().then_some("true")>"Save"</button>
                <p class="field-error" role="alert">{move || failure(save.value().get())}</p>
                <p role="status">{move || matches!(save.value().get(), Some(Ok(_))).then_some("Saved.")}</p>
            </ActionForm>
            <ActionForm action=run>
                <CsrfField/>
                <button type="submit" class="button button--quiet"
                    disabled=move || !current.get().enabled>"Run the automatic sync now"</button>
                <p class="field-error" role="alert">{move || failure(run.value().get())}</p>
                <p role="status">{move || matches!(run.value().get(), Some(Ok(_))).then_some("The automatic sync is starting.")}</p>
            </ActionForm>
        </section>
        {move || {
            let now = current.get();
            let worker = now.worker.clone();
            view! {
                <section class="card" aria-labelledby="bank-worker-title" data-testid="bank-worker">
                    <h2 id="bank-worker-title">"Automatic sync"</h2>
                    <dl class="facts">
                        <dt>"State"</dt><dd>{if worker.running { "Running" } else { "Idle" }}</dd>
                        <dt>"Last run"</dt><dd>{worker.last_run_at.as_deref().map(timestamp::minute).unwrap_or_else(|| "Not yet".into())}
                            {worker.last_run_at.is_some().then(|| format!(" · {} synced, {} failed", worker.last_synced, worker.last_failed))}</dd>
                        <dt>"Next run"</dt><dd>{worker.next_run_at.as_deref().map(timestamp::minute).unwrap_or_else(|| "—".into())}</dd>
                        <dt>"Windows"</dt><dd>{format!(
                            "{} days when connecting or backfilling, 30 on each sync; the provider keeps {} days",
                            now.seed_days, now.lookback_cap_days
                        )}</dd>
                        <dt>"Stored bank access protected by"</dt><dd>{now.key_source.clone()}</dd>
                    </dl>
                </section>
                <section class="card" aria-labelledby="bank-connections-title">
                    <h2 id="bank-connections-title">"Connections"</h2>
                    {if now.connections.is_empty() {
                        view! { <p>"No one has connected a bank yet."</p> }.into_any()
                    } else {
                        view! {
                            <div class="table-wrap"><table class="data-table" data-testid="bank-connections-health">
                                <thead><tr><th>"Owner"</th><th>"Bank"</th><th>"State"</th><th>"Last synced"</th><th>"Last error"</th></tr></thead>
                                <tbody>{now.connections.into_iter().map(|c| view! {
                                    <tr>
                                        <td>{c.owner_email}</td>
                                        <td>{c.institution}</td>
                                        <td>{c.status}</td>
                                        <td>{c.last_synced_at.as_deref().map(timestamp::minute).unwrap_or_else(|| "Never".into())}</td>
                                        <td>{c.last_error.unwrap_or_default()}</td>
                                    </tr>
                                }).collect_view()}</tbody>
                            </table></div>
                        }.into_any()
                    }}
                </section>
            }
        }}
    }
}

/// `AdminBankPage` as a route whose code is left out of the first download.
pub struct AdminBankRoute;

split_route!(AdminBankRoute => AdminBankPage in admin);
