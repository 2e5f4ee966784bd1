//! One use case per function: the drifting bills, "Update to" (and its
//! undo), and "Dismiss".

use std::collections::HashMap;

use sqlx::SqlitePool;

use super::store;
use super::DriftError;
use crate::contract::drift::{AmountChanged, DriftMonth, DriftingBill, Drifts};
use crate::domain::date::{Date, YearMonth};
use crate::domain::drift::{self, MonthPaid, Thresholds};

/// How long a dismissal lasts (unless the drift moves further).
pub const DISMISS_DAYS: i64 = 30;
async fn thresholds(pool: &SqlitePool, user: i64) -> Result<Thresholds, sqlx::Error> {
    crate::backend::preferences::drift_thresholds(pool, user).await
}

/// Every drifting bill of the user, dismissed ones included.
pub async fn drifting(pool: &SqlitePool, user: i64) -> Result<Vec<DriftingBill>, sqlx::Error> {
    let today = crate::backend::bills::today_for(pool, user).await?;
    let thresholds = thresholds(pool, user).await?;
    drifting_as_of(pool, user, today, thresholds).await
}

/// [`drifting`] for a caller that has read today and the thresholds.
async fn drifting_as_of(
    pool: &SqlitePool,
    user: i64,
    today: Date,
    thresholds: Thresholds,
) -> Result<Vec<DriftingBill>, sqlx::Error> {
    // Three months with a payment of a quarterly bill reach back 9 months;
    // of a yearly one, three years.
    let since = today.add_days(-3 * 366).unwrap_or(today);
    let mut months: HashMap<i64, Vec<MonthPaid>> = HashMap::new();
    for (bill, month, paid, charged) in store::paid_per_month(pool, user, since).await? {
        if let Some(month) = YearMonth::parse(&month).filter(|m| *m <= today.year_month()) {
            months.entry(bill).or_default().push(MonthPaid {
                month,
                paid_minor: paid,
                charged,
            });
        }
    }
    Ok(store::candidates(pool, user)
        .await?
        .into_iter()
        .filter_map(|bill| {
            let found = drift::find(
                bill.amount_cents,
                months.get(&bill.id).map_or(&[][..], Vec::as_slice),
                thresholds,
            )?;
            Some(DriftingBill {
                bill_id: bill.id,
                name: bill.name,
                expected_minor: found.expected_minor,
                median_minor: found.median_minor,
                months: found
                    .months
                    .iter()
                    .map(|month| DriftMonth {
                        month: month.month.to_string(),
                        paid_minor: month.paid_minor,
                    })
                    .collect(),
                currency: bill.currency,
            })
        })
        .collect())
}

/// The drifting bills the user has not dismissed (or whose drift moved
/// by another threshold since).
pub async fn list(pool: &SqlitePool, user: i64) -> Result<Drifts, DriftError> {
    let today = crate::backend::bills::today_for(pool, user).await?;
    let thresholds = thresholds(pool, user).await?;
    let dismissed: HashMap<i64, (i64, String)> = store::dismissals(pool, user)
        .await?
        .into_iter()
        .map(|(bill, median, until)| (bill, (median, until)))
        .collect();
    let bills = drifting_as_of(pool, user, today, thresholds)
        .await?
        .into_iter()
        .filter(|bill| match dismissed.get(&bill.bill_id) {
            Some((median, until)) => {
                let running = Date::parse(until).is_ok_and(|until| today < until);
                !(running && drift::still_dismissed(*median, bill.median_minor, thresholds))
            }
            None => true,
        })
        .collect();
    Ok(Drifts { bills })
}

/// The user's bill `bill` when it drifts: not found when it is not theirs.
async fn drifting_bill(
    pool: &SqlitePool,
    user: i64,
    bill: i64,
) -> Result<DriftingBill, DriftError> {
    let mut conn = pool.acquire().await?;
    if store::amount(&mut conn, user, bill).await?.is_none() {
        return Err(DriftError::NoBill);
    }
    drop(conn);
    drifting(pool, user)
        .await?
        .into_iter()
        .find(|found| found.bill_id == bill)
        .ok_or_else(|| DriftError::NotDrifting(format!("bill {bill} is not drifting")))
}

/// "Update to": the bill's amount becomes the drift's median.
pub async fn accept(pool: &SqlitePool, user: i64, bill: i64) -> Result<AmountChanged, DriftError> {
    let found = drifting_bill(pool, user, bill).await?;
    set_amount(pool, user, bill, found.median_minor).await
}

/// Sets the bill's amount (the undo of "Update to").
pub async fn set_amount(
    pool: &SqlitePool,
    user: i64,
    bill: i64,
    amount: i64,
) -> Result<AmountChanged, DriftError> {
    if !(0..=crate::domain::amount::Amount::MAX_MINOR).contains(&amount) {
        return Err(DriftError::Invalid {
            field: "amountMinor",
            description: "enter an amount from 0 up".into(),
        });
    }
    let mut tx = crate::backend::db::write(pool).await?;
    let previous = store::amount(&mut tx, user, bill)
        .await?
        .ok_or(DriftError::NoBill)?;
    store::set_amount(&mut tx, user, bill, amount).await?;
    tx.commit().await?;
    Ok(AmountChanged {
        bill_id: bill,
        amount_minor: amount,
        previous_minor: previous,
    })
}

/// "Dismiss": out of the Tracker for 30 days, or until the drift moves
/// by another threshold.
pub async fn dismiss(pool: &SqlitePool, user: i64, bill: i64) -> Result<(), DriftError> {
    let found = drifting_bill(pool, user, bill).await?;
    let today = crate::backend::bills::today_for(pool, user).await?;
    let until = today.add_days(DISMISS_DAYS).unwrap_or(today);
    let mut tx = crate::backend::db::write(pool).await?;
    store::dismiss(&mut tx, user, bill, found.median_minor, until).await?;
    tx.commit().await?;
    Ok(())
}
