//! The bills as the pages and the API see them: each with what today (in
//! the user's time zone) adds, the Tracker's period at a glance, the
//! spending report, and the catalog a bill can link to.

use std::collections::HashMap;

use sqlx::SqlitePool;

use super::store::payments;
use super::{list, today_for, Bill, BillError};
use crate::backend::preferences;
use crate::contract::bills::{
    BillList, BillRecord, CategorySpending, Period, PeriodKind, Spending, Tracker, TrackerEntry,
};
use crate::domain::bill_month::{MonthOverride, SNOOZE_MAX_DAYS};
use crate::domain::date::{Date, YearMonth};
use crate::domain::pay_period::PaySchedule;
use crate::domain::tracker::{self, Paid, TrackedBill, PAYMENTS_AFTER_DAYS, PAYMENTS_BEFORE_DAYS};

/// Which period the Tracker shows: `?period=`, and `?year=&month=` (a
/// month) or `?from=` (the pay period holding that date).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    pub choice: PeriodChoice,
    pub month: Option<YearMonth>,
    pub from: Option<Date>,
}

impl Shown {
    /// Reads the query's fields, each refused by its own name.
    pub fn parse(
        period: Option<&str>,
        year: Option<&str>,
        month: Option<&str>,
        from: Option<&str>,
    ) -> Result<Self, BillError> {
        let invalid = |field: &'static str, description: &str| BillError::Invalid {
            field,
            description: description.into(),
        };
        let choice = PeriodChoice::parse(period)?;
        let number = |field: &'static str, text: &str, range: std::ops::RangeInclusive<i32>| {
            text.trim()
                .parse::<i32>()
                .ok()
                .filter(|n| range.contains(n))
                .ok_or_else(|| {
                    invalid(
                        field,
                        &format!("use a number from {} to {}", range.start(), range.end()),
                    )
                })
        };
        let month = match (year, month) {
            (None, None) => None,
            (Some(year), Some(month)) => Some(YearMonth {
                year: number("year", year, 1970..=9999)?,
                month: u8::try_from(number("month", month, 1..=12)?).unwrap_or(1),
            }),
            (None, Some(_)) => return Err(invalid("year", "give the year with the month")),
            (Some(_), None) => return Err(invalid("month", "give the month with the year")),
        };
        let from = match from {
            None => None,
            Some(text) => Some(
                Date::parse(text.trim())
                    .map_err(|_| invalid("from", "use a date like 2026-11-15"))?,
            ),
        };
        if month.is_some() && (from.is_some() || choice == PeriodChoice::Pay) {
            return Err(invalid(
                "month",
                "a month is shown with year and month; a pay period with period=pay and from",
            ));
        }
        if from.is_some() && choice == PeriodChoice::Month {
            return Err(invalid(
                "from",
                "from chooses a pay period: use it with period=pay",
            ));
        }
        Ok(Self {
            choice: if month.is_some() {
                PeriodChoice::Month
            } else {
                choice
            },
            month,
            from,
        })
    }
}

/// Which period the Tracker is asked for (`?period=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeriodChoice {
    /// The pay period when the user has a pay schedule, else the month.
    Default,
    Month,
    Pay,
    /// The 1st to the 14th or the 15th to the month's end, with or without
    /// a pay schedule.
    Half,
}

impl PeriodChoice {
    /// `month`, `pay`, `half` or nothing; anything else names `period`.
    pub fn parse(text: Option<&str>) -> Result<Self, BillError> {
        match text {
            None => Ok(Self::Default),
            Some("month") => Ok(Self::Month),
            Some("pay") => Ok(Self::Pay),
            Some("half") => Ok(Self::Half),
            Some(_) => Err(BillError::Invalid {
                field: "period",
                description: "use month, pay or half".into(),
            }),
        }
    }
}

/// A bill with its next due date (the first one on or after `today` that
/// no payment paid: rent paid early moves it on) and, on a debt, the
/// interest not yet charged, as of `today`.
fn shown(bill: &Bill, tracked: Option<&TrackedBill>, today: Date) -> BillRecord {
    let mut bill = bill.clone();
    bill.next_due = match tracked {
        Some(tracked) => tracked.next_unpaid(today),
        None => bill.due_on_or_after(today),
    }
    .map(|due| due.to_string());
    bill.interest_pending_minor = bill.interest_pending(today);
    bill
}

/// One bill as answered: as of the user's today.
pub async fn shown_for(pool: &SqlitePool, user: i64, bill: &Bill) -> Result<BillRecord, BillError> {
    let today = today_for(pool, user).await?;
    let tracked = tracked_in(pool, user, std::slice::from_ref(bill), today, today).await?;
    Ok(shown(bill, tracked.first(), today))
}

/// Every bill of the user, with today and their preferences.
pub async fn bill_list(pool: &SqlitePool, user: i64) -> Result<BillList, BillError> {
    let today = today_for(pool, user).await?;
    let all = list(pool, user).await?;
    let tracked: HashMap<i64, TrackedBill> = tracked_in(pool, user, &all, today, today)
        .await?
        .into_iter()
        .map(|tracked| (tracked.id, tracked))
        .collect();
    let bills = all
        .iter()
        .map(|bill| shown(bill, tracked.get(&bill.id), today))
        .collect();
    let (locale, currency) = preferences::locale_and_currency(pool, user).await?;
    Ok(BillList {
        today: today.to_string(),
        locale,
        currency,
        bills,
    })
}

/// The active bills of `all` as the Tracker weighs them from `first` to
/// `last`: each with the payments (not failed autopay) that can pay its
/// due dates in that span, from a little before it to a little after.
/// Reminders decide "paid" with this too.
pub async fn tracked_in(
    pool: &SqlitePool,
    user: i64,
    all: &[Bill],
    first: Date,
    last: Date,
) -> Result<Vec<TrackedBill>, sqlx::Error> {
    let reach_from = first
        .add_days(-PAYMENTS_BEFORE_DAYS)
        .unwrap_or(first)
        .to_string();
    let reach_to = last
        .add_days(PAYMENTS_AFTER_DAYS)
        .unwrap_or(last)
        .to_string();
    let mut paid_by_bill: HashMap<i64, Vec<Paid>> = HashMap::new();
    for found in payments::near(pool, user, &reach_from, &reach_to).await? {
        if let Ok(on) = Date::parse(&found.paid_on) {
            paid_by_bill.entry(found.bill_id).or_default().push(Paid {
                on,
                amount_minor: found.amount_minor,
                for_occurrence: found
                    .for_occurrence
                    .as_deref()
                    .and_then(|due| Date::parse(due).ok()),
            });
        }
    }
    // Overrides of occurrences the payments' reach covers, and those
    // snoozed into the span from before it.
    let reach = first
        .add_days(-PAYMENTS_BEFORE_DAYS - SNOOZE_MAX_DAYS)
        .unwrap_or(first);
    let mut overrides_by_bill: HashMap<i64, Vec<MonthOverride>> = HashMap::new();
    let through = last.add_days(PAYMENTS_AFTER_DAYS).unwrap_or(last);
    for (bill_id, found) in
        crate::backend::bill_months::store::between(pool, user, reach, through).await?
    {
        overrides_by_bill.entry(bill_id).or_default().push(found);
    }
    Ok(all
        .iter()
        .filter(|bill| bill.active)
        .filter_map(|bill| {
            Some(TrackedBill {
                id: bill.id,
                cadence: bill.cadence()?,
                anchor: Date::parse(&bill.anchor_date).ok()?,
                due_day: u8::try_from(bill.due_day).ok()?,
                amount_minor: bill.amount_minor,
                currency: bill.currency.clone(),
                payments: paid_by_bill.remove(&bill.id).unwrap_or_default(),
                overrides: overrides_by_bill.remove(&bill.id).unwrap_or_default(),
            })
        })
        .collect())
}

/// How many days ahead the Tracker's Upcoming list looks.
pub const UPCOMING_DAYS: i64 = 30;

/// The period `shown` asks for: `(kind, first, last)`.
fn period_of(
    shown: Shown,
    today: Date,
    schedule: Option<(PaySchedule, Date)>,
) -> Result<(PeriodKind, Date, Date), BillError> {
    if shown.choice == PeriodChoice::Half {
        // Twice a month on the 1st and the 15th is exactly half months.
        let (first, last) = PaySchedule::SemiMonthly
            .period_containing(Date::EPOCH, shown.from.unwrap_or(today))
            .unwrap_or_else(|| tracker::month_bounds(today));
        return Ok((PeriodKind::Half, first, last));
    }
    let pay_period = match shown.choice {
        PeriodChoice::Default => schedule.is_some() && shown.month.is_none(),
        PeriodChoice::Month | PeriodChoice::Half => false,
        PeriodChoice::Pay if schedule.is_some() => true,
        PeriodChoice::Pay => {
            return Err(BillError::Invalid {
                field: "period",
                description: "set a pay schedule in Profile → Preferences first".into(),
            })
        }
    };
    let month = |month: YearMonth| Date::new(month.year, month.month, 1).zip(month.last_day());
    let span = match (pay_period, shown.month, schedule) {
        (true, _, Some((schedule, payday))) => {
            schedule.period_containing(payday, shown.from.unwrap_or(today))
        }
        (_, Some(shown), _) => month(shown),
        _ => None,
    };
    let (first, last) = span.unwrap_or_else(|| tracker::month_bounds(today));
    let kind = if pay_period {
        PeriodKind::Pay
    } else {
        PeriodKind::Month
    };
    Ok((kind, first, last))
}

/// A month, or a pay period, at a glance (today's unless `shown` names
/// another), with what is coming in the next [`UPCOMING_DAYS`] days.
pub async fn tracker(pool: &SqlitePool, user: i64, shown: Shown) -> Result<Tracker, BillError> {
    let today = today_for(pool, user).await?;
    let schedule = preferences::pay_schedule(pool, user).await?;
    let (kind, first, last) = period_of(shown, today, schedule)?;
    let pay_period = kind != PeriodKind::Month;
    let all = list(pool, user).await?;
    let by_id: HashMap<i64, &Bill> = all.iter().map(|bill| (bill.id, bill)).collect();
    let described = |entries: Vec<tracker::Entry>| -> Vec<TrackerEntry> {
        entries
            .into_iter()
            .filter_map(|entry| {
                let bill = by_id.get(&entry.bill_id)?;
                Some(TrackerEntry {
                    bill_id: entry.bill_id,
                    name: bill.name.clone(),
                    due: entry.due,
                    status: entry.status,
                    amount_minor: entry.amount_minor,
                    currency: bill.currency.clone(),
                    autopay: bill.autopay,
                    category: bill.category.clone(),
                    usual_amount_minor: entry.usual_amount_minor,
                    skipped: entry.skipped,
                    snoozed_from: entry.snoozed_from,
                    note: entry.note,
                })
            })
            .collect()
    };
    let ahead = today.add_days(UPCOMING_DAYS).unwrap_or(today);
    // One read of payments and overrides serves the period and Upcoming.
    let tracked = tracked_in(pool, user, &all, first.min(today), last.max(ahead)).await?;
    let (entries, totals) = tracker::period_view(today, (first, last), &tracked);
    let (coming, _) = tracker::period_view(today, (today, ahead), &tracked);
    let upcoming = coming
        .into_iter()
        .filter(|entry| {
            !matches!(
                entry.status,
                tracker::Status::Paid | tracker::Status::Skipped
            )
        })
        .collect();
    let (locale, currency) = preferences::locale_and_currency(pool, user).await?;
    let totals = tracker::own_currency_first(totals, &currency);
    let pin_due = preferences::pin_due(pool, user).await?;
    Ok(Tracker {
        today: today.to_string(),
        locale,
        currency,
        month: if pay_period {
            shown.from.unwrap_or(today).year_month()
        } else {
            first.year_month()
        }
        .to_string(),
        period: Period {
            kind,
            first: first.to_string(),
            last: last.to_string(),
        },
        pay_schedule: schedule.map(|(schedule, _)| schedule.as_str().to_owned()),
        entries: described(entries),
        pin_due,
        upcoming: described(upcoming),
        totals,
    })
}

/// Payments per category per month for the last six months (this one
/// included), for the Tracker's chart.
pub async fn spending(pool: &SqlitePool, user: i64) -> Result<Spending, BillError> {
    let today = today_for(pool, user).await?;
    let mut months = vec![today.year_month()];
    for _ in 0..5 {
        months.insert(0, months[0].previous());
    }
    let first = format!("{}-01", months[0]);
    let rows = payments::spent_by_category(pool, user, &first).await?;
    let labels: Vec<String> = months.iter().map(ToString::to_string).collect();
    let mut categories: Vec<CategorySpending> = Vec::new();
    for (category, paid_in, month, total) in rows {
        let Some(slot) = labels.iter().position(|label| *label == month) else {
            continue;
        };
        match categories
            .iter_mut()
            .find(|row| row.name == category && row.currency == paid_in)
        {
            Some(row) => row.totals_minor[slot] += total,
            None => {
                let mut totals_minor = vec![0; labels.len()];
                totals_minor[slot] = total;
                categories.push(CategorySpending {
                    name: category,
                    currency: paid_in,
                    totals_minor,
                });
            }
        }
    }
    let (locale, currency) = preferences::locale_and_currency(pool, user).await?;
    Ok(Spending {
        locale,
        currency,
        months: labels,
        categories,
    })
}
