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

use crate::components::bill_import::BillImportCard;
use crate::components::history_import::HistoryImportCard;
use crate::components::personal_data::PersonalDataCard;
use crate::components::statement_import::StatementImportCard;

#[component]
pub fn DataPage() -> impl IntoView {
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
        <BillImportCard/>
    }
}

/// `DataPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct DataRoute;

split_route!(DataRoute => DataPage in app);
