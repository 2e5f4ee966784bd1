//! `/tracker`: this month (or, with a pay schedule, this pay period) at a
//! glance: what is overdue, due soon, paid and still to come, the totals,
//! the bank bar (when bank sync is in use), and one click to mark a bill
//! paid.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::{lazy_route, LazyRoute};

use crate::api::bank::get_bank_connections;
use crate::api::bills::{get_tracker, pay_bill};
use crate::api::ApiFailure;
use crate::components::bank_bar::BankBar;
use crate::components::spending_chart::SpendingChart;
use crate::contract::bills::{PeriodKind, RecordPayment};
use crate::domain::money::{Currency, Locale, Money};
use crate::domain::tracker::Status;

fn label(status: Status) -> &'static str {
    match status {
        Status::Overdue => "Overdue",
        Status::DueSoon => "Due soon",
        Status::Upcoming => "Upcoming",
        Status::Paid => "Paid",
    }
}

#[component]
pub fn TrackerPage() -> impl IntoView {
    // None: the server's default (the pay period when there is a schedule).
    let period = RwSignal::new(None::<&'static str>);
    // Rendered on the server with the page (a blocking resource), asked
    // again after a payment or a switch of period.
    let month = Resource::new_blocking(
        move || period.get(),
        |period| async move {
            get_tracker(period.map(str::to_owned))
                .await
                .map_err(ApiFailure::from)
        },
    );
    // The bank bar's accounts; none while bank sync is off or unused.
    let bank = Resource::new_blocking(|| (), |()| async { get_bank_connections().await.ok() });
    let error = RwSignal::new(None::<String>);
    let payments_made = RwSignal::new(0_u32);
    let mark_paid = move |bill: i64| {
        leptos::task::spawn_local(async move {
            match pay_bill(bill, RecordPayment::default()).await {
                Ok(_) => {
                    error.set(None);
                    month.refetch();
                    payments_made.update(|n| *n += 1);
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    view! {
        <Title text="Tracker"/>
        <h1>"Tracker"</h1>
        <p class="field-error" role="alert">{move || error.get()}</p>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
        {move || Suspend::new(async move { match month.await {
            Err(failure) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
            Ok(month) => {
                let bank = bank.await;
                let locale = Locale::parse(&month.locale);
                let home = Currency::parse(&month.currency).unwrap_or(Currency::USD);
                let total = move |minor: i64| Money::new(minor, home).format(locale);
                let totals = month.totals.clone();
                let pay = month.period.kind == PeriodKind::Pay;
                let (span, due_label, totals_label) = if pay {
                    (format!("Pay period {} to {}", month.period.first, month.period.last), "Due this pay period", "This pay period's totals")
                } else {
                    let name = crate::domain::date::YearMonth::parse(&month.month)
                        .map_or_else(|| month.month.clone(), |m| m.long_name());
                    (name, "Due this month", "This month's totals")
                };
                let switch = month.pay_schedule.is_some().then(|| view! {
                    <div class="segmented" role="group" aria-label="Show">
                        <button type="button" class="button button--quiet" aria-pressed=(!pay).to_string()
                            on:click=move |_| period.set(Some("month"))>"This month"</button>
                        <button type="button" class="button button--quiet" aria-pressed=pay.to_string()
                            on:click=move |_| period.set(Some("pay"))>"This pay period"</button>
                    </div>
                });
                view! {
                    {switch}
                    <p class="hint" data-testid="tracker-span">{format!("{span} · today is {}", month.today)}</p>
                    <section class="totals" aria-label=totals_label data-testid="totals">
                        <div class="total"><span>{due_label}</span><strong data-testid="total-due">{total(totals.due_minor)}</strong></div>
                        <div class="total"><span>"Paid"</span><strong data-testid="total-paid">{total(totals.paid_minor)}</strong></div>
                        <div class="total"><span>"Still to pay"</span><strong data-testid="total-remaining">{total(totals.remaining_minor)}</strong></div>
                        <div class="total total--warn"><span>"Overdue"</span><strong>{total(totals.overdue_minor)}</strong></div>
                    </section>
                    {bank.map(|bank| view! {
                        <BankBar bank still_to_pay=totals.remaining_minor currency=month.currency.clone()/>
                    })}
                    {if month.entries.is_empty() {
                        let when = if pay { "this pay period" } else { "this month" };
                        view! { <p>{format!("Nothing is due {when}. ")} <A href="/bills">"Add a bill"</A></p> }.into_any()
                    } else {
                        // A bill due more than once (weekly) names the date in its button.
                        let mut seen = std::collections::HashSet::new();
                        let repeated: std::collections::HashSet<i64> = month
                            .entries
                            .iter()
                            .filter(|entry| !seen.insert(entry.bill_id))
                            .map(|entry| entry.bill_id)
                            .collect();
                        view! {
                            <div class="table-wrap">
                                <table class="data-table" data-testid="tracker">
                                    <thead><tr>
                                        <th scope="col">"Due"</th><th scope="col">"Bill"</th><th scope="col">"Amount"</th>
                                        <th scope="col">"Status"</th><th scope="col"><span class="visually-hidden">"Actions"</span></th>
                                    </tr></thead>
                                    <tbody>
                                        {month.entries.into_iter().map(|entry| {
                                            let repeated = repeated.contains(&entry.bill_id);
                                            let currency = Currency::parse(&entry.currency).unwrap_or(Currency::USD);
                                            let amount = Money::new(entry.amount_minor, currency).format(locale);
                                            let bill = entry.bill_id;
                                            let status = entry.status;
                                            let action = if repeated {
                                                format!("Mark {} paid for {}", entry.name, entry.due)
                                            } else {
                                                format!("Mark {} paid", entry.name)
                                            };
                                            view! {
                                                <tr data-testid="tracker-row" data-status=label(status)>
                                                    <td>{entry.due.clone()}</td>
                                                    <td><A href=format!("/bills/{bill}")>{entry.name.clone()}</A>{entry.autopay.then_some(" · autopay")}</td>
                                                    <td>{amount}</td>
                                                    <td><span class=format!("status status--{}", label(status).to_lowercase().replace(' ', "-"))>{label(status)}</span></td>
                                                    <td>{(status != Status::Paid).then(|| view! {
                                                        <button class="button button--quiet" on:click=move |_| mark_paid(bill)>
                                                            {action}
                                                        </button>
                                                    })}</td>
                                                </tr>
                                            }
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        }.into_any()
                    }}
                }.into_any()
            }
        }})}
        </Transition>
        <SpendingChart changes=payments_made/>
    }
}

/// `TrackerPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its own chunk, fetched when the
/// page is first opened (and before hydrating it, when it is the first).
pub struct TrackerRoute;

#[lazy_route]
impl LazyRoute for TrackerRoute {
    fn data() -> Self {
        crate::components::layout::page_loading();
        Self
    }

    fn view(_this: Self) -> AnyView {
        view! { <TrackerPage/> <crate::components::layout::PageLoaded/> }.into_any()
    }
}
