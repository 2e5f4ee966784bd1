use leptos::prelude::*;
use leptos_router::components::A;

use crate::api::bank::get_bank_connections;
use crate::api::statements::{commit_statement_import, get_statement_import, upload_statement};
use crate::api::ApiFailure;
use crate::components::live_operation::LiveOperationCard;
use crate::contract::operations::Operation;
use crate::contract::statements::StatementImport;
use crate::domain::money::Money;

fn money(minor: i64, currency: &str) -> String {
    Money::shown(minor, currency)
}

/// Data → Import a bank statement: an OFX, QFX, QIF or CAMT.053 file (or a
/// Firefly III or Actual CSV export) goes to a bank account (or new
/// imported accounts). Its preview (an operation) says what is new, what is
/// already there, what was refused and whether the balance adds up; nothing
/// is written until "Import".
#[component]
pub fn StatementImportCard() -> impl IntoView {
    let file = NodeRef::<leptos::html::Input>::new();
    let account = RwSignal::new(String::new());
    let date_order = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let previewing = RwSignal::new(None::<Operation>);
    let committing = RwSignal::new(None::<Operation>);
    let import = RwSignal::new(None::<StatementImport>);
    let accounts = LocalResource::new(|| async {
        get_bank_connections()
            .await
            .map(|found| {
                found
                    .connections
                    .into_iter()
                    .flat_map(|connection| connection.accounts)
                    .map(|account| (account.id, account.name))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    });

    let reload = move |id: i64| {
        leptos::task::spawn_local(async move {
            match get_statement_import(id).await {
                Ok(found) => {
                    error.set(
                        found
                            .error
                            .clone()
                            .map(|why| format!("The file was refused: {why}")),
                    );
                    import.set(Some(found));
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    let send = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let Some(input) = file.get() else { return };
        let mut query = Vec::new();
        if let Ok(id) = account.get_untracked().parse::<i64>() {
            query.push(format!("accountId={id}"));
        }
        let order = date_order.get_untracked();
        if !order.is_empty() {
            query.push(format!("dateOrder={order}"));
        }
        import.set(None);
        previewing.set(None);
        committing.set(None);
        error.set(None);
        busy.set(true);
        leptos::task::spawn_local(async move {
            let answer = upload_statement(&input, &query.join("&")).await;
            busy.set(false);
            match answer {
                Ok(Some(started)) => {
                    previewing.set(Some(started.operation));
                    import.set(Some(started.import));
                }
                Ok(None) => error.set(Some("Choose a statement file first.".into())),
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };
    let commit = move |_| {
        let Some(id) = import.get_untracked().map(|found| found.id) else {
            return;
        };
        busy.set(true);
        leptos::task::spawn_local(async move {
            let answer = commit_statement_import(id).await;
            busy.set(false);
            match answer {
                Ok(operation) => committing.set(Some(operation)),
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };

    view! {
        <section class="card" aria-labelledby="statement-title">
            <h2 id="statement-title">"Import a bank statement"</h2>
            <p class="hint">"An OFX, QFX, QIF or CAMT.053 file from your bank, or a Firefly III or Actual CSV export, up to 10 MB. You see what is new and what is already here before anything is saved; importing the same statement twice adds nothing."</p>
            <form on:submit=send>
                <div class="field">
                    <label for="statement-file">"Statement file"</label>
                    <input id="statement-file" type="file" accept=".ofx,.qfx,.qif,.xml,.csv" node_ref=file required/>
                </div>
                <div class="field">
                    <label for="statement-account">"Into"</label>
                    <select id="statement-account" on:change=move |ev| account.set(event_target_value(&ev))>
                        <option value="">"New imported account(s), named by the file"</option>
                        <Suspense>
                            {move || accounts.get().map(|found| found.into_iter().map(|(id, name)| view! {
                                <option value=id.to_string()>{name}</option>
                            }).collect_view())}
                        </Suspense>
                    </select>
                </div>
                <div class="field">
                    <label for="statement-dates">"Dates in a QIF file"</label>
                    <select id="statement-dates" on:change=move |ev| date_order.set(event_target_value(&ev))>
                        <option value="">"Tell from the file"</option>
                        <option value="mdy">"Month first (01/31/2025)"</option>
                        <option value="dmy">"Day first (31/01/2025)"</option>
                    </select>
                </div>
                <button type="submit" class="button" disabled=move || busy.get()>"Preview"</button>
            </form>
            <p class="field-error" role="alert" data-testid="statement-error">{move || error.get()}</p>
            {move || previewing.get().map(|operation| {
                let id = import.get_untracked().map(|found| found.id);
                let on_done = Callback::new(move |()| {
                    if let Some(id) = id {
                        reload(id);
                    }
                });
                view! { <LiveOperationCard operation on_done/> }
            })}
            {move || import.get().and_then(|found| found.preview.clone().map(|summary| (found, summary))).map(|(found, summary)| {
                let committed = found.state == "committed";
                let new_rows = summary.new_rows;
                let currency_of = |file_account: &str| {
                    summary
                        .accounts
                        .iter()
                        .find(|account| account.file_account == file_account)
                        .map_or_else(|| "USD".to_owned(), |account| account.currency.clone())
                };
                view! {
                    <p data-testid="statement-summary">{format!(
                        "{} rows from {} to {}: {} new, {} already here, {} refused.",
                        summary.rows,
                        summary.first_day.clone().unwrap_or_default(),
                        summary.last_day.clone().unwrap_or_default(),
                        summary.new_rows,
                        summary.duplicates,
                        summary.refused_count,
                    )}</p>
                    <ul class="token-list" data-testid="statement-accounts">
                        {summary.accounts.iter().map(|account| {
                            let balance = account.balance.as_ref().map(|check| match (check.matches, check.computed_minor) {
                                (Some(true), _) => format!("the balance adds up: {} on {}", money(check.statement_minor, &account.currency), check.day),
                                (Some(false), Some(computed)) => format!("the balance does not add up: the statement says {}, its rows make {}", money(check.statement_minor, &account.currency), money(computed, &account.currency)),
                                _ => format!("the statement's balance: {} on {} (no opening balance to check against)", money(check.statement_minor, &account.currency), check.day),
                            });
                            view! {
                                <li>{format!("{} → {}: {} rows, {} new", account.file_account, account.target, account.rows, account.new_rows)}
                                    {balance.map(|text| view! { <span class="hint">{format!(" · {text}")}</span> })}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                    {(!summary.refused.is_empty()).then(|| view! {
                        <ul class="token-list" data-testid="statement-refused">
                            {summary.refused.iter().map(|row| view! { <li class="field-error">{format!("{}: {}", row.position, row.reason)}</li> }).collect_view()}
                        </ul>
                    })}
                    <div class="table-wrap"><table class="data-table" data-testid="statement-rows">
                        <thead><tr><th scope="col">"Day"</th><th scope="col">"Description"</th><th scope="col">"Amount"</th><th scope="col">"Status"</th></tr></thead>
                        <tbody>
                            {found.rows.iter().map(|row| view! {
                                <tr>
                                    <td>{row.day.clone()}</td>
                                    <td>{row.description.clone()}</td>
                                    <td>{money(row.amount_minor, &currency_of(&row.file_account))}</td>
                                    <td>{if row.duplicate { "already here" } else { "new" }}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table></div>
                    {(!committed).then(|| view! {
                        <button type="button" class="button" on:click=commit disabled=move || busy.get() || new_rows == 0 || committing.get().is_some()>
                            {match new_rows {
                                0 => "Nothing new to import".to_owned(),
                                1 => "Import 1 new transaction".to_owned(),
                                n => format!("Import {n} new transactions"),
                            }}
                        </button>
                    })}
                }
            })}
            {move || committing.get().map(|operation| view! {
                <LiveOperationCard operation/>
                <p><A href="/data/transactions">"See the transactions"</A></p>
            })}
        </section>
    }
}
