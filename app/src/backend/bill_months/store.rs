//! All SQL of per-month overrides (`bill_months`, migration v1.12).

use sqlx::{SqliteConnection, SqlitePool};

use crate::domain::bill_month::MonthOverride;
use crate::domain::date::Date;

struct Row {
    bill_id: i64,
    occurrence: String,
    amount_cents: Option<i64>,
    skipped: bool,
    snoozed_to: Option<String>,
    note: Option<String>,
}

impl Row {
    fn into_override(self) -> Option<(i64, MonthOverride)> {
        Some((
            self.bill_id,
            MonthOverride {
                occurrence: Date::parse(&self.occurrence).ok()?,
                amount_minor: self.amount_cents,
                skipped: self.skipped,
                snoozed_to: self.snoozed_to.and_then(|to| Date::parse(&to).ok()),
                note: self.note,
            },
        ))
    }
}

/// The user's overrides of occurrences scheduled from `first` through
/// `last`, with their bill's id.
pub async fn between(
    pool: &SqlitePool,
    user: i64,
    first: Date,
    last: Date,
) -> Result<Vec<(i64, MonthOverride)>, sqlx::Error> {
    let (first, last) = (first.to_string(), last.to_string());
    let rows: Vec<Row> = sqlx::query_as!(
        Row,
        r#"SELECT bill_id, occurrence, amount_cents, skipped AS "skipped: bool", snoozed_to, note
         FROM bill_months WHERE user_id = ? AND occurrence BETWEEN ? AND ?"#,
        user,
        first,
        last,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().filter_map(Row::into_override).collect())
}

/// Every override of the user, oldest occurrence first (the export).
pub async fn all(pool: &SqlitePool, user: i64) -> Result<Vec<(i64, MonthOverride)>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as!(
        Row,
        r#"SELECT bill_id, occurrence, amount_cents, skipped AS "skipped: bool", snoozed_to, note
         FROM bill_months WHERE user_id = ? ORDER BY occurrence, bill_id"#,
        user,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().filter_map(Row::into_override).collect())
}

pub async fn one(
    conn: &mut SqliteConnection,
    user: i64,
    bill: i64,
    occurrence: Date,
) -> Result<Option<MonthOverride>, sqlx::Error> {
    let occurrence = occurrence.to_string();
    let row: Option<Row> = sqlx::query_as!(
        Row,
        r#"SELECT bill_id, occurrence, amount_cents, skipped AS "skipped: bool", snoozed_to, note
         FROM bill_months WHERE user_id = ? AND bill_id = ? AND occurrence = ?"#,
        user,
        bill,
        occurrence,
    )
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.and_then(Row::into_override).map(|(_, found)| found))
}

/// Stores the override (replacing the one before); one that changes
/// nothing is removed instead.
pub async fn put(
    conn: &mut SqliteConnection,
    user: i64,
    bill: i64,
    change: &MonthOverride,
) -> Result<(), sqlx::Error> {
    if change.is_empty() {
        remove(conn, user, bill, change.occurrence).await?;
        return Ok(());
    }
    let occurrence = change.occurrence.to_string();
    let snoozed_to = change.snoozed_to.map(|to| to.to_string());
    let note = change.note.as_deref();
    sqlx::query!(
        "INSERT INTO bill_months (bill_id, user_id, occurrence, amount_cents, skipped, snoozed_to, note)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (bill_id, occurrence) DO UPDATE SET
             amount_cents = excluded.amount_cents, skipped = excluded.skipped,
             snoozed_to = excluded.snoozed_to, note = excluded.note,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        bill,
        user,
        occurrence,
        change.amount_minor,
        change.skipped,
        snoozed_to,
        note,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn remove(
    conn: &mut SqliteConnection,
    user: i64,
    bill: i64,
    occurrence: Date,
) -> Result<bool, sqlx::Error> {
    let occurrence = occurrence.to_string();
    let done = sqlx::query!(
        "DELETE FROM bill_months WHERE user_id = ? AND bill_id = ? AND occurrence = ?",
        user,
        bill,
        occurrence,
    )
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() > 0)
}
