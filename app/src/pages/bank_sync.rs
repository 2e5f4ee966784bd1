//! `/data/bank`: Data → Bank Sync. Connect a bank with the provider's setup
//! token (or the demo bank), see its accounts with their balances and
//! switch any out of syncing, sync now or backfill with live progress,
//! reconnect or disconnect, review what was matched automatically, and the
//! latest transactions. It all arrives with the page, and each write is a
//! form that posts without JavaScript too.

use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::api::bank::{
    get_auto_matches, get_bank_connections, get_bank_transactions, AddBankConnection,
    DisconnectBank, ReconnectBank, SetAccountMonitored, SyncBank, UnlinkTransaction,
};
use crate::api::bills::get_bills;
use crate::api::{self, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::components::live_operation::{follow, OperationProgressBar};
use crate::components::match_cell::MatchCell;
use crate::contract::bank::{
    AutoMatches, BankConnection, BankConnections, ConnectionStatus, TransactionPage,
    TransactionQuery, DEMO_SETUP_TOKEN,
};
use crate::contract::bills::BillRecord;
use crate::contract::operations::Operation;
use crate::domain::money::Money;
use crate::domain::operation::State;
use crate::domain::timestamp;

fn money(minor: i64, currency: &str) -> String {
    Money::shown(minor, currency)
}

#[component]
pub fn BankSyncPage() -> impl IntoView {
    // One blocking resource for everything the page shows, so it all
    // arrives and hydrates with the page (a second resource nested in this
    // one's Transition did not always hydrate, and its buttons stayed dead).
    let connections = crate::api::page_resource(
        || (),
        |()| async {
            let found = get_bank_connections().await.map_err(ApiFailure::from)?;
            let transactions = get_bank_transactions(TransactionQuery {
                page_size: Some(50),
                ..TransactionQuery::default()
            })
            .await
            .map_err(ApiFailure::from)?;
            let bills = get_bills().await.map_err(ApiFailure::from)?.bills;
            let review = get_auto_matches().await.map_err(ApiFailure::from)?;
            Ok::<_, ApiFailure>((found, transactions, bills, review))
        },
    );
    // The sync (or seed) being followed; the lists load again when it ends.
    let running = RwSignal::new(None::<Operation>);
    let started = move |operation: Operation| running.set(Some(operation));

    view! {
        <Title text="Bank sync"/>
        <p><A href="/data">"Data"</A> " › Bank sync"</p>
        <h1>"Bank sync"</h1>
        {move || running.get().map(|operation| view! {
            <SyncProgress operation done=Callback::new(move |()| connections.refetch())/>
        })}
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match connections.await {
                    Err(failure) if failure.status() == Some(403) => view! {
                        <p>"Bank sync is turned off on this Tally. An administrator can turn it on in "
                        <A href="/admin/bank">"Admin → Bank Sync"</A> "."</p>
                    }.into_any(),
                    Err(failure) => view! { <p class="field-error" role="alert">{failure.message()}</p> }.into_any(),
                    Ok((found, transactions, bills, review)) => view! {
                        <Connect found=found.clone() started=Callback::new(started)/>
                        {found.connections.into_iter().map(|connection| view! {
                            <ConnectionCard connection started=Callback::new(started)
                                refresh=Callback::new(move |()| connections.refetch())/>
                        }).collect_view()}
                        <Review review refresh=Callback::new(move |()| connections.refetch())/>
                        <Recent transactions bills refresh=Callback::new(move |()| connections.refetch())/>
                    }.into_any(),
                }
            })}
        </Transition>
    }
}

/// A sync being followed, live; `done` runs once it has ended.
#[component]
fn SyncProgress(operation: Operation, done: Callback<()>) -> impl IntoView {
    let live = follow(operation);
    Effect::new(move |finished: Option<bool>| {
        let now = live.get().done;
        if now && finished != Some(true) {
            done.run(());
        }
        now
    });
    view! {
        <div class="op-card" role="status" aria-live="polite" data-testid="bank-sync-progress">
            <p><strong>{move || live.get().kind_label()}</strong> " · "
                {move || live.get().state().label()}</p>
            <OperationProgressBar operation=live.into()/>
            <p class="hint">{move || if live.get().state() == State::Running {
                "Fetching from your bank…".to_owned()
            } else {
                live.get().summary()
            }}</p>
        </div>
    }
}

/// Connecting: the setup token, or the demo bank when it is offered. Both
/// are forms that post without JavaScript too; with it, the seed sync's
/// progress shows here.
#[component]
fn Connect(found: BankConnections, started: Callback<Operation>) -> impl IntoView {
    // Here, not at the top of the page: a refusal the address carries
    // (a post without JavaScript) is heard as this part is made.
    let error = RwSignal::new(None::<String>);
    let connect = ServerAction::<AddBankConnection>::new();
    let form = NodeRef::<leptos::html::Form>::new();
    api::each_answer(connect, move |answer| match answer {
        Ok(connected) => {
            error.set(None);
            if let Some(form) = form.get_untracked() {
                form.reset();
            }
            started.run(connected.operation);
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    let busy = connect.pending();
    view! {
        <section class="card" aria-labelledby="connect-title">
            <h2 id="connect-title">"Connect a bank"</h2>
            <p class="hint">
                {format!(
                    "Tally fetches the last {} days when you connect or backfill, and the last 30 on each sync; your provider keeps {} days.",
                    found.seed_days, found.lookback_cap_days
                )}
            </p>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <ActionForm action=connect node_ref=form attr:class="inline-form">
                <CsrfField/>
                <label for="setup-token">"Setup token"</label>
                <textarea id="setup-token" name="request[setupToken]" rows="2" required
                    autocomplete="off" spellcheck="false"></textarea>
                <button type="submit" class="button" disabled=move || busy.get()>
                    {move || if busy.get() { "Connecting…" } else { "Connect" }}
                </button>
            </ActionForm>
            {found.demo_bank.then(|| view! {
                <ActionForm action=connect>
                    <CsrfField/>
                    <input type="hidden" name="request[setupToken]" value=DEMO_SETUP_TOKEN/>
                    <button type="submit" class="button button--quiet" disabled=move || busy.get()>
                        "Connect the demo bank"
                    </button>
                    <span class="hint">" Made-up accounts and transactions, to try bank sync."</span>
                </ActionForm>
            })}
        </section>
    }
}

/// One connection: its accounts, its last sync, and what can be done, each
/// a form that posts without JavaScript too.
#[component]
fn ConnectionCard(
    connection: BankConnection,
    started: Callback<Operation>,
    refresh: Callback<()>,
) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let id = connection.id;
    let active = connection.status != ConnectionStatus::Disconnected;
    let sync = ServerAction::<SyncBank>::new();
    let disconnect = ServerAction::<DisconnectBank>::new();
    let reconnect = ServerAction::<ReconnectBank>::new();
    let monitor = ServerAction::<SetAccountMonitored>::new();
    let reconnect_form = NodeRef::<leptos::html::Form>::new();
    api::each_answer(sync, move |answer| match answer {
        Ok(operation) => {
            error.set(None);
            started.run(operation);
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    api::each_answer(disconnect, move |answer| match answer {
        Ok(()) => refresh.run(()),
        Err(failure) => error.set(Some(failure.message())),
    });
    api::each_answer(reconnect, move |answer| match answer {
        Ok(connected) => {
            error.set(None);
            if let Some(form) = reconnect_form.get_untracked() {
                form.reset();
            }
            started.run(connected.operation);
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    api::each_answer(monitor, move |answer| {
        if let Err(failure) = answer {
            error.set(Some(failure.message()));
        }
    });
    // With JavaScript a ticked or cleared box sends its form at once, so
    // its Save button (for a browser without) goes.
    let live = RwSignal::new(false);
    Effect::new(move || live.set(true));
    let token_id = format!("reconnect-token-{id}");
    let status = match connection.status {
        ConnectionStatus::Active => "Connected",
        ConnectionStatus::Error => "Last sync failed",
        ConnectionStatus::Disconnected => "Disconnected",
    };
    view! {
        <section class="card" data-testid="bank-connection">
            <h2>{connection.institution.clone()}</h2>
            <p>
                <strong>{status}</strong>
                {connection.last_synced_at.as_deref().map(|at| format!(" · last synced {}", timestamp::minute(at)))}
            </p>
            {connection.last_error.clone().map(|message| view! { <p class="field-error">{message}</p> })}
            <p class="field-error" role="alert">{move || error.get()}</p>
            <div class="table-wrap">
                <table class="data-table" data-testid="bank-accounts">
                    <thead><tr><th>"Account"</th><th>"Balance"</th><th>"Pending"</th><th>"Synced"</th></tr></thead>
                    <tbody>
                        {connection.accounts.into_iter().map(|account| {
                            let label = format!("Sync {}", account.name);
                            let save_label = format!("Save whether {} syncs", account.name);
                            view! {
                                <tr>
                                    <td>{account.name.clone()}</td>
                                    <td>{account.balance_minor.map(|minor| money(minor, &account.currency))}
                                        {account.balance_date.as_deref().map(|at| view! { <span class="hint">{format!(" as of {}", timestamp::day(at))}</span> })}</td>
                                    <td>{money(account.pending_minor, &account.currency)}</td>
                                    <td><ActionForm action=monitor attr:class="inline-form">
                                        <CsrfField/>
                                        <input type="hidden" name="id" value=account.id/>
                                        <input type="checkbox" name="monitored" value="on" aria-label=label
                                            checked=account.monitored disabled=!active
                                            on:change=move |ev| {
                                                let form = event_target::<leptos::web_sys::HtmlInputElement>(&ev).form();
                                                if let Some(form) = form {
                                                    let _ = form.request_submit();
                                                }
                                            }/>
                                        " "
                                        <button type="submit" class="button button--quiet" aria-label=save_label
                                            disabled=!active hidden=move || live.get()>"Save"</button>
                                    </ActionForm></td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            // A `div`, not a `p`: a form inside a `p` closes it in the
            // browser's parser, and the page would not hydrate.
            {active.then(|| view! {
                <div class="actions">
                    <ActionForm action=sync attr:class="inline-form">
                        <CsrfField/>
                        <input type="hidden" name="id" value=id/>
                        <button type="submit" name="backfill" value="false" class="button">"Sync now"</button>
                        " "
                        <button type="submit" name="backfill" value="true" class="button button--quiet">"Backfill"</button>
                    </ActionForm>
                    " "
                    <ActionForm action=disconnect attr:class="inline-form">
                        <CsrfField/>
                        <input type="hidden" name="id" value=id/>
                        <button type="submit" class="button button--quiet">"Disconnect"</button>
                    </ActionForm>
                </div>
            })}
            <details open=!active || connection.status == ConnectionStatus::Error>
                <summary>"Reconnect with a new setup token"</summary>
                <ActionForm action=reconnect node_ref=reconnect_form attr:class="inline-form">
                    <CsrfField/>
                    <input type="hidden" name="id" value=id/>
                    <label for=token_id.clone()>"New setup token"</label>
                    <textarea id=token_id name="request[setupToken]" rows="2" required
                        autocomplete="off" spellcheck="false"></textarea>
                    <button type="submit" class="button">"Reconnect"</button>
                </ActionForm>
                <p class="hint">"The accounts and their history carry on; nothing is fetched twice."</p>
            </details>
        </section>
    }
}

/// The automatic matches of the last seven days, each undoable (the
/// payment it recorded is undone, the bill restored).
#[component]
fn Review(review: AutoMatches, refresh: Callback<()>) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let undo = ServerAction::<UnlinkTransaction>::new();
    api::each_answer(undo, move |answer| match answer {
        Ok(_) => refresh.run(()),
        Err(failure) => error.set(Some(failure.message())),
    });
    let body = if review.matches.is_empty() {
        view! { <p>"Nothing was matched automatically in the last " {review.review_days} " days."</p> }
            .into_any()
    } else {
        view! {
            <div class="table-wrap"><table class="data-table" data-testid="auto-matches">
                <thead><tr><th>"Date"</th><th>"Description"</th><th>"Amount"</th><th>"Bill"</th><th></th></tr></thead>
                <tbody>{review.matches.into_iter().map(|found| {
                    let label = format!("Undo matching {} to {}", found.transaction.description, found.bill_name);
                    view! {
                        <tr>
                            <td>{timestamp::day(&found.transaction.posted_at).to_owned()}</td>
                            <td>{found.transaction.description.clone()}</td>
                            <td>{money(found.transaction.amount_minor, &found.transaction.currency)}</td>
                            <td>{found.bill_name.clone()}</td>
                            <td><ActionForm action=undo attr:class="inline-form">
                                <CsrfField/>
                                <input type="hidden" name="id" value=found.transaction.id/>
                                <button type="submit" class="button button--quiet" aria-label=label>"Undo"</button>
                            </ActionForm></td>
                        </tr>
                    }
                }).collect_view()}</tbody>
            </table></div>
        }
        .into_any()
    };
    view! {
        <section class="card" aria-labelledby="review-title">
            <h2 id="review-title">"Matched automatically"</h2>
            <p class="hint">"Payments recorded from your confirmed payees in the last 7 days. Undo one to restore the bill."</p>
            <p class="field-error" role="alert">{move || error.get()}</p>
            {body}
        </section>
    }
}

/// The latest transactions of every account; a debit can be matched to one
/// of the user's bills here (recording its payment), or unmatched.
#[component]
fn Recent(
    transactions: TransactionPage,
    bills: Vec<BillRecord>,
    refresh: Callback<()>,
) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    // Set once this part is live in the browser (effects run only there):
    // the rows' buttons answer clicks from then on, which tests wait for.
    let live = RwSignal::new(false);
    Effect::new(move || live.set(true));
    let rows = if transactions.transactions.is_empty() {
        view! { <p>"No transactions yet. They arrive with the next sync of a connected account."</p> }.into_any()
    } else {
        view! {
            <div class="table-wrap"><table class="data-table" data-testid="bank-transactions"
                data-live=move || live.get().then_some("true")>
                <thead><tr><th>"Date"</th><th>"Description"</th><th>"Amount"</th><th>"Bill"</th></tr></thead>
                <tbody>{transactions.transactions.into_iter().map(|t| {
                    let bill_name = t.bill_id.and_then(|id| bills.iter().find(|b| b.id == id).map(|b| b.name.clone()));
                    view! {
                        <tr>
                            <td>{timestamp::day(&t.posted_at).to_owned()}</td>
                            <td>{t.description.clone()}{t.pending.then(|| view! { <span class="hint">" (pending)"</span> })}</td>
                            <td>{money(t.amount_minor, &t.currency)}</td>
                            <td><MatchCell transaction=t bill_name bills=bills.clone() error changed=refresh/></td>
                        </tr>
                    }
                }).collect_view()}</tbody>
            </table></div>
        }
        .into_any()
    };
    view! {
        <section class="card" aria-labelledby="recent-title">
            <h2 id="recent-title">"Latest transactions"</h2>
            <p><A href="/data/transactions">"All transactions, search and suggestions"</A></p>
            <p class="field-error" role="alert">{move || error.get()}</p>
            {rows}
        </section>
    }
}

/// `BankSyncPage` as a route whose code is left out of the first download.
pub struct BankSyncRoute;

split_route!(BankSyncRoute => BankSyncPage in app);
