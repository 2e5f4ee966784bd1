//! A bank transaction's bill: its name and "Unmatch" once matched (a
//! returned debit says so), otherwise a bill to choose, whether to remember
//! the payee, and "Match" (which records the bill's payment). Shared by
//! Data → Bank Sync and the Transactions page.

use leptos::prelude::*;

use crate::api::bank::{link_transaction_to_bill, unlink_transaction};
use crate::api::ApiFailure;
use crate::contract::bank::{BankTransaction, MatchTransaction};
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
    if let Some(name) = bill_name {
        let how = match transaction.matched_by.as_deref() {
            Some("auto") => " (matched automatically)",
            Some("return") => " (returned debit: autopay failed)",
            _ => "",
        };
        let unmatch = move |_| {
            leptos::task::spawn_local(async move {
                match unlink_transaction(id).await {
                    Ok(_) => changed.run(()),
                    Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
                }
            });
        };
        return view! {
            <span>{name}{how}</span>
            " "
            <button type="button" class="button button--quiet" on:click=unmatch>"Unmatch"</button>
        }
        .into_any();
    }
    if transaction.pending || transaction.amount_minor >= 0 || bills.is_empty() {
        return ().into_any();
    }
    let chosen = RwSignal::new(bills.first().map(|bill| bill.id).unwrap_or_default());
    let remember = RwSignal::new(true);
    let select_label = format!("Bill paid by {}", transaction.description);
    let remember_label = format!(
        "Match {} automatically from now on",
        transaction.description
    );
    let go = move |_| {
        let request = MatchTransaction {
            bill_id: chosen.get_untracked(),
            remember: remember.get_untracked(),
        };
        leptos::task::spawn_local(async move {
            match link_transaction_to_bill(id, request).await {
                Ok(_) => {
                    error.set(None);
                    changed.run(());
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    view! {
        <select aria-label=select_label on:change=move |ev| {
            if let Ok(bill) = event_target_value(&ev).parse() {
                chosen.set(bill);
            }
        }>
            {bills.into_iter().map(|bill| view! { <option value=bill.id.to_string()>{bill.name}</option> }).collect_view()}
        </select>
        <label class="hint">
            <input type="checkbox" aria-label=remember_label prop:checked=move || remember.get()
                on:change=move |ev| remember.set(event_target_checked(&ev))/>
            " remember"
        </label>
        <button type="button" class="button button--quiet" on:click=go>"Match"</button>
    }
    .into_any()
}
