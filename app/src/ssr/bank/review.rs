//! The automatic matches of the last seven days, for the user to review;
//! undoing one is an unmatch (the payment undone, the bill restored).

use sqlx::SqlitePool;

use super::transactions::{select_transactions, transaction_from};
use super::BankError;
use crate::contract::bank::{AutoMatch, AutoMatches};

/// How long automatic matches stay in the review list.
pub const REVIEW_DAYS: u32 = 7;

pub async fn auto_matches(pool: &SqlitePool, user_id: i64) -> Result<AutoMatches, BankError> {
    let window = format!("-{REVIEW_DAYS} days");
    let rows = select_transactions!(
        extra = r#", b.name AS bill_name, t.matched_at AS "matched_at!""#,
        "JOIN bills b ON b.id = t.bill_id
         WHERE t.user_id = ? AND t.matched_by = 'auto'
           AND t.matched_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)
         ORDER BY t.matched_at DESC, t.id DESC LIMIT 500",
        user_id,
        window
    )
    .fetch_all(pool)
    .await?;
    Ok(AutoMatches {
        matches: rows
            .into_iter()
            .map(|row| AutoMatch {
                bill_name: row.bill_name,
                matched_at: row.matched_at,
                transaction: transaction_from!(row),
            })
            .collect(),
        review_days: REVIEW_DAYS,
    })
}
