//! The user's transactions, newest first, filtered and paged by keyset (the
//! page token is the last row's posting time and id, so a sync between two
//! pages neither repeats nor skips a row).

use base64::Engine as _;
use sqlx::SqlitePool;

use super::store::transactions as store;
use super::BankError;
use crate::contract::bank::{TransactionPage, TransactionQuery};

pub const DEFAULT_PAGE: u32 = 50;
/// Sorts after every posting time (RFC 3339 text): the first page's bound.
const AFTER_EVERY_POSTING: &str = "~";
pub const MAX_PAGE: u32 = 200;
/// The longest search text.
pub const MAX_QUERY: usize = 200;

fn token(posted_at: &str, id: i64) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("{posted_at}|{id}"))
}

fn read_token(text: &str) -> Option<(String, i64)> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let (posted_at, id) = text.rsplit_once('|')?;
    Some((posted_at.to_owned(), id.parse().ok()?))
}

/// `words` as a `LIKE` pattern that finds them anywhere, with `\\`, `%`
/// and `_` taken literally.
fn like_pattern(words: &str) -> String {
    format!(
        "%{}%",
        words
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    )
}

/// Checks the filters; every bad one is named.
pub fn check(query: &TransactionQuery) -> Result<(), BankError> {
    if query
        .page_size
        .is_some_and(|size| size == 0 || size > MAX_PAGE)
    {
        return Err(BankError::field(
            "pageSize",
            format!("ask for 1 to {MAX_PAGE} transactions"),
        ));
    }
    if query
        .q
        .as_ref()
        .is_some_and(|q| q.chars().count() > MAX_QUERY)
    {
        return Err(BankError::field(
            "q",
            format!("search with at most {MAX_QUERY} characters"),
        ));
    }
    if let Some(page_token) = query.page_token.as_deref().filter(|t| !t.is_empty()) {
        if read_token(page_token).is_none() {
            return Err(BankError::field(
                "pageToken",
                "this is not a page token from an earlier answer",
            ));
        }
    }
    Ok(())
}

/// A page of the user's transactions.
pub async fn page(
    pool: &SqlitePool,
    user_id: i64,
    query: &TransactionQuery,
) -> Result<TransactionPage, BankError> {
    let size = query.page_size.unwrap_or(DEFAULT_PAGE).clamp(1, MAX_PAGE);
    let pattern = query
        .q
        .as_deref()
        .map(str::trim)
        .filter(|q| !q.is_empty())
        .map(like_pattern);
    // Keyset: rows before the token's (posting time, id). Without a token
    // the bound is past every row, so one statement serves both and the
    // index on (user, posting time) still bounds the scan.
    let (before_posted, before_id) = query
        .page_token
        .as_deref()
        .and_then(read_token)
        .unwrap_or_else(|| (AFTER_EVERY_POSTING.to_owned(), i64::MAX));
    let filter = store::PageFilter {
        account_id: query.account_id,
        pending: query.pending,
        matched: query.matched,
        pattern: pattern.as_deref(),
        before_posted: &before_posted,
        before_id,
        limit: i64::from(size) + 1,
    };
    let mut transactions = store::page(pool, user_id, &filter).await?;
    let next_page_token = if transactions.len() > size as usize {
        transactions.truncate(size as usize);
        transactions
            .last()
            .map(|last| token(&last.posted_at, last.id))
            .unwrap_or_default()
    } else {
        String::new()
    };
    Ok(TransactionPage {
        transactions,
        next_page_token,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_tokens_round_trip_and_bad_filters_are_named() {
        let made = token("2026-11-02T12:00:00Z", 42);
        assert_eq!(
            read_token(&made),
            Some(("2026-11-02T12:00:00Z".to_owned(), 42))
        );
        let bad = TransactionQuery {
            page_token: Some("garbage!".into()),
            ..TransactionQuery::default()
        };
        assert!(check(&bad).unwrap_err().to_string().contains("pageToken"));
        let big = TransactionQuery {
            page_size: Some(201),
            ..TransactionQuery::default()
        };
        assert!(check(&big).unwrap_err().to_string().contains("pageSize"));
        assert!(check(&TransactionQuery::default()).is_ok());
    }
}
