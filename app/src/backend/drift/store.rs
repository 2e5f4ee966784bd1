//! All SQL of price drift: each bill's payments per month, dismissals, and
//! setting a bill's amount, compile-checked (`.sqlx/`).

use sqlx::{SqliteConnection, SqlitePool};

use crate::domain::date::Date;

/// A bill that can drift: active, due at most once a month.
pub struct Candidate {
    pub id: i64,
    pub name: String,
    pub amount_cents: i64,
    pub currency: String,
}

pub async fn candidates(pool: &SqlitePool, user: i64) -> Result<Vec<Candidate>, sqlx::Error> {
    sqlx::query_as!(
        Candidate,
        r#"SELECT id AS "id!", name, amount_cents, currency FROM bills
         WHERE user_id = ? AND active = 1
           AND cadence IN ('monthly', 'quarterly', 'yearly', 'custom_months')
         ORDER BY id"#,
        user,
    )
    .fetch_all(pool)
    .await
}

/// `(bill, YYYY-MM, paid, charged)`: payments (not failed autopay) per
/// bill per month, from `since` on, and whether a bank charge matched to
/// the bill is among them.
pub async fn paid_per_month(
    pool: &SqlitePool,
    user: i64,
    since: Date,
) -> Result<Vec<(i64, String, i64, bool)>, sqlx::Error> {
    let since = since.to_string();
    let rows = sqlx::query!(
        r#"SELECT bill_id AS "bill_id!", substr(paid_on, 1, 7) AS "month!: String",
                  sum(amount_cents) AS "paid!: i64",
                  max(transaction_id IS NOT NULL) AS "charged!: bool"
         FROM payments
         WHERE user_id = ? AND kind = 'payment' AND autopay_failure = 0 AND paid_on >= ?
         GROUP BY bill_id, 2"#,
        user,
        since,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| (row.bill_id, row.month, row.paid, row.charged))
        .collect())
}

/// `(bill, median dismissed, until)`.
pub async fn dismissals(
    pool: &SqlitePool,
    user: i64,
) -> Result<Vec<(i64, i64, String)>, sqlx::Error> {
    let rows = sqlx::query!(
        r#"SELECT bill_id AS "bill_id!", median_cents, until FROM drift_dismissals
           WHERE user_id = ?"#,
        user,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| (row.bill_id, row.median_cents, row.until))
        .collect())
}

pub async fn dismiss(
    conn: &mut SqliteConnection,
    user: i64,
    bill: i64,
    median: i64,
    until: Date,
) -> Result<(), sqlx::Error> {
    let until = until.to_string();
    sqlx::query!(
        "INSERT INTO drift_dismissals (bill_id, user_id, median_cents, until) VALUES (?, ?, ?, ?)
         ON CONFLICT (bill_id) DO UPDATE SET median_cents = excluded.median_cents,
             until = excluded.until, created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        bill,
        user,
        median,
        until,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The bill's amount, when it is the user's.
pub async fn amount(
    conn: &mut SqliteConnection,
    user: i64,
    bill: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT amount_cents FROM bills WHERE id = ? AND user_id = ?",
        bill,
        user,
    )
    .fetch_optional(&mut *conn)
    .await
}

/// Sets the bill's amount; a drift acted on is no longer dismissed.
pub async fn set_amount(
    conn: &mut SqliteConnection,
    user: i64,
    bill: i64,
    amount: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE bills SET amount_cents = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND user_id = ?",
        amount,
        bill,
        user,
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "DELETE FROM drift_dismissals WHERE bill_id = ? AND user_id = ?",
        bill,
        user,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}
