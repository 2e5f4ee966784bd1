//! SQL of matching transactions to bills: the transaction as matching
//! sees it, the links between a transaction and a payment, the merchant
//! rules, and ignoring.

use sqlx::{SqliteConnection, SqlitePool};

/// A transaction as matching reads it.
pub struct Candidate {
    pub id: i64,
    pub posted_at: String,
    pub amount_cents: i64,
    pub description: String,
    pub pending: bool,
    pub bill_id: Option<i64>,
    pub returns_payment_id: Option<i64>,
}

/// One of the user's transactions.
pub async fn candidate(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
) -> Result<Option<Candidate>, sqlx::Error> {
    sqlx::query_as!(
        Candidate,
        r#"SELECT id AS "id!", posted_at, amount_cents, description, pending = 1 AS "pending!: bool", bill_id,
                returns_payment_id
         FROM transactions WHERE id = ? AND user_id = ?"#,
        id,
        user_id,
    )
    .fetch_optional(pool)
    .await
}

/// The user's recent unmatched debits on monitored accounts that matching
/// may look at (posted, not ignored, never unmatched), oldest first;
/// `window` is how far back, like `-45 days`.
pub async fn unmatched_debits(
    pool: &SqlitePool,
    user_id: i64,
    window: &str,
) -> Result<Vec<Candidate>, sqlx::Error> {
    let now = crate::backend::clock::now_sql();
    sqlx::query_as!(
        Candidate,
        r#"SELECT t.id AS "id!", t.posted_at, t.amount_cents, t.description,
                t.pending = 1 AS "pending!: bool", t.bill_id, t.returns_payment_id
         FROM transactions t JOIN bank_accounts a ON a.id = t.account_id AND a.user_id = t.user_id
         WHERE t.user_id = ? AND t.bill_id IS NULL AND t.pending = 0 AND t.ignored_at IS NULL
           AND t.unmatched_at IS NULL AND t.amount_cents < 0 AND a.monitored = 1
           AND t.posted_at >= strftime('%Y-%m-%dT%H:%M:%SZ', ?, ?)
         ORDER BY t.posted_at, t.id"#,
        user_id,
        now,
        window
    )
    .fetch_all(pool)
    .await
}

/// The user's merchant rules on active bills: `(payee key, bill id)`.
pub async fn rules(pool: &SqlitePool, user_id: i64) -> Result<Vec<(String, i64)>, sqlx::Error> {
    Ok(sqlx::query!(
        "SELECT DISTINCT r.merchant, r.bill_id FROM merchant_rules r
         JOIN bills b ON b.id = r.bill_id AND b.user_id = r.user_id
         WHERE r.user_id = ? AND b.active = 1",
        user_id
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|rule| (rule.merchant, rule.bill_id))
    .collect())
}

/// Remembers that the payee `merchant` pays `bill_id`.
pub async fn remember_rule(
    conn: &mut SqliteConnection,
    user_id: i64,
    bill_id: i64,
    merchant: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO merchant_rules (user_id, bill_id, merchant) VALUES (?, ?, ?)
         ON CONFLICT (user_id, merchant, bill_id) DO NOTHING",
        user_id,
        bill_id,
        merchant,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A payment of the bill recorded by hand (no transaction, not failed)
/// within `days` of `day`, the nearest first.
pub async fn payment_near(
    conn: &mut SqliteConnection,
    user_id: i64,
    bill_id: i64,
    day: &str,
    days: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM payments
         WHERE bill_id = ? AND user_id = ? AND transaction_id IS NULL AND kind = 'payment'
           AND autopay_failure = 0
           AND abs(julianday(paid_on) - julianday(?)) <= ?
         ORDER BY abs(julianday(paid_on) - julianday(?)) LIMIT 1"#,
        bill_id,
        user_id,
        day,
        days,
        day,
    )
    .fetch_optional(conn)
    .await
}

/// Links the payment and the transaction both ways, the transaction matched
/// `by` (`manual`, `auto`), and marks an autopay bill's autopay verified.
pub async fn link(
    conn: &mut SqliteConnection,
    transaction_id: i64,
    payment_id: i64,
    bill_id: i64,
    by: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE payments SET transaction_id = ? WHERE id = ?",
        transaction_id,
        payment_id,
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "UPDATE transactions SET bill_id = ?, matched_by = ?,
             matched_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?",
        bill_id,
        by,
        transaction_id,
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "UPDATE bills SET autopay_verified_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND autopay = 1",
        bill_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The payment linked to the transaction: `(id, method)`.
pub async fn linked_payment(
    conn: &mut SqliteConnection,
    user_id: i64,
    transaction_id: i64,
) -> Result<Option<(i64, String)>, sqlx::Error> {
    Ok(sqlx::query!(
        r#"SELECT id AS "id!", method FROM payments WHERE transaction_id = ? AND user_id = ?"#,
        transaction_id,
        user_id
    )
    .fetch_optional(conn)
    .await?
    .map(|row| (row.id, row.method)))
}

/// Unlinks a payment from its transaction (the payment stays).
pub async fn unlink_payment(
    conn: &mut SqliteConnection,
    payment_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE payments SET transaction_id = NULL WHERE id = ?",
        payment_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks the transaction unmatched (automatic matching leaves it alone
/// from then on).
pub async fn unmatch(
    conn: &mut SqliteConnection,
    user_id: i64,
    id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE transactions SET bill_id = NULL, matched_by = NULL, matched_at = NULL,
             returns_payment_id = NULL, unmatched_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND user_id = ?",
        id,
        user_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Ignores the transaction (keeping when it was first ignored), or stops.
pub async fn set_ignored(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
    ignored: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE transactions SET ignored_at = CASE WHEN ? THEN
             coalesce(ignored_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) ELSE NULL END
         WHERE id = ? AND user_id = ?",
        ignored,
        id,
        user_id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Every merchant rule of the user: `(payee key, bill id)`.
pub async fn all_rules(pool: &SqlitePool, user_id: i64) -> Result<Vec<(String, i64)>, sqlx::Error> {
    Ok(sqlx::query!(
        r#"SELECT merchant AS "merchant!: String",
             bill_id AS "bill_id!: i64"
         FROM merchant_rules WHERE user_id = ?"#,
        user_id,
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| (row.merchant, row.bill_id))
    .collect())
}

/// The descriptions of the user's matched transactions (by hand or by a
/// rule) with their bills: `(description, bill id)`.
pub async fn matched_descriptions(
    pool: &SqlitePool,
    user_id: i64,
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    Ok(sqlx::query!(
        r#"SELECT description AS "description!: String",
             bill_id AS "bill_id!: i64"
         FROM transactions
         WHERE user_id = ? AND bill_id IS NOT NULL AND matched_by IN ('auto', 'manual')"#,
        user_id,
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| (row.description, row.bill_id))
    .collect())
}
