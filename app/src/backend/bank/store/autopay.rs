//! SQL of the autopay check: returned debits and the payments they gave
//! back, missed debits, and the failures a bill's trust counts. Date
//! windows come in as SQLite modifiers (`-10 days`).

use sqlx::{SqliteConnection, SqlitePool};

/// A posted credit that may be a returned debit.
pub struct Credit {
    pub id: i64,
    pub posted_at: String,
    pub amount_cents: i64,
    pub description: String,
}

/// An autopay payment matched to a debit.
pub struct Debit {
    pub payment_id: i64,
    pub bill_id: i64,
    pub description: String,
}

/// The user's unmatched credits of the last 45 days on monitored accounts.
pub async fn recent_credits(pool: &SqlitePool, user_id: i64) -> Result<Vec<Credit>, sqlx::Error> {
    let now = crate::backend::clock::now_sql();
    sqlx::query_as!(
        Credit,
        r#"SELECT t.id AS "id!", t.posted_at, t.amount_cents, t.description
         FROM transactions t JOIN bank_accounts a ON a.id = t.account_id AND a.user_id = t.user_id
         WHERE t.user_id = ? AND t.bill_id IS NULL AND t.pending = 0 AND t.amount_cents > 0
           AND t.ignored_at IS NULL AND t.unmatched_at IS NULL AND a.monitored = 1
           AND t.posted_at >= strftime('%Y-%m-%dT%H:%M:%SZ', ?, '-45 days')
         ORDER BY t.posted_at, t.id"#,
        user_id,
        now,
    )
    .fetch_all(pool)
    .await
}

/// The autopay payments (not failed) of `amount_cents` whose debit posted
/// at or before `posted_at` and within `window` of it, newest first.
pub async fn debits_before(
    pool: &SqlitePool,
    user_id: i64,
    amount_cents: i64,
    posted_at: &str,
    window: &str,
) -> Result<Vec<Debit>, sqlx::Error> {
    sqlx::query_as!(
        Debit,
        r#"SELECT p.id AS "payment_id!", p.bill_id, d.description
         FROM payments p JOIN transactions d ON d.id = p.transaction_id AND d.user_id = p.user_id
         JOIN bills b ON b.id = p.bill_id AND b.user_id = p.user_id
         WHERE p.user_id = ?1 AND b.autopay = 1 AND p.autopay_failure = 0
           AND p.amount_cents = ?2 AND d.posted_at <= ?3
           AND d.posted_at >= strftime('%Y-%m-%dT%H:%M:%SZ', ?3, ?4)
         ORDER BY d.posted_at DESC, d.id DESC"#,
        user_id,
        amount_cents,
        posted_at,
        window
    )
    .fetch_all(pool)
    .await
}

/// Flags the payment a returned debit gave back as failed, and links the
/// returned debit (transaction `credit_id`) to the payment's bill.
pub async fn flag_return(
    conn: &mut SqliteConnection,
    debit: &Debit,
    credit_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE payments SET autopay_failure = 1 WHERE id = ?",
        debit.payment_id,
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "UPDATE transactions SET bill_id = ?, returns_payment_id = ?,
             matched_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?",
        debit.bill_id,
        debit.payment_id,
        credit_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The payment counts again (its returned debit was unmatched).
pub async fn unflag_return(
    conn: &mut SqliteConnection,
    payment_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE payments SET autopay_failure = 0 WHERE id = ?",
        payment_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Removes the bill's missed-debit rows dated from `day` + `late` through
/// `day` + `early`.
pub async fn clear_missed(
    conn: &mut SqliteConnection,
    bill_id: i64,
    day: &str,
    late: &str,
    early: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "DELETE FROM payments
         WHERE bill_id = ?1 AND autopay_failure = 1 AND amount_cents = 0 AND method = 'bank'
           AND transaction_id IS NULL AND kind = 'payment'
           AND paid_on BETWEEN date(?2, ?3) AND date(?2, ?4)",
        bill_id,
        day,
        late,
        early
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The first day the user's monitored accounts have a posted transaction,
/// and the day every connection not disconnected has synced through.
pub async fn coverage(
    pool: &SqlitePool,
    user_id: i64,
) -> Result<(Option<String>, Option<String>), sqlx::Error> {
    let found = sqlx::query!(
        r#"SELECT (SELECT min(substr(t.posted_at, 1, 10)) FROM transactions t
                 JOIN bank_accounts a ON a.id = t.account_id AND a.user_id = t.user_id
                 WHERE t.user_id = ?1 AND a.monitored = 1 AND t.pending = 0)
                   AS "covered_from: String",
                (SELECT min(substr(last_synced_at, 1, 10)) FROM bank_connections
                 WHERE user_id = ?1 AND status != 'disconnected') AS "synced_through: String""#,
        user_id
    )
    .fetch_one(pool)
    .await?;
    Ok((found.covered_from, found.synced_through))
}

/// Whether a payment of the bill is dated from `day` + `early` through
/// `day` + `late`.
pub async fn answered(
    pool: &SqlitePool,
    bill_id: i64,
    day: &str,
    early: &str,
    late: &str,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM payments
         WHERE bill_id = ?1 AND kind = 'payment'
           AND paid_on BETWEEN date(?2, ?3) AND date(?2, ?4)) AS "answered!: bool""#,
        bill_id,
        day,
        early,
        late
    )
    .fetch_one(pool)
    .await
}

/// Records a missed debit: a failed autopay of 0 on `due`.
pub async fn record_missed(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
    due: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO payments (bill_id, user_id, amount_cents, paid_on, method, autopay_failure)
         VALUES (?, ?, 0, ?, 'bank', 1)",
        bill_id,
        user_id,
        due,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The dates of the bill's failed autopay payments.
pub async fn failure_dates(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT paid_on FROM payments WHERE bill_id = ? AND user_id = ? AND autopay_failure = 1",
        bill_id,
        user_id,
    )
    .fetch_all(pool)
    .await
}
