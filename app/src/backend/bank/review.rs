//! The automatic matches of the last seven days, for the user to review;
//! undoing one is an unmatch (the payment undone, the bill restored).

use sqlx::SqlitePool;

use super::store;
use super::BankError;
use crate::contract::bank::AutoMatches;

/// How long automatic matches stay in the review list.
pub const REVIEW_DAYS: u32 = 7;

pub async fn auto_matches(pool: &SqlitePool, user_id: i64) -> Result<AutoMatches, BankError> {
    let window = format!("-{REVIEW_DAYS} days");
    Ok(AutoMatches {
        matches: store::transactions::auto_matched_since(pool, user_id, &window).await?,
        review_days: REVIEW_DAYS,
    })
}
