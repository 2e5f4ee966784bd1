//! SQL for `payments`, and for the parts of a bill a payment changes (a
//! debt's balance and the month its interest is charged through).

use sqlx::{SqliteConnection, SqlitePool};

use super::{select_bills, Bill, BillError};
use crate::contract::bills::{Payment, PaymentKind};

/// A compile-checked read of whole payments: `select_payments!("WHERE id =
/// ?", id)` is `query_as!` with every column of [`Payment`] and the rest of
/// the statement appended.
macro_rules! select_payments {
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Payment,
            r#"SELECT id AS "id!", bill_id, amount_cents AS amount_minor, paid_on, method,
                 interest_delta AS interest_delta_minor,
                 autopay_failure AS "autopay_failure: bool",
                 kind AS "kind: PaymentKind", created_at, for_occurrence,
                 NULL AS "pays?: String"
             FROM payments "# + $rest
            $(, $arg)*
        )
    };
}

/// A bill's payments, newest first.
pub async fn of_bill(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
) -> Result<Vec<Payment>, sqlx::Error> {
    select_payments!(
        "WHERE bill_id = ? AND user_id = ? ORDER BY paid_on DESC, id DESC",
        bill_id,
        user_id,
    )
    .fetch_all(pool)
    .await
}

/// All of the user's payments, oldest first.
pub async fn of_user(pool: &SqlitePool, user_id: i64) -> Result<Vec<Payment>, sqlx::Error> {
    select_payments!("WHERE user_id = ? ORDER BY paid_on, id", user_id)
        .fetch_all(pool)
        .await
}

/// One of the user's payments.
pub async fn one(conn: &mut SqliteConnection, user_id: i64, id: i64) -> Result<Payment, BillError> {
    select_payments!("WHERE id = ? AND user_id = ?", id, user_id)
        .fetch_optional(conn)
        .await?
        .ok_or(BillError::NotFound)
}

/// One of the user's bills, read inside a write transaction that is about
/// to change it: the first statement writes, so the transaction holds
/// SQLite's one write lock from the read on and the check-and-charge is one
/// step.
pub async fn bill_for_update(
    conn: &mut SqliteConnection,
    user_id: i64,
    bill_id: i64,
) -> Result<Bill, BillError> {
    sqlx::query!(
        "UPDATE bills SET updated_at = updated_at WHERE id = ? AND user_id = ?",
        bill_id,
        user_id,
    )
    .execute(&mut *conn)
    .await?;
    select_bills!("WHERE id = ? AND user_id = ?", bill_id, user_id)
        .fetch_optional(conn)
        .await?
        .map(Bill::from)
        .ok_or(BillError::NotFound)
}

/// A debt's balance and the month its interest is charged through.
pub async fn set_balance(
    conn: &mut SqliteConnection,
    user_id: i64,
    bill_id: i64,
    balance_minor: i64,
    charged_through: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE bills SET balance_cents = ?, interest_accrued_month = ?,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND user_id = ?",
        balance_minor,
        charged_through,
        bill_id,
        user_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A payment of kind `payment`, as [`insert`] stores it.
pub struct NewRow<'a> {
    pub amount_minor: i64,
    pub paid_on: &'a str,
    pub method: &'a str,
    pub interest_delta_minor: i64,
    pub for_occurrence: Option<&'a str>,
}

/// Adds a payment (kind `payment`); answers its id.
pub async fn insert(
    conn: &mut SqliteConnection,
    user_id: i64,
    bill_id: i64,
    row: &NewRow<'_>,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        r#"INSERT INTO payments (bill_id, user_id, amount_cents, paid_on, method, interest_delta,
             for_occurrence)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id AS "id!""#,
        bill_id,
        user_id,
        row.amount_minor,
        row.paid_on,
        row.method,
        row.interest_delta_minor,
        row.for_occurrence,
    )
    .fetch_one(conn)
    .await
}

/// Adds a month's interest charge (kind `interest`, no amount paid), dated
/// `day`.
pub async fn insert_interest(
    conn: &mut SqliteConnection,
    user_id: i64,
    bill_id: i64,
    day: Option<&str>,
    interest_minor: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO payments (bill_id, user_id, amount_cents, paid_on, method,
             interest_delta, kind)
         VALUES (?, ?, 0, ?, 'interest', ?, 'interest')",
        bill_id,
        user_id,
        day,
        interest_minor,
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn delete(conn: &mut SqliteConnection, user_id: i64, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "DELETE FROM payments WHERE id = ? AND user_id = ?",
        id,
        user_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The latest month a payment of the bill charged interest with it.
pub async fn last_month_charged(
    conn: &mut SqliteConnection,
    bill_id: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT max(substr(paid_on, 1, 7)) AS "month: String" FROM payments
         WHERE bill_id = ? AND interest_delta > 0"#,
        bill_id,
    )
    .fetch_one(conn)
    .await
}

/// Marks (or clears) a payment as a failed autopay; how many rows changed.
pub async fn set_autopay_failure(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
    failed: bool,
) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query!(
        "UPDATE payments SET autopay_failure = ? WHERE id = ? AND user_id = ?",
        failed,
        id,
        user_id,
    )
    .execute(pool)
    .await?
    .rows_affected())
}

/// A payment near a period, as the Tracker weighs it.
pub struct NearPayment {
    pub bill_id: i64,
    pub paid_on: String,
    pub amount_minor: i64,
    pub for_occurrence: Option<String>,
}

/// The user's payments (failed autopay and interest charges left out)
/// dated from `from` through `to`, or said to pay a due date in that span.
pub async fn near(
    pool: &SqlitePool,
    user_id: i64,
    from: &str,
    to: &str,
) -> Result<Vec<NearPayment>, sqlx::Error> {
    sqlx::query_as!(
        NearPayment,
        r#"SELECT bill_id, paid_on, amount_cents AS amount_minor, for_occurrence FROM payments
         WHERE user_id = ?1 AND kind = 'payment' AND autopay_failure = 0
             AND (paid_on BETWEEN ?2 AND ?3 OR for_occurrence BETWEEN ?2 AND ?3)"#,
        user_id,
        from,
        to
    )
    .fetch_all(pool)
    .await
}

/// What was paid per category and currency per month (`YYYY-MM`) since
/// `first`: `(category, currency, month, sum)`, by category.
pub async fn spent_by_category(
    pool: &SqlitePool,
    user_id: i64,
    first: &str,
) -> Result<Vec<(String, String, String, i64)>, sqlx::Error> {
    Ok(sqlx::query!(
        r#"SELECT b.category AS "category!: String", b.currency AS "currency!: String",
             substr(p.paid_on, 1, 7) AS "month!: String",
             sum(p.amount_cents) AS "c2!: i64"
         FROM payments p JOIN bills b ON b.id = p.bill_id AND b.user_id = p.user_id
         WHERE p.user_id = ? AND p.paid_on >= ? AND p.autopay_failure = 0
             AND p.kind = 'payment'
         GROUP BY 1, 2, 3 ORDER BY b.category, b.currency"#,
        user_id,
        first,
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| (row.category, row.currency, row.month, row.c2))
    .collect())
}
