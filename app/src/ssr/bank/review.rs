//! The automatic matches of the last seven days, for the user to review;
//! undoing one is an unmatch (the payment undone, the bill restored).

use sqlx::SqlitePool;

use super::transactions::{COLUMNS, FROM};
use super::BankError;
use crate::contract::bank::{AutoMatch, AutoMatches, BankTransaction};

/// How long automatic matches stay in the review list.
pub const REVIEW_DAYS: u32 = 7;

#[derive(sqlx::FromRow)]
struct Row {
    #[sqlx(flatten)]
    transaction: BankTransaction,
    bill_name: String,
    matched_at: String,
}

pub async fn auto_matches(pool: &SqlitePool, user_id: i64) -> Result<AutoMatches, BankError> {
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "SELECT {COLUMNS}, b.name AS bill_name, t.matched_at {FROM}
         JOIN bills b ON b.id = t.bill_id
         WHERE t.user_id = ? AND t.matched_by = 'auto'
           AND t.matched_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{REVIEW_DAYS} days')
         ORDER BY t.matched_at DESC, t.id DESC LIMIT 500"
    ))
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    Ok(AutoMatches {
        matches: rows
            .into_iter()
            .map(|row| AutoMatch {
                transaction: super::transactions::named(row.transaction),
                bill_name: row.bill_name,
                matched_at: row.matched_at,
            })
            .collect(),
        review_days: REVIEW_DAYS,
    })
}
