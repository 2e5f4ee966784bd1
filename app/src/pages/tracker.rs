//! `/tracker`: a month (or, with a pay schedule, a pay period) at a glance:
//! what is overdue, due soon, paid and still to come, the totals, the bank
//! bar (when bank sync is in use), what is coming in the next 30 days, the
//! month as a calendar, and one click to mark a bill paid. The address says
//! what is shown (`?year=&month=`, `?period=pay&from=`, `sort`, `dir`), so
//! a view is bookmarkable, server-rendered, and moves with links (and the
//! ← and → keys) that work without JavaScript.

use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};

use super::tracker_markup::{label, status_class};
use crate::api::bills::get_tracker_page;
use crate::api::tracker_act::TrackerAct;
use crate::api::ApiFailure;
use crate::components::bank_bar::BankBar;
use crate::components::csrf_field::CsrfField;
use crate::components::drift_panel::DriftPanel;
use crate::components::spending_chart::SpendingChart;
use crate::contract::bills::{PeriodKind, Tracker, TrackerEntry, TrackerPageData};
use crate::contract::error::ErrorBody;
use crate::domain::date::{Date, YearMonth};
use crate::domain::money::{Currency, Locale, Money};
use crate::domain::pin_due::pin_key;
use crate::domain::tracker::{Status, Totals};

/// A failed write's message, for the page's alert.
fn failure<T>(result: Option<Result<T, ErrorBody>>) -> Option<String> {
    match result {
        Some(Err(error)) => Some(ApiFailure::from(error).message()),
        _ => None,
    }
}

/// Mark paid (an `ActionForm`), and under "More" the plain forms of
/// [`super::tracker_markup::more`].
#[component]
fn EntryActions(
    entry: TrackerEntry,
    act: ServerAction<TrackerAct>,
    action_label: String,
) -> impl IntoView {
    let bill = entry.bill_id;
    // Plain form posts (with JavaScript too): the token rides in a field.
    let token = crate::api::page_csrf::page_token();
    let more = {
        let entry = entry.clone();
        move || super::tracker_markup::more(&entry, &token.get())
    };
    view! {
        {(!matches!(entry.status, Status::Paid | Status::Skipped)).then(|| view! {
            <ActionForm action=act attr:class="inline-form">
                <CsrfField/>
                <input type="hidden" name="act" value="pay"/>
                <input type="hidden" name="bill" value=bill/>
                <input type="hidden" name="amount" value=entry.amount_minor/>
                // The due date this row pays, so paying early pays this one.
                <input type="hidden" name="occurrence" value=entry.snoozed_from.clone().unwrap_or_else(|| entry.due.clone())/>
                // The row already shows the bill and the date: the button
                // says "Mark paid", and its accessible name says which.
                <button type="submit" class="button button--quiet" aria-label=action_label.clone()>"Mark paid"</button>
            </ActionForm>
        })}
        <div class="row-more-wrap" inner_html=more></div>
    }
}

/// A period's totals in one currency: due is what was paid toward it,
/// what is still to pay and what was skipped, never two currencies added.
/// The person's own currency comes first and keeps the plain test ids.
#[component]
fn TotalsLine(
    sum: Totals,
    first: bool,
    several: bool,
    locale: Locale,
    due_label: String,
    totals_label: String,
) -> impl IntoView {
    let currency = Currency::parse(&sum.currency).unwrap_or(Currency::USD);
    let cash = move |minor: i64| Money::new(minor, currency).format(locale);
    let code = sum.currency.to_lowercase();
    let id = move |name: &str| {
        if first {
            name.to_owned()
        } else {
            format!("{name}-{code}")
        }
    };
    let label = if several {
        format!("{totals_label} in {}", sum.currency)
    } else {
        totals_label
    };
    let beside = [
        (sum.paid_ahead_minor, "ahead, for later due dates"),
        (sum.paid_late_minor, "for earlier due dates"),
    ]
    .into_iter()
    .filter(|(minor, _)| *minor != 0)
    .map(|(minor, what)| format!("{} {what}", cash(minor)))
    .collect::<Vec<_>>();
    view! {
        <section class="totals" aria-label=label data-testid=id("totals")>
            {several.then(|| view! { <p class="totals__currency">{sum.currency.clone()}</p> })}
            <div class="total"><span>{due_label}</span><strong data-testid=id("total-due")>{cash(sum.due_minor)}</strong></div>
            <div class="total"><span>"Paid"</span><strong data-testid=id("total-paid")>{cash(sum.paid_minor)}</strong></div>
            <div class="total"><span>"Still to pay"</span><strong data-testid=id("total-remaining")>{cash(sum.remaining_minor)}</strong></div>
            // Red only when something is overdue.
            <div class={if sum.overdue_minor > 0 { "total total--warn" } else { "total" }} data-testid=id("total-overdue-box")>
                <span>"Overdue"</span><strong data-testid=id("total-overdue")>{cash(sum.overdue_minor)}</strong></div>
            {(sum.skipped_minor > 0).then(|| view! {
                <p class="hint totals__note" data-testid=id("total-skipped")>{format!("Due includes {} skipped this time.", cash(sum.skipped_minor))}</p>
            })}
            {(!beside.is_empty()).then(|| view! {
                <p class="hint totals__note" data-testid=id("total-beside")>{format!("Also paid in this period: {}.", beside.join(" and "))}</p>
            })}
        </section>
    }
}

/// The columns the table sorts by (`?sort=`), as the address names them.
const SORTS: [(&str, &str); 4] = [
    ("due_day", "Due"),
    ("name", "Bill"),
    ("amount", "Amount"),
    ("status", "Status"),
];

/// `entries` in the order `sort` and `dir` ask (due date, ascending,
/// unless they name another; `pin`: what needs the person first, see
/// `domain::pin_due`).
fn sorted(
    mut entries: Vec<TrackerEntry>,
    sort: &str,
    descending: bool,
    today: &str,
) -> Vec<TrackerEntry> {
    // One comparator, so the bundle carries one copy of the sort.
    let today = Date::parse(today).unwrap_or(Date::EPOCH);
    let lower = |entry: &TrackerEntry| entry.name.to_lowercase();
    entries.sort_by(|a, b| match sort {
        "pin" => pin_key(a.status, &a.due, today)
            .cmp(&pin_key(b.status, &b.due, today))
            .then_with(|| lower(a).cmp(&lower(b))),
        "name" => lower(a).cmp(&lower(b)).then_with(|| a.due.cmp(&b.due)),
        "amount" => a
            .amount_minor
            .cmp(&b.amount_minor)
            .then_with(|| a.due.cmp(&b.due)),
        "status" => a.status.cmp(&b.status).then_with(|| a.due.cmp(&b.due)),
        _ => a.due.cmp(&b.due).then_with(|| lower(a).cmp(&lower(b))),
    });
    if descending {
        entries.reverse();
    }
    entries
}

/// What the address asks to show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Asked {
    period: Option<String>,
    year: Option<String>,
    month: Option<String>,
    from: Option<String>,
    sort: String,
    descending: bool,
}

impl Asked {
    /// `/tracker` with what is shown and the order kept.
    fn href(&self, shown: &str) -> String {
        let mut query: Vec<String> = Vec::new();
        if !shown.is_empty() {
            query.push(shown.to_owned());
        }
        // Any order asked for stays, due_day too: with "Pin due" on, no
        // sort in the address means the pinned order.
        if !self.sort.is_empty() {
            query.push(format!("sort={}", self.sort));
        }
        if self.descending {
            query.push("dir=desc".into());
        }
        if query.is_empty() {
            "/tracker".into()
        } else {
            format!("/tracker?{}", query.join("&"))
        }
    }

    /// The address of what is shown now, in another order.
    fn sorted_by(&self, sort: &str, descending: bool) -> String {
        let shown = match (&self.year, &self.month, &self.from) {
            (Some(year), Some(month), _) => format!("year={year}&month={month}"),
            (_, _, Some(from)) => format!(
                "period={}&from={from}",
                self.period.as_deref().unwrap_or("pay")
            ),
            _ => self
                .period
                .as_ref()
                .map(|period| format!("period={period}"))
                .unwrap_or_default(),
        };
        Asked {
            sort: sort.to_owned(),
            descending,
            ..self.clone()
        }
        .href(&shown)
    }
}

/// The previous and next period's addresses, and a name for each.
fn neighbours(tracker: &Tracker, asked: &Asked) -> Option<((String, String), (String, String))> {
    let span = match tracker.period.kind {
        PeriodKind::Pay => Some(("pay", "pay period")),
        PeriodKind::Half => Some(("half", "half month")),
        PeriodKind::Month => None,
    };
    if let Some((period, name)) = span {
        let first = Date::parse(&tracker.period.first).ok()?;
        let last = Date::parse(&tracker.period.last).ok()?;
        let before = first.add_days(-1)?;
        let after = last.add_days(1)?;
        Some((
            (
                asked.href(&format!("period={period}&from={before}")),
                format!("Previous {name}"),
            ),
            (
                asked.href(&format!("period={period}&from={after}")),
                format!("Next {name}"),
            ),
        ))
    } else {
        let month = YearMonth::parse(&tracker.month)?;
        let link = |m: YearMonth| asked.href(&format!("year={}&month={}", m.year, m.month));
        Some((
            (link(month.previous()), month.previous().long_name()),
            (link(month.next()), month.next().long_name()),
        ))
    }
}

#[component]
pub fn TrackerPage() -> impl IntoView {
    let query = use_query_map();
    let asked = Memo::new(move |_| {
        let query = query.read();
        let text = |name: &str| query.get(name).filter(|value| !value.is_empty());
        Asked {
            period: text("period"),
            year: text("year"),
            month: text("month"),
            from: text("from"),
            sort: text("sort").unwrap_or_default(),
            descending: text("dir").as_deref() == Some("desc"),
        }
    });
    // Every write of the rows and the drift panel.
    let act = ServerAction::<TrackerAct>::new();
    let changes = move || act.version().get();
    // The whole page in one read (the period, the drift panel, the bank
    // bar, the chart): rendered on the server with the page (a blocking
    // resource), asked again when the address changes or after a write.
    let page = crate::api::page_resource(
        move || {
            let asked = asked.get();
            (asked.period, asked.year, asked.month, asked.from, changes())
        },
        |(period, year, month, from, _)| async move {
            get_tracker_page(period, year, month, from)
                .await
                .map_err(ApiFailure::from)
        },
    );
    // ← and → move to the previous and next period (not while typing).
    let navigate = use_navigate();
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.alt_key() || ev.ctrl_key() || ev.meta_key() || ev.shift_key() {
            return;
        }
        let typing = matches!(
            event_target::<leptos::web_sys::Element>(&ev)
                .tag_name()
                .as_str(),
            "INPUT" | "TEXTAREA" | "SELECT"
        );
        if typing {
            return;
        }
        let Some(Ok(TrackerPageData { tracker, .. })) = page.get_untracked() else {
            return;
        };
        let Some(((before, _), (after, _))) = neighbours(&tracker, &asked.get_untracked()) else {
            return;
        };
        match ev.key().as_str() {
            "ArrowLeft" => navigate(&before, Default::default()),
            "ArrowRight" => navigate(&after, Default::default()),
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());
    let error = move || failure(act.value().get());
    view! {
        <Title text="Tracker"/>
        <h1>"Tracker"</h1>
        <p class="field-error" role="alert">{error}</p>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
        {move || {
        // Tracked here, not in the async block: a new order in the address
        // (a column header) draws the rows again without asking the server.
        let asked = asked.get();
        Suspend::new(async move { match page.await {
            Err(failure) => view! {
                <p class="field-error">{failure.message()}</p>
                <p><A href="/tracker">"Back to this month"</A></p>
            }.into_any(),
            Ok(TrackerPageData { tracker, drifts, bank, spending }) => {
                let locale = Locale::parse(&tracker.locale);
                let money = move |entry: &TrackerEntry| {
                    Money::new(entry.amount_minor, Currency::parse(&entry.currency).unwrap_or(Currency::USD)).format(locale)
                };
                let totals = tracker.totals.clone();
                let kind = tracker.period.kind;
                let pay = kind != PeriodKind::Month;
                let shown_month = YearMonth::parse(&tracker.month);
                let today_month = Date::parse(&tracker.today).ok().map(Date::year_month);
                let (span, due_label, totals_label) = if kind == PeriodKind::Half {
                    (format!("Half month {} to {}", tracker.period.first, tracker.period.last), "Due this half month".to_owned(), "This half month's totals".to_owned())
                } else if pay {
                    (format!("Pay period {} to {}", tracker.period.first, tracker.period.last), "Due this pay period".to_owned(), "This pay period's totals".to_owned())
                } else {
                    let name = shown_month.map_or_else(|| tracker.month.clone(), YearMonth::long_name);
                    if shown_month == today_month {
                        (name, "Due this month".to_owned(), "This month's totals".to_owned())
                    } else {
                        (name.clone(), format!("Due in {name}"), format!("{name}'s totals"))
                    }
                };
                let is_now = if pay {
                    tracker.period.first <= tracker.today && tracker.today <= tracker.period.last
                } else {
                    shown_month == today_month
                };
                // Pay periods with a pay schedule, else half months.
                let (other, other_name, other_kind) = if tracker.pay_schedule.is_some() {
                    ("period=pay", "Pay periods", PeriodKind::Pay)
                } else {
                    ("period=half", "Half months", PeriodKind::Half)
                };
                let switch = view! {
                    <div class="segmented" role="group" aria-label="Show">
                        // Plain links: the router's <A> marks every link to /tracker
                        // as the current page, whatever its query.
                        <a href=asked.href("period=month") class="button button--quiet" aria-current=(!pay).then_some("page")>"Months"</a>
                        <a href=asked.href(other) class="button button--quiet" aria-current=(kind == other_kind).then_some("page")>{other_name}</a>
                    </div>
                };
                let this_period = match kind {
                    PeriodKind::Pay => ("period=pay", "This pay period"),
                    PeriodKind::Half => ("period=half", "This half month"),
                    PeriodKind::Month => ("", "This month"),
                };
                let nav = neighbours(&tracker, &asked).map(|((before, before_name), (after, after_name))| {
                    let (before_label, after_label) = (format!("Previous: {before_name}"), format!("Next: {after_name}"));
                    view! {
                    <nav class="period-nav" aria-label="Periods">
                        <a href=before class="button button--quiet" rel="prev" aria-label=before_label>"← " {before_name}</a>
                        <h2 data-testid="tracker-span" aria-live="polite">{span.clone()}</h2>
                        <a href=after class="button button--quiet" rel="next" aria-label=after_label>{after_name} " →"</a>
                        {(!is_now).then(|| view! {
                            <a href=asked.href(this_period.0) class="button button--quiet">{this_period.1}</a>
                        })}
                    </nav>
                }});
                let upcoming = tracker.upcoming.clone();
                // The user's "Pin due" order, unless the address names one.
                let order = if asked.sort.is_empty() && tracker.pin_due { "pin" } else { asked.sort.as_str() };
                let entries = sorted(tracker.entries.clone(), order, asked.descending, &tracker.today);
                let pinned = order == "pin";
                // A bill due more than once (weekly) names the date in its button.
                let mut seen = std::collections::HashSet::new();
                let repeated: std::collections::HashSet<i64> = entries
                    .iter()
                    .filter(|entry| !seen.insert(entry.bill_id))
                    .map(|entry| entry.bill_id)
                    .collect();
                let header = |(key, name): (&'static str, &'static str)| {
                    let active = order == key || (order.is_empty() && key == "due_day");
                    let descending = active && !asked.descending;
                    let sort = if active {
                        Some(if asked.descending { "descending" } else { "ascending" })
                    } else {
                        None
                    };
                    view! {
                        <th scope="col" aria-sort=sort>
                            <a href=asked.sorted_by(key, descending)>{name}</a>
                        </th>
                    }
                };
                view! {
                    {switch}
                    {nav}
                    <p class="hint">{format!("Today is {}", tracker.today)}</p>
                    {totals.iter().enumerate().map(|(index, sum)| view! {
                        <TotalsLine sum=sum.clone() first={index == 0} several={totals.len() > 1} locale due_label=due_label.clone() totals_label=totals_label.clone()/>
                    }).collect_view()}
                    {drifts.map(|found| view! { <DriftPanel found act locale/> })}
                    {bank.map(|bank| view! {
                        <BankBar bank still_to_pay=totals.first().map_or(0, |sum| sum.remaining_minor) currency=tracker.currency.clone()/>
                    })}
                    {if entries.is_empty() {
                        let when = match kind {
                            PeriodKind::Pay => "in this pay period",
                            PeriodKind::Half => "in this half month",
                            PeriodKind::Month => "in this month",
                        };
                        view! { <p>{format!("Nothing is due {when}. ")} <A href="/bills">"Add a bill"</A></p> }.into_any()
                    } else {
                        view! {
                            <ActionForm action=act attr:class="inline-form pin-form">
                                <CsrfField/>
                                <input type="hidden" name="act" value=if tracker.pin_due { "unpin-due" } else { "pin-due" }/>
                                <input type="hidden" name="bill" value="0"/>
                                <button type="submit" class="button button--quiet" aria-pressed=tracker.pin_due.to_string() data-testid="pin-due">
                                    "Pin due first"
                                </button>
                                <span class="hint">{if pinned { " Missed, late and due within 3 days come first." } else { "" }}</span>
                            </ActionForm>
                            <div class="table-wrap">
                                <table class="data-table data-table--cards tracker-table" data-testid="tracker" data-order=order.to_owned()>
                                    <thead><tr>
                                        {SORTS.into_iter().map(header).collect_view()}
                                        <th scope="col"><span class="visually-hidden">"Actions"</span></th>
                                    </tr></thead>
                                    <tbody>
                                        {entries.into_iter().map(|entry| {
                                            let repeated = repeated.contains(&entry.bill_id);
                                            let bill = entry.bill_id;
                                            let status = entry.status;
                                            let action = if repeated {
                                                format!("Mark {} paid for {}", entry.name, entry.due)
                                            } else {
                                                format!("Mark {} paid", entry.name)
                                            };
                                            let usual = entry.usual_amount_minor.map(|usual| {
                                                let currency = Currency::parse(&entry.currency).unwrap_or(Currency::USD);
                                                format!(" (usually {})", Money::new(usual, currency).format(locale))
                                            });
                                            let (name, amount_text) = (entry.name.clone(), money(&entry));
                                            view! {
                                                <tr data-testid="tracker-row" data-status=label(status)>
                                                    <td class="cell-due" data-label="Due">{entry.due.clone()}
                                                        {entry.snoozed_from.clone().map(|from| view! { <span class="hint">{format!(" (moved from {from})")}</span> })}
                                                    </td>
                                                    <td class="cell-bill"><A href=format!("/bills/{bill}")>{name}</A>{entry.autopay.then_some(" · autopay")}
                                                        {entry.note.clone().map(|note| view! { <span class="hint row-note">{note}</span> })}
                                                    </td>
                                                    <td class="cell-amount">{amount_text}{usual}</td>
                                                    <td class="cell-status"><span class=format!("status {}", status_class(status))>{label(status)}</span></td>
                                                    <td class="row-actions"><EntryActions entry=entry.clone() act action_label=action/></td>
                                                </tr>
                                            }
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        }.into_any()
                    }}
                    <section aria-labelledby="upcoming-title" data-testid="upcoming">
                        <h2 id="upcoming-title">"Coming up in the next 30 days"</h2>
                        <div inner_html=super::tracker_markup::upcoming(&upcoming, locale)></div>
                    </section>
                    {(!pay).then(|| shown_month.map(|month| view! {
                        <div inner_html=super::tracker_markup::calendar(month, &tracker.entries, &tracker.today)></div>
                    }))}
                    {spending.map(|spending| {
                        let charts = spending.per_currency();
                        let named = charts.len() > 1;
                        charts.into_iter().enumerate().map(|(index, spending)| view! {
                            <SpendingChart spending named first={index == 0}/>
                        }).collect_view()
                    })}
                }.into_any()
            }
        }})}}
        </Transition>
    }
}

/// `TrackerPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct TrackerRoute;

split_route!(TrackerRoute => TrackerPage in tracker);
