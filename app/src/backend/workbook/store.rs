//! The workbook's SQL: the person's transactions for the export (with
//! account, currency and matched bill), and what a spreadsheet import
//! compares its rows with.

use sqlx::SqlitePool;

use super::mapping::Existing;
use crate::domain::date::Date;

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
    sqlx::query_as!(
        TransactionRow,
        "SELECT a.name AS account, t.posted_at, t.amount_cents, a.currency, t.description, t.memo,
                b.name AS bill
         FROM transactions t
         JOIN bank_accounts a ON a.id = t.account_id AND a.user_id = t.user_id
         LEFT JOIN bills b ON b.id = t.bill_id AND b.user_id = t.user_id
         WHERE t.user_id = ?
         ORDER BY t.posted_at, t.id",
        user_id,
    )
    .fetch_all(pool)
    .await
}

/// The person's bills by name (lower-cased) and their payments, to find a
/// payment's bill and to tell rows the account has already.
pub async fn existing(pool: &SqlitePool, user_id: i64) -> Result<Existing, sqlx::Error> {
    let bills: Vec<(i64, String)> = sqlx::query!(
        r#"SELECT id AS "id!: i64",
             name AS "name!: String"
         FROM bills WHERE user_id = ? ORDER BY id"#,
        user_id,
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| (row.id, row.name))
    .collect();
    let payments: Vec<(i64, String, i64)> = sqlx::query!(
        r#"SELECT bill_id AS "bill_id!: i64",
             paid_on AS "paid_on!: String",
             amount_cents AS "amount_cents!: i64"
         FROM payments WHERE user_id = ? AND kind = 'payment'"#,
        user_id,
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| (row.bill_id, row.paid_on, row.amount_cents))
    .collect();
    let mut found = Existing::default();
    for (id, name) in bills {
        found.bills.entry(name.trim().to_lowercase()).or_insert(id);
    }
    for (bill, paid_on, amount) in payments {
        if let Ok(day) = Date::parse(paid_on.get(..10).unwrap_or(&paid_on)) {
            found.payments.insert((bill, day, amount));
        }
    }
    Ok(found)
}
