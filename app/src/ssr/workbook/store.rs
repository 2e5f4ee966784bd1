//! The transactions of the workbook: every one of the person's, with its
//! account, currency and the bill it was matched to.

use sqlx::SqlitePool;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TransactionRow {
    pub account: String,
    pub posted_at: String,
    pub amount_cents: i64,
    pub currency: String,
    pub description: String,
    pub memo: Option<String>,
    pub bill: Option<String>,
}

pub async fn transactions(
    pool: &SqlitePool,
    user_id: i64,
) -> Result<Vec<TransactionRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT a.name AS account, t.posted_at, t.amount_cents, a.currency, t.description, t.memo,
                b.name AS bill
         FROM transactions t
         JOIN bank_accounts a ON a.id = t.account_id
         LEFT JOIN bills b ON b.id = t.bill_id
         WHERE t.user_id = ?
         ORDER BY t.posted_at, t.id",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await
}
