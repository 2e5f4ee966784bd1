//! `/data/transactions`: every bank transaction, newest first, searchable
//! and filtered through the address (`?q=…&show=unmatched|matched|pending
//! &page=…`, so a search can be bookmarked and works before the page's
//! code arrives), with match / unmatch / ignore on each row and the bills
//! an unmatched debit may have paid, with why. A suggestion is applied only
//! when the person presses its button. It all arrives with the page, and
//! each write is a form that posts without JavaScript too.

use std::collections::HashMap;

use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;

use crate::api::bank::{
    get_bank_suggestions, get_bank_transactions, IgnoreTransaction, LinkTransactionToBill,
};
use crate::api::bills::get_bills;
use crate::api::{self, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::components::match_cell::MatchCell;
use crate::contract::bank::{BankTransaction, Suggestion, TransactionQuery};
use crate::domain::money::Money;
use crate::domain::query_string;
use crate::domain::timestamp;

const PATH: &str = "/data/transactions";

/// What the address asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Asked {
    q: String,
    show: String,
    page: String,
}

impl Asked {
    fn query(&self) -> TransactionQuery {
        TransactionQuery {
            q: Some(self.q.clone()).filter(|q| !q.trim().is_empty()),
            matched: match self.show.as_str() {
                "matched" => Some(true),
                "unmatched" => Some(false),
                _ => None,
            },
            pending: (self.show == "pending").then_some(true),
            // Always set: a query whose fields are all empty does not
            // survive a GET server function's URL.
            page_size: Some(50),
            page_token: Some(self.page.clone()).filter(|page| !page.is_empty()),
            ..TransactionQuery::default()
        }
    }

    fn link(&self, page: &str) -> String {
        query_string::link(
            PATH,
            &[("q", &self.q), ("show", &self.show), ("page", page)],
        )
    }
}

#[component]
pub fn TransactionsPage() -> impl IntoView {
    let query = use_query_map();
    let asked = move || {
        query.with(|map| Asked {
            q: map.get("q").unwrap_or_default(),
            show: map.get("show").unwrap_or_default(),
            page: map.get("page").unwrap_or_default(),
        })
    };
    let data = crate::api::page_resource(asked, |asked: Asked| async move {
        let page = get_bank_transactions(asked.query())
            .await
            .map_err(ApiFailure::from)?;
        let suggestions = get_bank_suggestions(None).await.map_err(ApiFailure::from)?;
        let bills = get_bills().await.map_err(ApiFailure::from)?.bills;
        Ok::<_, ApiFailure>((asked, page, suggestions, bills))
    });
    let refresh = Callback::new(move |()| data.refetch());
    let error = RwSignal::new(None::<String>);
    // Set once the rows answer clicks (effects run only in the browser).
    let live = RwSignal::new(false);
    Effect::new(move || live.set(true));

    view! {
        <Title text="Transactions"/>
        <p><A href="/data">"Data"</A> " › " <A href="/data/bank">"Bank sync"</A> " › Transactions"</p>
        <h1>"Transactions"</h1>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Err(failure) => view! { <p class="field-error" role="alert">{failure.message()}</p> }.into_any(),
                    Ok((asked, page, suggestions, bills)) => {
                        let suggested: HashMap<i64, Vec<Suggestion>> = suggestions
                            .suggestions
                            .into_iter()
                            .map(|found| (found.transaction.id, found.bills))
                            .collect();
                        let older = (!page.next_page_token.is_empty())
                            .then(|| asked.link(&page.next_page_token));
                        let newest = (!asked.page.is_empty()).then(|| asked.link(""));
                        // Shown here, with the rows: a refusal the address
                        // carries (a post without JavaScript) is heard as
                        // they are made.
                        view! {
                            <p class="field-error" role="alert">{move || error.get()}</p>
                            <Search asked=asked.clone()/>
                            {if page.transactions.is_empty() {
                                view! { <p>"No transactions match."</p> }.into_any()
                            } else {
                                view! {
                                    <div class="table-wrap"><table class="data-table data-table--cards" data-testid="transactions"
                                        data-live=move || live.get().then_some("true")>
                                        <thead><tr><th>"Date"</th><th>"Description"</th><th>"Amount"</th><th>"Bill"</th><th></th></tr></thead>
                                        <tbody>{page.transactions.into_iter().map(|t| {
                                            let bill_name = t.bill_id.and_then(|id| bills.iter().find(|b| b.id == id).map(|b| b.name.clone()));
                                            let offered = suggested.get(&t.id).cloned().unwrap_or_default();
                                            view! {
                                                <Row transaction=t bill_name offered bills=bills.clone() error refresh/>
                                            }
                                        }).collect_view()}</tbody>
                                    </table></div>
                                }.into_any()
                            }}
                            <p>
                                {newest.map(|href| view! { <A href=href>"Newest"</A> " " })}
                                {older.map(|href| view! { <A href=href>"Older transactions"</A> })}
                            </p>
                        }.into_any()
                    }
                }
            })}
        </Transition>
    }
}

/// The search form: words and which transactions to show (a plain GET, so
/// it works before the page's code has arrived).
#[component]
fn Search(asked: Asked) -> impl IntoView {
    let choice = |value: &'static str, label: &'static str| {
        view! { <option value=value selected=asked.show == value>{label}</option> }
    };
    view! {
        <form method="get" action=PATH role="search" class="inline-form">
            <label for="tx-q">"Search"</label>
            <input id="tx-q" name="q" type="search" maxlength="200" value=asked.q.clone()
                placeholder="Payee, description or memo"/>
            <label for="tx-show">"Show"</label>
            <select id="tx-show" name="show">
                {choice("", "All")}
                {choice("unmatched", "Not matched")}
                {choice("matched", "Matched")}
                {choice("pending", "Pending")}
            </select>
            <button type="submit" class="button">"Search"</button>
        </form>
    }
}

/// One transaction: its bill (or a bill to match), ignore, and what it
/// may have paid.
#[component]
fn Row(
    transaction: BankTransaction,
    bill_name: Option<String>,
    offered: Vec<Suggestion>,
    bills: Vec<crate::contract::bills::BillRecord>,
    error: RwSignal<Option<String>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let id = transaction.id;
    let ignored = transaction.ignored;
    let ignore = ServerAction::<IgnoreTransaction>::new();
    api::each_answer(ignore, move |answer| match answer {
        Ok(_) => refresh.run(()),
        Err(failure) => error.set(Some(failure.message())),
    });
    let ignore_label = format!(
        "{} {}",
        if ignored { "Stop ignoring" } else { "Ignore" },
        transaction.description
    );
    let open = transaction.bill_id.is_none() && !ignored;
    view! {
        <tr class:muted=ignored>
            <td data-label="Date">{timestamp::day(&transaction.posted_at).to_owned()}</td>
            <td class="cell-title">
                {transaction.description.clone()}
                {transaction.payee.clone().filter(|p| !p.is_empty()).map(|payee| view! { <span class="hint">{format!(" · {payee}")}</span> })}
                {transaction.pending.then(|| view! { <span class="hint">" (pending)"</span> })}
                {ignored.then(|| view! { <span class="hint">" (ignored)"</span> })}
                {(open && !offered.is_empty()).then(|| view! {
                    <Suggested transaction=transaction.clone() offered error refresh/>
                })}
            </td>
            <td data-label="Amount">{Money::shown(transaction.amount_minor, &transaction.currency)}</td>
            <td data-label="Bill">{(!ignored).then(|| view! {
                <MatchCell transaction=transaction.clone() bill_name bills error changed=refresh/>
            })}</td>
            <td>{transaction.bill_id.is_none().then(|| view! {
                <ActionForm action=ignore attr:class="inline-form">
                    <CsrfField/>
                    <input type="hidden" name="id" value=id/>
                    <input type="hidden" name="ignored" value=(!ignored).to_string()/>
                    <button type="submit" class="button button--quiet" aria-label=ignore_label>
                        {if ignored { "Unignore" } else { "Ignore" }}
                    </button>
                </ActionForm>
            })}</td>
        </tr>
    }
}

/// The bills an unmatched debit may have paid, best first, with why; each
/// a button that matches it (never applied otherwise).
#[component]
fn Suggested(
    transaction: BankTransaction,
    offered: Vec<Suggestion>,
    error: RwSignal<Option<String>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let id = transaction.id;
    let apply = ServerAction::<LinkTransactionToBill>::new();
    api::each_answer(apply, move |answer| match answer {
        Ok(_) => refresh.run(()),
        Err(failure) => error.set(Some(failure.message())),
    });
    view! {
        <ul class="suggestions" aria-label=format!("Bills {} may have paid", transaction.description)>
            {offered.into_iter().map(|suggestion| view! {
                <li>
                    <ActionForm action=apply attr:class="inline-form">
                        <CsrfField/>
                        <input type="hidden" name="id" value=id/>
                        <input type="hidden" name="request[billId]" value=suggestion.bill_id/>
                        <button type="submit" class="button button--quiet">
                            {format!("Match to {}", suggestion.bill_name)}
                        </button>
                    </ActionForm>
                    <span class="hint">{format!(" {} of 100: {}", suggestion.score, suggestion.reasons.join("; "))}</span>
                </li>
            }).collect_view()}
        </ul>
    }
}

/// `TransactionsPage` as a route whose code is left out of the first
/// download.
pub struct TransactionsRoute;

split_route!(TransactionsRoute => TransactionsPage in app);
