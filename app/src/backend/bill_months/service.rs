//! One use case per function: read, set, change or clear one
//! occurrence's overrides.

use sqlx::SqlitePool;

use super::store;
use super::BillMonthError;
use crate::backend::bills::{self, Bill, BillError};
use crate::contract::bill_months::{BillMonth, BillMonthChange};
use crate::domain::bill_month::{self, MonthOverride};
use crate::domain::date::{Date, YearMonth};
use crate::domain::validation::FieldViolation;

fn invalid(field: &str, description: &str) -> BillMonthError {
    BillMonthError::from(FieldViolation {
        field: field.to_owned(),
        description: description.to_owned(),
    })
}

/// The bill and the occurrence an address names (`month`, and
/// `occurrence` for a bill due more than once a month).
async fn resolve(
    pool: &SqlitePool,
    user: i64,
    bill: i64,
    month: &str,
    occurrence: Option<&str>,
) -> Result<(Bill, Date), BillMonthError> {
    let month =
        YearMonth::parse(month).ok_or_else(|| invalid("month", "use a month like 2026-11"))?;
    let occurrence = match occurrence.filter(|text| !text.is_empty()) {
        Some(text) => Some(
            Date::parse(text).map_err(|_| invalid("occurrence", "use a date like 2026-11-09"))?,
        ),
        None => None,
    };
    let found = match bills::get(pool, user, bill).await {
        Ok(found) => found,
        Err(BillError::NotFound) => return Err(BillMonthError::NoBill),
        Err(BillError::Database(error)) => return Err(error.into()),
        Err(other) => return Err(invalid("bill", &other.to_string())),
    };
    let (Some(cadence), Ok(anchor), Ok(due_day)) = (
        found.cadence(),
        Date::parse(&found.anchor_date),
        u8::try_from(found.due_day),
    ) else {
        return Err(invalid("bill", "the bill's schedule cannot be read"));
    };
    let at = bill_month::occurrence_in(cadence, anchor, due_day, month, occurrence)?;
    Ok((found, at))
}

fn shown(bill: &Bill, occurrence: Date, found: Option<MonthOverride>) -> BillMonth {
    let found = found.unwrap_or_else(|| MonthOverride::of(occurrence));
    BillMonth {
        bill_id: bill.id,
        occurrence: occurrence.to_string(),
        usual_amount_minor: bill.amount_minor,
        amount_minor: found.amount_minor,
        skipped: found.skipped,
        snoozed_to: found.snoozed_to.map(|to| to.to_string()),
        note: found.note,
    }
}

/// Every override of the user with its bill's id, for the export.
pub async fn all(
    pool: &SqlitePool,
    user: i64,
) -> Result<Vec<(i64, MonthOverride)>, BillMonthError> {
    Ok(store::all(pool, user).await?)
}

pub async fn get(
    pool: &SqlitePool,
    user: i64,
    bill: i64,
    month: &str,
    occurrence: Option<&str>,
) -> Result<BillMonth, BillMonthError> {
    let (found, at) = resolve(pool, user, bill, month, occurrence).await?;
    let mut conn = pool.acquire().await?;
    let stored = store::one(&mut conn, user, bill, at).await?;
    Ok(shown(&found, at, stored))
}

/// Sets the occurrence's overrides to `change` (what it leaves out is
/// cleared).
pub async fn put(
    pool: &SqlitePool,
    user: i64,
    bill: i64,
    month: &str,
    occurrence: Option<&str>,
    change: BillMonthChange,
) -> Result<BillMonth, BillMonthError> {
    let (found, at) = resolve(pool, user, bill, month, occurrence).await?;
    let snoozed_to = match change.snoozed_to.as_deref().filter(|text| !text.is_empty()) {
        Some(text) => Some(
            Date::parse(text).map_err(|_| invalid("snoozedTo", "use a date like 2026-12-05"))?,
        ),
        None => None,
    };
    let wanted = bill_month::check(MonthOverride {
        occurrence: at,
        amount_minor: change.amount_minor,
        skipped: change.skipped.unwrap_or(false),
        snoozed_to,
        note: change.note,
    })
    .map_err(BillMonthError::Invalid)?;
    let mut tx = crate::backend::db::write(pool).await?;
    store::put(&mut tx, user, bill, &wanted).await?;
    tx.commit().await?;
    Ok(shown(&found, at, Some(wanted)))
}

/// Changes one part of the occurrence's overrides and keeps the rest
/// (the Tracker's row actions: skip, snooze, this time's amount).
pub async fn amend(
    pool: &SqlitePool,
    user: i64,
    bill: i64,
    occurrence: &str,
    amend: impl FnOnce(&mut MonthOverride),
) -> Result<BillMonth, BillMonthError> {
    let at =
        Date::parse(occurrence).map_err(|_| invalid("occurrence", "use a date like 2026-11-09"))?;
    let month = at.year_month().to_string();
    let (found, at) = resolve(pool, user, bill, &month, Some(&at.to_string())).await?;
    let mut tx = crate::backend::db::write(pool).await?;
    let mut wanted = store::one(&mut tx, user, bill, at)
        .await?
        .unwrap_or_else(|| MonthOverride::of(at));
    amend(&mut wanted);
    let wanted = bill_month::check(wanted).map_err(BillMonthError::Invalid)?;
    store::put(&mut tx, user, bill, &wanted).await?;
    tx.commit().await?;
    Ok(shown(&found, at, Some(wanted)))
}

/// Clears the occurrence's overrides (none is not an error).
pub async fn delete(
    pool: &SqlitePool,
    user: i64,
    bill: i64,
    month: &str,
    occurrence: Option<&str>,
) -> Result<(), BillMonthError> {
    let (_, at) = resolve(pool, user, bill, month, occurrence).await?;
    let mut tx = crate::backend::db::write(pool).await?;
    store::remove(&mut tx, user, bill, at).await?;
    tx.commit().await?;
    Ok(())
}
