//! A bank transaction's bill: its name and "Unmatch" once matched (a
//! returned debit says so), otherwise a bill to choose, whether to remember
//! the payee, and "Match" (which records the bill's payment). Shared by
//! Data → Bank Sync and the Transactions page. Both are forms that post
//! without JavaScript too.

use leptos::prelude::*;

use crate::api::bank::{LinkTransactionToBill, UnlinkTransaction};
use crate::api::{self, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::contract::bank::BankTransaction;
use crate::contract::bills::BillRecord;

/// A transaction's bill: its name and "Unmatch" once matched, otherwise a
/// bill to choose, whether to remember the payee, and "Match".
#[component]
pub fn MatchCell(
    transaction: BankTransaction,
    bill_name: Option<String>,
    bills: Vec<BillRecord>,
    error: RwSignal<Option<String>>,
    changed: Callback<()>,
) -> impl IntoView {
    let id = transaction.id;
    let heard = move |answer: Result<BankTransaction, ApiFailure>| match answer {
        Ok(_) => {
            error.set(None);
            changed.run(());
        }
        Err(failure) => error.set(Some(failure.message())),
    };
    if let Some(name) = bill_name {
        let how = match transaction.matched_by.as_deref() {
            Some("auto") => " (matched automatically)",
            Some("return") => " (returned debit: autopay failed)",
            _ => "",
        };
        let unmatch = ServerAction::<UnlinkTransaction>::new();
        api::each_answer(unmatch, heard);
        return view! {
            <span>{name}{how}</span>
            " "
            <ActionForm action=unmatch attr:class="inline-form">
                <CsrfField/>
                <input type="hidden" name="id" value=id/>
                <button type="submit" class="button button--quiet">"Unmatch"</button>
            </ActionForm>
        }
        .into_any();
    }
    if transaction.pending || transaction.amount_minor >= 0 || bills.is_empty() {
        return ().into_any();
    }
    let link = ServerAction::<LinkTransactionToBill>::new();
    api::each_answer(link, heard);
    let select_label = format!("Bill paid by {}", transaction.description);
    let remember_label = format!(
        "Match {} automatically from now on",
        transaction.description
    );
    view! {
        <ActionForm action=link attr:class="inline-form">
            <CsrfField/>
            <input type="hidden" name="id" value=id/>
            <select name="request[billId]" aria-label=select_label>
                {bills.into_iter().map(|bill| view! { <option value=bill.id>{bill.name}</option> }).collect_view()}
            </select>
            <label class="hint">
                <input type="checkbox" name="request[remember]" value="true" checked aria-label=remember_label/>
                " remember"
            </label>
            <button type="submit" class="button button--quiet">"Match"</button>
        </ActionForm>
    }
    .into_any()
}
