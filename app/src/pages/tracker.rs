//! `/tracker`: a month (or, with a pay schedule, a pay period) at a glance:
//! what is overdue, due soon, paid and still to come, the totals, the bank
//! bar (when bank sync is in use), what is coming in the next 30 days, the
//! month as a calendar, and one click to mark a bill paid. The address says
//! what is shown (`?year=&month=`, `?period=pay&from=`, `sort`, `dir`), so
//! a view is bookmarkable, server-rendered, and moves with links (and the
//! ← and → keys) that work without JavaScript.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::{lazy_route, LazyRoute};

use crate::api::bank::get_bank_connections;
use crate::api::bills::get_tracker;
use crate::api::tracker_act::TrackerAct;
use crate::api::ApiFailure;
use crate::components::bank_bar::BankBar;
use crate::components::drift_panel::{drift_resource, DriftPanel};
use crate::components::spending_chart::SpendingChart;
use crate::contract::bills::{PeriodKind, Tracker, TrackerEntry};
use crate::contract::error::ErrorBody;
use crate::domain::bill_month::SNOOZE_MAX_DAYS;
use crate::domain::date::{Date, YearMonth};
use crate::domain::money::{Currency, Locale, Money};
use crate::domain::tracker::Status;

fn label(status: Status) -> &'static str {
    match status {
        Status::Overdue => "Overdue",
        Status::DueSoon => "Due soon",
        Status::Upcoming => "Upcoming",
        Status::Paid => "Paid",
        Status::Skipped => "Skipped",
    }
}

/// A failed write's message, for the page's alert.
fn failure<T>(result: Option<Result<T, ErrorBody>>) -> Option<String> {
    match result {
        Some(Err(error)) => Some(ApiFailure::from(error).message()),
        _ => None,
    }
}

/// Mark paid, and under "More": skip (or undo), snooze, this time's
/// amount and a note.
#[component]
fn EntryActions(
    entry: TrackerEntry,
    act: ServerAction<TrackerAct>,
    action_label: String,
) -> impl IntoView {
    let bill = entry.bill_id;
    let occurrence = entry
        .snoozed_from
        .clone()
        .unwrap_or_else(|| entry.due.clone());
    let scheduled = Date::parse(&occurrence).ok();
    let snooze_min = scheduled
        .and_then(|d| d.add_days(1))
        .map(|d| d.to_string())
        .unwrap_or_default();
    let snooze_max = scheduled
        .and_then(|d| d.add_days(SNOOZE_MAX_DAYS))
        .map(|d| d.to_string())
        .unwrap_or_default();
    let id = format!("{bill}-{occurrence}");
    let (snooze_id, amount_id, note_id) = (
        format!("snooze-{id}"),
        format!("amount-{id}"),
        format!("note-{id}"),
    );
    let (skip_occurrence, snooze_occurrence, this_occurrence) =
        (occurrence.clone(), occurrence.clone(), occurrence);
    let more_label = format!(" for {} on {}", entry.name, entry.due);
    let snoozed_value = entry.snoozed_from.is_some().then(|| entry.due.clone());
    let amount_value = entry
        .usual_amount_minor
        .map(|_| {
            format!(
                "{}.{:02}",
                entry.amount_minor / 100,
                entry.amount_minor % 100
            )
        })
        .unwrap_or_default();
    view! {
        {(!matches!(entry.status, Status::Paid | Status::Skipped)).then(|| view! {
            <ActionForm action=act attr:class="inline-form">
                <input type="hidden" name="act" value="pay"/>
                <input type="hidden" name="bill" value=bill/>
                <input type="hidden" name="amount" value=entry.amount_minor/>
                <button type="submit" class="button button--quiet">{action_label.clone()}</button>
            </ActionForm>
        })}
        <details class="row-more">
            <summary>"More"<span class="visually-hidden">{more_label}</span></summary>
            <ActionForm action=act attr:class="inline-form">
                <input type="hidden" name="act" value=if entry.skipped { "unskip" } else { "skip" }/>
                <input type="hidden" name="bill" value=bill/>
                <input type="hidden" name="occurrence" value=skip_occurrence/>
                <button type="submit" class="button button--quiet">{if entry.skipped { "Undo skip" } else { "Skip this time" }}</button>
            </ActionForm>
            <ActionForm action=act>
                <input type="hidden" name="act" value="snooze"/>
                <input type="hidden" name="bill" value=bill/>
                <input type="hidden" name="occurrence" value=snooze_occurrence/>
                <label for=snooze_id.clone()>"Snooze to"</label>
                <input id=snooze_id name="to" type="date" min=snooze_min max=snooze_max value=snoozed_value/>
                <button type="submit" class="button button--quiet">"Snooze"</button>
            </ActionForm>
            <ActionForm action=act>
                <input type="hidden" name="act" value="this-time"/>
                <input type="hidden" name="bill" value=bill/>
                <input type="hidden" name="occurrence" value=this_occurrence/>
                <label for=amount_id.clone()>"This time's amount"</label>
                <input id=amount_id name="amount" type="text" inputmode="decimal" autocomplete="off"
                    placeholder="usual" value=amount_value/>
                <label for=note_id.clone()>"Note"</label>
                <input id=note_id name="note" type="text" maxlength="500" value=entry.note.clone()/>
                <button type="submit" class="button button--quiet">"Save"</button>
            </ActionForm>
        </details>
    }
}

fn status_class(status: Status) -> String {
    format!("status--{}", label(status).to_lowercase().replace(' ', "-"))
}

/// The columns the table sorts by (`?sort=`), as the address names them.
const SORTS: [(&str, &str); 4] = [
    ("due_day", "Due"),
    ("name", "Bill"),
    ("amount", "Amount"),
    ("status", "Status"),
];

/// `entries` in the order `sort` and `dir` ask (due date, ascending,
/// unless they name another).
fn sorted(mut entries: Vec<TrackerEntry>, sort: &str, descending: bool) -> Vec<TrackerEntry> {
    match sort {
        "name" => entries.sort_by_key(|e| (e.name.to_lowercase(), e.due.clone())),
        "amount" => entries.sort_by_key(|e| (e.amount_minor, e.due.clone())),
        "status" => entries.sort_by_key(|e| (e.status, e.due.clone())),
        _ => entries.sort_by_key(|e| (e.due.clone(), e.name.to_lowercase())),
    }
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
        if !self.sort.is_empty() && self.sort != "due_day" {
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
            (_, _, Some(from)) => format!("period=pay&from={from}"),
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
    if tracker.period.kind == PeriodKind::Pay {
        let first = Date::parse(&tracker.period.first).ok()?;
        let last = Date::parse(&tracker.period.last).ok()?;
        let before = first.add_days(-1)?;
        let after = last.add_days(1)?;
        Some((
            (
                asked.href(&format!("period=pay&from={before}")),
                "Previous pay period".into(),
            ),
            (
                asked.href(&format!("period=pay&from={after}")),
                "Next pay period".into(),
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

/// The month as a calendar: one row per week (Monday first), each bill on
/// its day with its status.
#[component]
fn MonthCalendar(month: YearMonth, entries: Vec<TrackerEntry>, today: String) -> impl IntoView {
    let Some(first) = Date::new(month.year, month.month, 1) else {
        return ().into_any();
    };
    let last = month.last_day().map_or(28, Date::day);
    let lead = usize::from(first.weekday());
    let mut cells: Vec<Option<u8>> = vec![None; lead];
    cells.extend((1..=last).map(Some));
    while !cells.len().is_multiple_of(7) {
        cells.push(None);
    }
    let weeks: Vec<Vec<Option<u8>>> = cells.chunks(7).map(<[Option<u8>]>::to_vec).collect();
    let day_of = |entry: &TrackerEntry| Date::parse(&entry.due).ok().map(Date::day);
    view! {
        <table class="calendar" data-testid="calendar">
            <caption>{format!("{} as a calendar", month.long_name())}</caption>
            <thead><tr>
                {["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].into_iter()
                    .map(|day| view! { <th scope="col">{day}</th> }).collect_view()}
            </tr></thead>
            <tbody>
                {weeks.into_iter().map(|week| view! {
                    <tr>
                        {week.into_iter().map(|day| match day {
                            None => view! { <td class="calendar__blank"></td> }.into_any(),
                            Some(day) => {
                                let date = format!("{month}-{day:02}");
                                let is_today = date == today;
                                let due: Vec<&TrackerEntry> = entries.iter().filter(|e| day_of(e) == Some(day)).collect();
                                view! {
                                    <td class=if is_today { "calendar__today" } else { "" }
                                        aria-current=is_today.then_some("date")>
                                        <span class="calendar__day">{day}</span>
                                        <ul>
                                            {due.into_iter().map(|entry| view! {
                                                <li class=status_class(entry.status) data-status=label(entry.status)>
                                                    <a href=format!("/bills/{}", entry.bill_id)>{entry.name.clone()}</a>
                                                    <span class="visually-hidden">{format!(", {}", label(entry.status))}</span>
                                                </li>
                                            }).collect_view()}
                                        </ul>
                                    </td>
                                }.into_any()
                            }
                        }).collect_view()}
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
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
    let drifts = drift_resource(act);
    let changes = move || act.version().get();
    // The chart follows the payments (and the other writes, cheaply).
    let payments_made = RwSignal::new(0_u32);
    Effect::new(move |_| {
        let made = act.version().get();
        payments_made.set(u32::try_from(made).unwrap_or(0));
    });
    // Rendered on the server with the page (a blocking resource), asked
    // again when the address changes or after a row action.
    let month = Resource::new_blocking(
        move || {
            let asked = asked.get();
            (asked.period, asked.year, asked.month, asked.from, changes())
        },
        |(period, year, month, from, _)| async move {
            get_tracker(period, year, month, from)
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
        let Some(Ok(tracker)) = month.get_untracked() else {
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
    // The bank bar's accounts; none while bank sync is off or unused.
    let bank = Resource::new_blocking(|| (), |()| async { get_bank_connections().await.ok() });
    let error = move || failure(act.value().get());
    view! {
        <Title text="Tracker"/>
        <h1>"Tracker"</h1>
        <p class="field-error" role="alert">{error}</p>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
        {move || Suspend::new(async move { match month.await {
            Err(failure) => view! {
                <p class="field-error">{failure.message()}</p>
                <p><A href="/tracker">"Back to this month"</A></p>
            }.into_any(),
            Ok(tracker) => {
                let asked = asked.get_untracked();
                let bank = bank.await;
                let drifting = drifts.await.ok();
                let locale = Locale::parse(&tracker.locale);
                let home = Currency::parse(&tracker.currency).unwrap_or(Currency::USD);
                let total = move |minor: i64| Money::new(minor, home).format(locale);
                let money = move |entry: &TrackerEntry| {
                    Money::new(entry.amount_minor, Currency::parse(&entry.currency).unwrap_or(Currency::USD)).format(locale)
                };
                let totals = tracker.totals.clone();
                let pay = tracker.period.kind == PeriodKind::Pay;
                let shown_month = YearMonth::parse(&tracker.month);
                let today_month = Date::parse(&tracker.today).ok().map(Date::year_month);
                let (span, due_label, totals_label) = if pay {
                    (format!("Pay period {} to {}", tracker.period.first, tracker.period.last), "Due this pay period", "This pay period's totals")
                } else {
                    let name = shown_month.map_or_else(|| tracker.month.clone(), YearMonth::long_name);
                    (name, "Due this month", "This month's totals")
                };
                let is_now = if pay {
                    tracker.period.first <= tracker.today && tracker.today <= tracker.period.last
                } else {
                    shown_month == today_month
                };
                let switch = tracker.pay_schedule.is_some().then(|| view! {
                    <div class="segmented" role="group" aria-label="Show">
                        <A href=asked.href("period=month") attr:class="button button--quiet" attr:aria-current=(!pay).then_some("page")>"Months"</A>
                        <A href=asked.href("period=pay") attr:class="button button--quiet" attr:aria-current=pay.then_some("page")>"Pay periods"</A>
                    </div>
                });
                let nav = neighbours(&tracker, &asked).map(|((before, before_name), (after, after_name))| {
                    let (before_label, after_label) = (format!("Previous: {before_name}"), format!("Next: {after_name}"));
                    view! {
                    <nav class="period-nav" aria-label="Periods">
                        <A href=before attr:class="button button--quiet" attr:rel="prev" attr:aria-label=before_label>"← " {before_name}</A>
                        <h2 data-testid="tracker-span" aria-live="polite">{span.clone()}</h2>
                        <A href=after attr:class="button button--quiet" attr:rel="next" attr:aria-label=after_label>{after_name} " →"</A>
                        {(!is_now).then(|| view! {
                            <A href=asked.href(if pay { "period=pay" } else { "" }) attr:class="button button--quiet">{if pay { "This pay period" } else { "This month" }}</A>
                        })}
                    </nav>
                }});
                let upcoming = tracker.upcoming.clone();
                let entries = sorted(tracker.entries.clone(), &asked.sort, asked.descending);
                // A bill due more than once (weekly) names the date in its button.
                let mut seen = std::collections::HashSet::new();
                let repeated: std::collections::HashSet<i64> = entries
                    .iter()
                    .filter(|entry| !seen.insert(entry.bill_id))
                    .map(|entry| entry.bill_id)
                    .collect();
                let header = |(key, name): (&'static str, &'static str)| {
                    let active = asked.sort == key || (asked.sort.is_empty() && key == "due_day");
                    let descending = active && !asked.descending;
                    let sort = if active {
                        Some(if asked.descending { "descending" } else { "ascending" })
                    } else {
                        None
                    };
                    view! {
                        <th scope="col" aria-sort=sort>
                            <A href=asked.sorted_by(key, descending)>{name}</A>
                        </th>
                    }
                };
                view! {
                    {switch}
                    {nav}
                    <p class="hint">{format!("Today is {}", tracker.today)}</p>
                    <section class="totals" aria-label=totals_label data-testid="totals">
                        <div class="total"><span>{due_label}</span><strong data-testid="total-due">{total(totals.due_minor)}</strong></div>
                        <div class="total"><span>"Paid"</span><strong data-testid="total-paid">{total(totals.paid_minor)}</strong></div>
                        <div class="total"><span>"Still to pay"</span><strong data-testid="total-remaining">{total(totals.remaining_minor)}</strong></div>
                        <div class="total total--warn"><span>"Overdue"</span><strong>{total(totals.overdue_minor)}</strong></div>
                    </section>
                    {drifting.map(|found| view! { <DriftPanel found act locale/> })}
                    {bank.map(|bank| view! {
                        <BankBar bank still_to_pay=totals.remaining_minor currency=tracker.currency.clone()/>
                    })}
                    {if entries.is_empty() {
                        let when = if pay { "in this pay period" } else { "in this month" };
                        view! { <p>{format!("Nothing is due {when}. ")} <A href="/bills">"Add a bill"</A></p> }.into_any()
                    } else {
                        view! {
                            <div class="table-wrap">
                                <table class="data-table" data-testid="tracker">
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
                                                    <td>{entry.due.clone()}
                                                        {entry.snoozed_from.clone().map(|from| view! { <span class="hint">{format!(" (moved from {from})")}</span> })}
                                                    </td>
                                                    <td><A href=format!("/bills/{bill}")>{name}</A>{entry.autopay.then_some(" · autopay")}
                                                        {entry.note.clone().map(|note| view! { <span class="hint row-note">{note}</span> })}
                                                    </td>
                                                    <td>{amount_text}{usual}</td>
                                                    <td><span class=format!("status {}", status_class(status))>{label(status)}</span></td>
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
                        {if upcoming.is_empty() {
                            view! { <p>"Nothing is due in the next 30 days."</p> }.into_any()
                        } else {
                            view! {
                                <ul class="upcoming">
                                    {upcoming.into_iter().map(|entry| {
                                        let amount_text = money(&entry);
                                        view! {
                                            <li data-status=label(entry.status)>
                                                <span class="upcoming__due">{entry.due}</span>
                                                <A href=format!("/bills/{}", entry.bill_id)>{entry.name}</A>
                                                <span>{amount_text}</span>
                                                <span class=format!("status {}", status_class(entry.status))>{label(entry.status)}</span>
                                            </li>
                                        }
                                    }).collect_view()}
                                </ul>
                            }.into_any()
                        }}
                    </section>
                    {(!pay).then(|| shown_month.map(|month| view! {
                        <MonthCalendar month entries=tracker.entries.clone() today=tracker.today.clone()/>
                    }))}
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
