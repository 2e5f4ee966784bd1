use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos::web_sys::FormData;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;

use crate::api::bank::get_bank_connections;
use crate::api::statements::{
    discarded_address, get_statement_import, import_address, upload_statement,
    CommitStatementImport, DiscardStatementImport, UploadStatement, ACCOUNT_FIELD,
    DATE_ORDER_FIELD, FILE_FIELD, IMPORT_PARAMETER,
};
use crate::api::{each_answer, each_local_answer, page_resource, refusal_in_address, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::components::form_outcome_notice::said_in_address;
use crate::components::live_operation::LiveOperationCard;
use crate::components::open_here::open_here;
use crate::components::submitted_form::submitted_form;
use crate::contract::operations::Operation;
use crate::contract::statements::StatementImport;
use crate::domain::form_outcome::FormOutcome;
use crate::domain::money::Money;

fn money(minor: i64, currency: &str) -> String {
    Money::shown(minor, currency)
}

/// Data → Import a bank statement: an OFX, QFX, QIF or CAMT.053 file (or a
/// Firefly III or Actual CSV export) goes to a bank account (or new
/// imported accounts). Its preview (an operation) says what is new, what is
/// already there, what was refused and whether the balance adds up; nothing
/// is written until "Import". "Discard this preview" forgets it instead,
/// so it no longer counts toward the uploads a person may leave waiting.
///
/// The import the card shows is in the address (`?statement=<id>`), so
/// the card works without JavaScript: the upload is a `multipart/form-data`
/// form and "Import" and "Discard" are `ActionForm`s; each brings the
/// browser back to the Data page at the import (a discard to the Data page
/// without one, saying so). With JavaScript the page posts the same forms,
/// follows their operations live and puts the import in the address
/// itself.
#[component]
pub fn StatementImportCard() -> impl IntoView {
    let query = use_query_map();
    let shown = Memo::new(move |_| {
        query.with(|query| {
            query
                .get(IMPORT_PARAMETER)
                .and_then(|id| id.parse::<i64>().ok())
        })
    });
    // Read again when an operation on it ends.
    let version = RwSignal::new(0_u32);
    let import = page_resource(
        move || (shown.get(), version.get()),
        |(id, _)| async move {
            match id {
                Some(id) => Some(get_statement_import(id).await.map_err(ApiFailure::from)),
                None => None,
            }
        },
    );
    let accounts = page_resource(
        || (),
        |()| async {
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
        },
    );
    let started = said_in_address(FormOutcome::StatementImportStarted);
    let discarded = RwSignal::new(said_in_address(FormOutcome::StatementImportDiscarded));
    let error =
        RwSignal::new(refusal_in_address::<UploadStatement>().map(|failure| failure.message()));
    let previewing = RwSignal::new(None::<Operation>);
    let committing = RwSignal::new(None::<Operation>);

    let upload = Action::new_local(|form: &FormData| upload_statement(form.clone().into()));
    let open = open_here();
    each_local_answer(upload, {
        let open = open.clone();
        move |answer| match answer {
            Ok(started) => {
                previewing.set(Some(started.operation));
                open(&import_address(started.import.id, None));
            }
            Err(failure) => error.set(Some(failure.message())),
        }
    });
    let commit = ServerAction::<CommitStatementImport>::new();
    each_answer(commit, move |answer| match answer {
        Ok(operation) => committing.set(Some(operation)),
        Err(failure) => error.set(Some(failure.message())),
    });
    let discard = ServerAction::<DiscardStatementImport>::new();
    each_answer(discard, move |answer| match answer {
        Ok(()) => {
            previewing.set(None);
            committing.set(None);
            error.set(None);
            discarded.set(Some(FormOutcome::StatementImportDiscarded.message()));
            open(&discarded_address());
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    let busy = move || upload.pending().get() || commit.pending().get() || discard.pending().get();
    let send = move |event: leptos::ev::SubmitEvent| {
        let Some(data) = submitted_form(&event) else {
            return;
        };
        previewing.set(None);
        committing.set(None);
        error.set(None);
        discarded.set(None);
        upload.dispatch_local(data);
    };
    let reread = Callback::new(move |()| version.update(|version| *version += 1));

    view! {
        <section class="card" aria-labelledby="statement-title">
            <h2 id="statement-title">"Import a bank statement"</h2>
            <p class="hint">"An OFX, QFX, QIF or CAMT.053 file from your bank, or a Firefly III or Actual CSV export, up to 10 MB. You see what is new and what is already here before anything is saved; importing the same statement twice adds nothing."</p>
            <form method="post" action=UploadStatement::PATH enctype="multipart/form-data" on:submit=send>
                // First: the server reads the token before the file.
                <CsrfField/>
                <div class="field">
                    <label for="statement-file">"Statement file"</label>
                    <input id="statement-file" name=FILE_FIELD type="file" accept=".ofx,.qfx,.qif,.xml,.csv" required/>
                </div>
                <div class="field">
                    <label for="statement-account">"Into"</label>
                    <select id="statement-account" name=ACCOUNT_FIELD>
                        <option value="">"New imported account(s), named by the file"</option>
                        <Suspense>
                            {move || Suspend::new(async move {
                                accounts.await.into_iter().map(|(id, name)| view! {
                                    <option value=id.to_string()>{name}</option>
                                }).collect_view()
                            })}
                        </Suspense>
                    </select>
                </div>
                <div class="field">
                    <label for="statement-dates">"Dates in a QIF file"</label>
                    <select id="statement-dates" name=DATE_ORDER_FIELD>
                        <option value="">"Tell from the file"</option>
                        <option value="mdy">"Month first (01/31/2025)"</option>
                        <option value="dmy">"Day first (31/01/2025)"</option>
                    </select>
                </div>
                <button type="submit" class="button" disabled=busy>"Preview"</button>
            </form>
            <p class="field-error" role="alert" data-testid="statement-error">{move || error.get()}</p>
            <p role="status" data-testid="statement-discarded">{move || discarded.get()}</p>
            {move || previewing.get().map(|operation| view! { <LiveOperationCard operation on_done=reread/> })}
            <Transition>
                {move || Suspend::new(async move {
                    match import.await {
                        None => None,
                        Some(Err(failure)) => Some(view! {
                            <p class="field-error" role="alert">{failure.message()}</p>
                        }.into_any()),
                        Some(Ok(found)) => Some(view! {
                            <ImportShown found commit discard busy=Signal::derive(busy) started committing/>
                        }.into_any()),
                    }
                })}
            </Transition>
            {move || committing.get().map(|operation| view! {
                <LiveOperationCard operation on_done=reread/>
                <p><A href="/data/transactions">"See the transactions"</A></p>
            })}
        </section>
    }
}

/// An import as the card shows it: still being previewed (with a link to
/// look again, for a page without JavaScript), refused, or its preview
/// with the forms that import it or discard it.
#[component]
fn ImportShown(
    found: StatementImport,
    commit: ServerAction<CommitStatementImport>,
    discard: ServerAction<DiscardStatementImport>,
    busy: Signal<bool>,
    started: Option<&'static str>,
    committing: RwSignal<Option<Operation>>,
) -> impl IntoView {
    match found.state.as_str() {
        "uploaded" => {
            return view! {
                <p role="status" data-testid="statement-pending">
                    {format!("Making the preview of {}… ", found.file_name)}
                    <a href=import_address(found.id, None)>"Look again"</a>
                </p>
            }
            .into_any()
        }
        "failed" => {
            return view! {
                <p class="field-error" role="alert" data-testid="statement-failed">
                    {format!("The file was refused: {}", found.error.clone().unwrap_or_default())}
                </p>
            }
            .into_any()
        }
        _ => {}
    }
    let Some(summary) = found.preview.clone() else {
        return ().into_any();
    };
    let committed = found.state == "committed";
    let id = found.id;
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
        {match (committed, started) {
            (true, _) => view! {
                <p role="status">"These transactions are imported; they are in " <A href="/data/transactions">"Transactions"</A> "."</p>
            }.into_any(),
            // Posted without JavaScript: the import runs; the page
            // can be looked at again.
            (false, Some(message)) => view! {
                <p class="notice" role="status" data-testid="statement-started">{message} " "
                    <a href=import_address(id, None)>"Look again"</a> " · " <A href="/operations">"Operations"</A></p>
            }.into_any(),
            (false, None) => view! {
                <div class="actions">
                    <ActionForm action=commit>
                        <CsrfField/>
                        <input type="hidden" name="id" value=id.to_string()/>
                        <button type="submit" class="button" disabled=move || busy.get() || new_rows == 0 || committing.get().is_some()>
                            {match new_rows {
                                0 => "Nothing new to import".to_owned(),
                                1 => "Import 1 new transaction".to_owned(),
                                n => format!("Import {n} new transactions"),
                            }}
                        </button>
                    </ActionForm>
                    // Forgets the preview, so it no longer counts toward
                    // the uploads that may wait at once.
                    <ActionForm action=discard>
                        <CsrfField/>
                        <input type="hidden" name="id" value=id.to_string()/>
                        <button type="submit" class="button button--quiet" disabled=move || busy.get() || committing.get().is_some()>
                            "Discard this preview"
                        </button>
                    </ActionForm>
                </div>
            }.into_any(),
        }}
    }
    .into_any()
}
