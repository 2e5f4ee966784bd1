//! `/bills`: every bill, searchable, filterable and sortable, and the form
//! that adds one (`/bills?new`: opened by a link, so it opens without
//! JavaScript too).

use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};

use crate::api::{self, bills::get_bills};
use crate::components::bill_form::{bill_form, BillFormOpen};
use crate::contract::bills::BillRecord;
use crate::domain::money::{Locale, Money};

#[component]
pub fn BillsPage() -> impl IntoView {
    // Rendered on the server with the page (a blocking resource).
    let list = api::page_data(get_bills);
    let search = RwSignal::new(String::new());
    let show = RwSignal::new("active".to_owned());
    let sort = RwSignal::new("due".to_owned());
    let query = use_query_map();
    let adding = Memo::new(move |_| query.with(|query| query.get("new").is_some()));
    let navigate = use_navigate();
    // A new bill opens its own page once stored.
    let saved_id = RwSignal::new(None::<i64>);
    Effect::new(move || {
        if let Some(id) = saved_id.get() {
            navigate(&format!("/bills/{id}"), Default::default());
        }
    });
    let saved = Callback::new(move |bill: BillRecord| saved_id.set(Some(bill.id)));

    view! {
        <Title text="Bills"/>
        <h1>"Bills"</h1>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
        {move || Suspend::new(async move { match list.await {
            Err(failure) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
            Ok(data) => {
                let locale = Locale::parse(&data.locale);
                let none_yet = data.bills.is_empty();
                let all = StoredValue::new(data.bills.clone());
                let rows = move || {
                    let needle = search.get().trim().to_lowercase();
                    let mut rows: Vec<BillRecord> = all.with_value(|all| all
                        .iter()
                        .filter(|bill| match show.get().as_str() {
                            "active" => bill.active,
                            "ended" => !bill.active,
                            "debts" => bill.debt,
                            "subscriptions" => bill.subscription,
                            _ => true,
                        })
                        .filter(|bill| needle.is_empty()
                            || bill.name.to_lowercase().contains(&needle)
                            || bill.category.to_lowercase().contains(&needle))
                        .cloned()
                        .collect());
                    match sort.get().as_str() {
                        "name" => rows.sort_by_key(|bill| bill.name.to_lowercase()),
                        "amount" => rows.sort_by_key(|bill| std::cmp::Reverse(bill.amount_minor)),
                        _ => rows.sort_by(|a, b| a.next_due.cmp(&b.next_due)),
                    }
                    rows
                };
                let today = data.today.clone();
                let currency = data.currency.clone();
                view! {
                    <div class="toolbar">
                        <label for="bill-search">"Search"</label>
                        <input id="bill-search" type="search" placeholder="Name or category" on:input=move |ev| search.set(event_target_value(&ev))/>
                        <label for="bill-show">"Show"</label>
                        <select id="bill-show" on:change=move |ev| show.set(event_target_value(&ev))>
                            <option value="active">"Active"</option>
                            <option value="ended">"Ended"</option>
                            <option value="debts">"Debts"</option>
                            <option value="subscriptions">"Subscriptions"</option>
                            <option value="all">"All"</option>
                        </select>
                        <label for="bill-sort">"Sort by"</label>
                        <select id="bill-sort" on:change=move |ev| sort.set(event_target_value(&ev))>
                            <option value="due">"Next due"</option>
                            <option value="name">"Name"</option>
                            <option value="amount">"Amount"</option>
                        </select>
                        // A link (handled by the router), so it opens the form
                        // without JavaScript too.
                        <a href=move || if adding.get() { "/bills" } else { "/bills?new" }
                            class="button" role="button" data-noscroll=true aria-expanded=move || adding.get().to_string()>
                            "New bill"
                        </a>
                    </div>
                    <Show when=move || adding.get()>
                        <section class="card" aria-labelledby="new-bill-title">
                            <h2 id="new-bill-title">"New bill"</h2>
                            {
                                let open = BillFormOpen {
                                    existing: None,
                                    default_currency: currency.clone(),
                                    today: today.clone(),
                                    on_saved: saved,
                                };
                                Suspend::new(bill_form(open))
                            }
                        </section>
                    </Show>
                    <Show when=move || none_yet && !adding.get()>
                        <div class="empty-state" data-testid="bills-empty">
                            <p>"No bills yet. Add the first one (rent, electricity, a card, a streaming service) and Tally shows when each is due and what is left to pay this month."</p>
                            <a href="/bills?new" class="button" role="button" data-noscroll=true>"Add your first bill"</a>
                        </div>
                    </Show>
                    <Show when=move || !none_yet && rows().is_empty()>
                        <p class="hint" data-testid="bills-none-match">"No bills match. Change the search or choose “All” under Show."</p>
                    </Show>
                    <div class="table-wrap" hidden=move || none_yet || rows().is_empty()>
                        <table class="data-table data-table--cards" data-testid="bills">
                            <thead><tr>
                                <th scope="col">"Name"</th><th scope="col">"Amount"</th><th scope="col">"How often"</th>
                                <th scope="col">"Next due"</th><th scope="col">"Category"</th>
                            </tr></thead>
                            <tbody>
                                {move || rows().into_iter().map(|bill| {
                                    let amount = Money::new(bill.amount_minor, bill.currency()).format(locale);
                                    let how = bill.cadence().map(|c| c.to_string()).unwrap_or_default();
                                    view! {
                                        <tr data-testid="bill-row">
                                            <td class="cell-title"><A href=format!("/bills/{}", bill.id)>{bill.name.clone()}</A>
                                                {(!bill.active).then_some(" (ended)")}</td>
                                            <td data-label="Amount">{amount}</td>
                                            <td data-label="How often">{how}</td>
                                            <td data-label="Next due">{bill.next_due.clone().unwrap_or_default()}</td>
                                            <td data-label="Category">{bill.category.clone()}</td>
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            }
        }})}
        </Transition>
    }
}

/// `BillsPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct BillsRoute;

split_route!(BillsRoute => BillsPage in bills);
