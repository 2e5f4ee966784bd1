//! The Tracker's bank bar: each monitored account's balance (as of when the
//! bank reported it) and pending amount, and what is left once pending
//! transactions and the bills still due this period are paid. Only
//! accounts in the Tracker's currency are added up.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::contract::bank::BankConnections;
use crate::domain::money::Money;
use crate::domain::timestamp;

/// `still_to_pay`: the Tracker's unpaid total, in `currency`.
#[component]
pub fn BankBar(bank: BankConnections, still_to_pay: i64, currency: String) -> impl IntoView {
    let accounts: Vec<_> = bank
        .connections
        .into_iter()
        .flat_map(|connection| connection.accounts)
        .filter(|account| account.monitored && account.balance_minor.is_some())
        .collect();
    if accounts.is_empty() {
        return ().into_any();
    }
    let on_hand: i64 = accounts
        .iter()
        .filter(|account| account.currency == currency)
        .map(|account| account.balance_minor.unwrap_or(0) + account.pending_minor)
        .sum();
    let left = on_hand - still_to_pay;
    view! {
        <section class="bank-bar" aria-label="Bank accounts" data-testid="bank-bar">
            {accounts.into_iter().map(|account| view! {
                <div class="total">
                    <span>{account.name.clone()}</span>
                    <strong>{Money::shown(account.balance_minor.unwrap_or(0), &account.currency)}</strong>
                    <span class="hint">
                        {account.balance_date.as_deref().map(|at| format!("as of {}", timestamp::minute(at)))}
                        {(account.pending_minor != 0).then(|| format!(" · {} pending", Money::shown(account.pending_minor, &account.currency)))}
                    </span>
                </div>
            }).collect_view()}
            <div class="total" class:total--warn=left < 0>
                <span>"Left after bills still due"</span>
                <strong data-testid="bank-left">{Money::shown(left, &currency)}</strong>
                <span class="hint">"balance, less pending, less still to pay"</span>
            </div>
            <p class="hint"><A href="/data/bank">"Bank sync"</A></p>
        </section>
    }
    .into_any()
}
