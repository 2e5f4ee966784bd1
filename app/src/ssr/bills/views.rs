//! The bills as the pages and the API see them: each with what today (in
//! the user's time zone) adds, the Tracker's period at a glance, the
//! spending report, and the catalog a bill can link to.

use std::collections::HashMap;

use sqlx::SqlitePool;

use super::{list, today_for, Bill, BillError};
use crate::contract::bills::{
    BillList, BillRecord, CategorySpending, Period, PeriodKind, Spending, Tracker, TrackerEntry,
};
use crate::domain::date::Date;
use crate::domain::tracker::{self, TrackedBill};
use crate::ssr::preferences;

/// Which period the Tracker is asked for (`?period=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeriodChoice {
    /// The pay period when the user has a pay schedule, else the month.
    Default,
    Month,
    Pay,
}

impl PeriodChoice {
    /// `month`, `pay` or nothing; anything else names `period`.
    pub fn parse(text: Option<&str>) -> Result<Self, BillError> {
        match text {
            None => Ok(Self::Default),
            Some("month") => Ok(Self::Month),
            Some("pay") => Ok(Self::Pay),
            Some(_) => Err(BillError::Invalid {
                field: "period",
                description: "use month or pay".into(),
            }),
        }
    }
}

/// A bill with its next due date and, on a debt, the interest not yet
/// charged, as of `today`.
pub fn shown(bill: &Bill, today: Date) -> BillRecord {
    let mut bill = bill.clone();
    bill.next_due = bill.due_on_or_after(today).map(|due| due.to_string());
    bill.interest_pending_minor = bill.interest_pending(today);
    bill
}

/// One bill as answered: as of the user's today.
pub async fn shown_for(pool: &SqlitePool, user: i64, bill: &Bill) -> Result<BillRecord, BillError> {
    let today = today_for(pool, user).await?;
    Ok(shown(bill, today))
}

/// Every bill of the user, with today and their preferences.
pub async fn bill_list(pool: &SqlitePool, user: i64) -> Result<BillList, BillError> {
    let today = today_for(pool, user).await?;
    let bills = list(pool, user)
        .await?
        .iter()
        .map(|bill| shown(bill, today))
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
/// `last`: each with its payments in that span (payments, not failed
/// autopay). Reminders decide "paid" with this too.
pub async fn tracked_in(
    pool: &SqlitePool,
    user: i64,
    all: &[Bill],
    first: Date,
    last: Date,
) -> Result<Vec<TrackedBill>, sqlx::Error> {
    let paid: Vec<(i64, String)> = sqlx::query_as(
        "SELECT bill_id, paid_on FROM payments
         WHERE user_id = ? AND kind = 'payment' AND autopay_failure = 0
             AND paid_on BETWEEN ? AND ?",
    )
    .bind(user)
    .bind(first.to_string())
    .bind(last.to_string())
    .fetch_all(pool)
    .await?;
    let mut paid_by_bill: HashMap<i64, Vec<Date>> = HashMap::new();
    for (bill_id, paid_on) in paid {
        if let Ok(date) = Date::parse(&paid_on) {
            paid_by_bill.entry(bill_id).or_default().push(date);
        }
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
                paid_on: paid_by_bill.remove(&bill.id).unwrap_or_default(),
            })
        })
        .collect())
}

/// This month, or this pay period, at a glance.
pub async fn tracker(
    pool: &SqlitePool,
    user: i64,
    choice: PeriodChoice,
) -> Result<Tracker, BillError> {
    let today = today_for(pool, user).await?;
    let schedule = preferences::pay_schedule(pool, user).await?;
    let pay_period = match choice {
        PeriodChoice::Default => schedule.is_some(),
        PeriodChoice::Month => false,
        PeriodChoice::Pay if schedule.is_some() => true,
        PeriodChoice::Pay => {
            return Err(BillError::Invalid {
                field: "period",
                description: "set a pay schedule in Profile → Preferences first".into(),
            })
        }
    };
    let (first, last) = schedule
        .filter(|_| pay_period)
        .and_then(|(schedule, payday)| schedule.period_containing(payday, today))
        .unwrap_or_else(|| tracker::month_bounds(today));
    let all = list(pool, user).await?;
    let tracked = tracked_in(pool, user, &all, first, last).await?;
    let (entries, totals) = tracker::period_view(today, (first, last), &tracked);
    let by_id: HashMap<i64, &Bill> = all.iter().map(|bill| (bill.id, bill)).collect();
    let entries = entries
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
            })
        })
        .collect();
    let (locale, currency) = preferences::locale_and_currency(pool, user).await?;
    Ok(Tracker {
        today: today.to_string(),
        locale,
        currency,
        month: today.year_month().to_string(),
        period: Period {
            kind: if pay_period {
                PeriodKind::Pay
            } else {
                PeriodKind::Month
            },
            first: first.to_string(),
            last: last.to_string(),
        },
        pay_schedule: schedule.map(|(schedule, _)| schedule.as_str().to_owned()),
        entries,
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
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT b.category, substr(p.paid_on, 1, 7) AS month, sum(p.amount_cents)
         FROM payments p JOIN bills b ON b.id = p.bill_id
         WHERE p.user_id = ? AND p.paid_on >= ? AND p.autopay_failure = 0
             AND p.kind = 'payment'
         GROUP BY b.category, month ORDER BY b.category",
    )
    .bind(user)
    .bind(first)
    .fetch_all(pool)
    .await?;
    let labels: Vec<String> = months.iter().map(ToString::to_string).collect();
    let mut categories: Vec<CategorySpending> = Vec::new();
    for (category, month, total) in rows {
        let Some(slot) = labels.iter().position(|label| *label == month) else {
            continue;
        };
        match categories.iter_mut().find(|row| row.name == category) {
            Some(row) => row.totals_minor[slot] += total,
            None => {
                let mut totals_minor = vec![0; labels.len()];
                totals_minor[slot] = total;
                categories.push(CategorySpending {
                    name: category,
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
