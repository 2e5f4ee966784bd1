//! `/data`: export bills (CSV) or everything (JSON, Excel, one SQLite file),
//! import a bank statement (OFX, QFX, QIF, CAMT.053, a Firefly III or
//! Actual CSV export) as transactions, and import bills from Tally's CSV or
//! another app's export (Wallos, Firefly III): a preview lists every row
//! with its problems and what could not be mapped, and nothing is written
//! until the person confirms a file without problems.

use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::api::data::{import_bills, preview_import};
use crate::api::upload::upload_answer;
use crate::api::{self, ApiFailure};
use crate::components::history_import::HistoryImportCard;
use crate::components::personal_data::PersonalDataCard;
use crate::components::statement_import::StatementImportCard;
use crate::contract::data::{ImportPreview, Imported};

#[component]
pub fn DataPage() -> impl IntoView {
    let file = NodeRef::<leptos::html::Input>::new();
    let text = RwSignal::new(None::<String>);
    let preview = RwSignal::new(None::<ImportPreview>);
    let error = RwSignal::new(None::<String>);
    let done = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let from = RwSignal::new(String::new());
    let from_choice = move || {
        let chosen = from.get_untracked();
        (!chosen.is_empty()).then_some(chosen)
    };

    // Actual's budget file is a database, sent as it is; the text files
    // are read here and checked by the server function.
    let binary = move || from.get_untracked() == "actual";
    let choose = move |_| {
        let Some(input) = file.get() else { return };
        preview.set(None);
        done.set(None);
        leptos::task::spawn_local(async move {
            if binary() {
                busy.set(true);
                let answer = upload_answer::<ImportPreview>(
                    &input,
                    "/api/data/import/preview?from=actual",
                    200,
                )
                .await;
                busy.set(false);
                match answer {
                    Ok(Some(checked)) => {
                        error.set(None);
                        text.set(Some(String::new()));
                        preview.set(Some(checked));
                    }
                    Ok(None) => {}
                    Err(failure) => error.set(Some(failure.message())),
                }
                return;
            }
            match api::files::chosen_text(&input).await {
                Ok(Some(content)) => {
                    busy.set(true);
                    let answer = preview_import(content.clone(), from_choice())
                        .await
                        .map_err(ApiFailure::from);
                    busy.set(false);
                    match answer {
                        Ok(checked) => {
                            error.set(None);
                            text.set(Some(content));
                            preview.set(Some(checked));
                        }
                        Err(failure) => error.set(Some(failure.message())),
                    }
                }
                Ok(None) => {}
                Err(message) => error.set(Some(message)),
            }
        });
    };
    let confirm = move |_| {
        let Some(content) = text.get_untracked() else {
            return;
        };
        busy.set(true);
        leptos::task::spawn_local(async move {
            let answer = match file.get_untracked().filter(|_| binary()) {
                Some(input) => {
                    upload_answer::<Imported>(&input, "/api/data/import?from=actual", 201)
                        .await
                        .and_then(|imported| {
                            imported
                                .ok_or_else(|| ApiFailure::Network("choose the file again".into()))
                        })
                }
                None => import_bills(content, from_choice())
                    .await
                    .map_err(ApiFailure::from),
            };
            busy.set(false);
            match answer {
                Ok(imported) => {
                    error.set(None);
                    preview.set(None);
                    text.set(None);
                    done.set(Some(format!("Imported {} bills.", imported.imported)));
                }
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };

    view! {
        <Title text="Data"/>
        <h1>"Data"</h1>
        <section class="card" aria-labelledby="export-title">
            <h2 id="export-title">"Export"</h2>
            <p>"Your bills as a spreadsheet (CSV), bills and payments together as JSON, or bills, payments, this-time changes and bank transactions in one Excel workbook."</p>
            <div class="actions">
                <a class="button" href="/api/data/bills.csv" download rel="external">"Download bills (CSV)"</a>
                <a class="button button--quiet" href="/api/data/payments.csv" download rel="external">"Download payments (CSV)"</a>
                <a class="button button--quiet" href="/api/data/months.csv" download rel="external">"Download this-time changes (CSV)"</a>
                <a class="button button--quiet" href="/api/data/export.json" download rel="external">"Download everything (JSON)"</a>
                <a class="button button--quiet" href="/api/data/export.xlsx" download rel="external">"Download everything (Excel)"</a>
            </div>
        </section>
        <PersonalDataCard/>
        <section class="card" aria-labelledby="bank-title">
            <h2 id="bank-title">"Bank sync"</h2>
            <p class="hint">"Connect your bank so payments appear and autopay is checked."</p>
            <p><A href="/data/bank">"Bank sync"</A> " · " <A href="/data/transactions">"Transactions"</A></p>
        </section>
        <StatementImportCard/>
        <HistoryImportCard/>
        <section class="card" aria-labelledby="import-title">
            <h2 id="import-title">"Import bills"</h2>
            <p class="hint">"From Tally's CSV export, Wallos's subscription export (JSON or CSV), Firefly III's bill export or Actual's budget file (db.sqlite, or the zip Actual exports). You will see every row, and what could not be brought over, before anything is saved; a file with a problem in any row is not imported."</p>
            <div class="field">
                <label for="import-from">"Made by"</label>
                <select id="import-from" on:change=move |ev| {
                    from.set(event_target_value(&ev));
                    preview.set(None);
                }>
                    <option value="">"Tally (CSV export)"</option>
                    <option value="wallos">"Wallos (JSON or CSV)"</option>
                    <option value="firefly">"Firefly III (bills CSV)"</option>
                    <option value="actual">"Actual (budget file: its schedules)"</option>
                </select>
            </div>
            <label for="import-file">"CSV file"</label>
            <input id="import-file" type="file" accept=".csv,.json,.sqlite,.zip,text/csv,application/json" node_ref=file on:change=choose/>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <p role="status" data-testid="import-done">{move || done.get()}</p>
            {move || preview.get().map(|checked| {
                let ready = checked.invalid == 0 && checked.valid > 0;
                view! {
                    <p data-testid="import-summary">{format!("{} rows ready, {} with problems.", checked.valid, checked.invalid)}</p>
                    {(!checked.not_mapped.is_empty()).then(|| view! {
                        <p>"Not brought over:"</p>
                        <ul class="token-list" data-testid="import-not-mapped">
                            {checked.not_mapped.iter().map(|note| view! { <li>{note.clone()}</li> }).collect_view()}
                        </ul>
                    })}
                    <div class="table-wrap"><table class="data-table" data-testid="import-preview">
                        <thead><tr><th scope="col">"Line"</th><th scope="col">"Bill"</th><th scope="col">"Problems"</th></tr></thead>
                        <tbody>
                            {checked.rows.into_iter().map(|row| view! {
                                <tr>
                                    <td>{row.line}</td>
                                    <td>{row.name}</td>
                                    <td class="field-error">{row.problems.iter().map(|p| format!("{}: {}", p.field, p.description)).collect::<Vec<_>>().join("; ")}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table></div>
                    <button class="button" disabled=move || !ready || busy.get() on:click=confirm>
                        {if ready { "Import these bills" } else { "Fix the file and choose it again" }}
                    </button>
                }
            })}
        </section>
    }
}

/// `DataPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct DataRoute;

split_route!(DataRoute => DataPage in app);
