//! SQL of what recommendations are read from: the catalog's descriptors and
//! the person's own, their bank charges, their declines, and whether they
//! connected a bank at all.

use sqlx::SqlitePool;

use crate::backend::bank::store::transactions::{select_transactions, transaction_from};
use crate::contract::bank::BankTransaction;

/// A descriptor of a service: `kind` is `own` for the person's own, else
/// the catalog's kind of it (`bank`, `slang`).
pub struct DescriptorRow {
    pub catalog_id: i64,
    pub kind: String,
    pub text: String,
}

/// A decline or unlink of a service, with the amount it had then, if known.
pub struct DeclineRow {
    pub catalog_id: i64,
    pub amount_minor: Option<i64>,
    pub created_at: String,
}

/// The person's own descriptors and the catalog's.
pub async fn descriptors(
    pool: &SqlitePool,
    user_id: i64,
) -> Result<Vec<DescriptorRow>, sqlx::Error> {
    Ok(sqlx::query!(
        r#"SELECT catalog_id AS "catalog_id!: i64",
             'own' AS "c1!: String",
             descriptor AS "descriptor!: String"
         FROM user_catalog_descriptors WHERE user_id = ?
         UNION ALL
         SELECT catalog_id, kind, descriptor FROM subscription_catalog_descriptors"#,
        user_id,
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| DescriptorRow {
        catalog_id: row.catalog_id,
        kind: row.c1,
        text: row.descriptor,
    })
    .collect())
}

/// The person's settled charges (money out, not ignored) on monitored
/// accounts, posted since `history` ago (an SQLite date modifier such as
/// `-400 days`), newest first, at most `limit`.
pub async fn charges(
    pool: &SqlitePool,
    user_id: i64,
    history: &str,
    limit: i64,
) -> Result<Vec<BankTransaction>, sqlx::Error> {
    let now = crate::backend::clock::now_sql();
    Ok(select_transactions!(
        "WHERE t.user_id = ? AND a.monitored = 1 AND t.pending = 0 AND t.ignored_at IS NULL
           AND t.amount_cents < 0
           AND t.posted_at >= strftime('%Y-%m-%dT%H:%M:%SZ', ?, ?)
         ORDER BY t.posted_at DESC, t.id DESC LIMIT ?",
        user_id,
        now,
        history,
        limit
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| transaction_from!(row))
    .collect())
}

/// The person's declines and unlinks of the last `days` days.
pub async fn declines(
    pool: &SqlitePool,
    user_id: i64,
    days: i64,
) -> Result<Vec<DeclineRow>, sqlx::Error> {
    let now = crate::backend::clock::now_sql();
    Ok(sqlx::query!(
        r#"SELECT catalog_id AS "catalog_id!", amount_cents, created_at
           FROM subscription_recommendation_feedback
           WHERE user_id = ? AND action IN ('decline', 'unlink') AND catalog_id IS NOT NULL
             AND created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', ?, '-' || ? || ' days')"#,
        user_id,
        now,
        days
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| DeclineRow {
        catalog_id: row.catalog_id,
        amount_minor: row.amount_cents,
        created_at: row.created_at,
    })
    .collect())
}

/// Whether the person has connected a bank.
pub async fn bank_connected(pool: &SqlitePool, user_id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM bank_connections WHERE user_id = ?) AS "found!: bool""#,
        user_id,
    )
    .fetch_one(pool)
    .await
}
