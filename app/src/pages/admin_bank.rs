//! `/admin/bank`: Admin → Bank Sync. The switch, the automatic sync's
//! interval, the lookback windows, the worker (running or idle, its last
//! and next run), every connection's last error, and which key protects
//! the stored bank access. Administrators only; it arrives with the page.

use super::split_route::split_route;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::api::bank::{get_bank_sync_status, run_bank_sync_now, save_bank_sync};
use crate::api::{self, ApiFailure};
use crate::components::admin_only::AdminOnly;
use crate::contract::bank::{BankSyncStatus, UpdateBankSync};
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

#[component]
fn Panel(found: BankSyncStatus) -> impl IntoView {
    let current = RwSignal::new(found);
    let enabled = RwSignal::new(current.get_untracked().enabled);
    let hours = RwSignal::new(current.get_untracked().interval_hours.to_string());
    let error = RwSignal::new(None::<String>);
    let saved = RwSignal::new(None::<&'static str>);
    let answer = move |result: Result<BankSyncStatus, ApiFailure>, done: &'static str| match result
    {
        Ok(now) => {
            enabled.set(now.enabled);
            hours.set(now.interval_hours.to_string());
            current.set(now);
            error.set(None);
            saved.set(Some(done));
        }
        Err(failure) => {
            saved.set(None);
            error.set(Some(failure.message()));
        }
    };
    let save = move |event: SubmitEvent| {
        event.prevent_default();
        let Ok(interval_hours) = hours.get_untracked().trim().parse::<u32>() else {
            error.set(Some(
                "Interval: enter a whole number of hours, 1 to 168.".into(),
            ));
            return;
        };
        let request = UpdateBankSync {
            enabled: enabled.get_untracked(),
            interval_hours,
        };
        leptos::task::spawn_local(async move {
            answer(
                save_bank_sync(request).await.map_err(ApiFailure::from),
                "Saved.",
            );
        });
    };
    let run = move |_| {
        leptos::task::spawn_local(async move {
            answer(
                run_bank_sync_now().await.map_err(ApiFailure::from),
                "The automatic sync is starting.",
            );
        });
    };
    view! {
        <section class="card" aria-labelledby="bank-switch-title">
            <h2 id="bank-switch-title">"Settings"</h2>
            <form on:submit=save>
                <p><label>
                    <input type="checkbox" prop:checked=move || enabled.get()
                        on:change=move |ev| enabled.set(event_target_checked(&ev))/>
                    " Bank sync is on (people can connect their banks under Data → Bank Sync)"
                </label></p>
                <p>
                    <label for="bank-interval">"Automatic sync every (hours)"</label>
                    <input id="bank-interval" type="number" min="1" max="168" required
                        prop:value=move || hours.get()
                        on:input=move |ev| hours.set(event_target_value(&ev))/>
                </p>
                <button type="submit" class="button">"Save"</button>
                " "
                <button type="button" class="button button--quiet" on:click=run
                    disabled=move || !current.get().enabled>"Run the automatic sync now"</button>
            </form>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <p role="status">{move || saved.get()}</p>
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
