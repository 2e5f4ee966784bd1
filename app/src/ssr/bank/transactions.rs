//! The user's transactions, newest first, filtered and paged by keyset (the
//! page token is the last row's posting time and id, so a sync between two
//! pages neither repeats nor skips a row).

use base64::Engine as _;
use sqlx::SqlitePool;

use super::BankError;
use crate::contract::bank::{BankTransaction, TransactionPage, TransactionQuery};

/// A compile-checked read of transactions with their accounts:
/// `select_transactions!("WHERE t.id = ?", id)` is `query!` over the
/// transaction `t` and its account `a`, with every column a
/// [`BankTransaction`] has and the rest of the statement appended; a
/// leading literal `extra = ", b.name AS bill_name"` adds columns. Each row
/// becomes a transaction with [`transaction_from!`].
macro_rules! select_transactions {
    (extra = $extra:literal, $rest:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query!(
            r#"SELECT t.id AS "id!", t.account_id, t.posted_at, t.amount_cents AS amount_minor,
                 a.currency, t.description, t.payee, t.memo, t.pending = 1 AS "pending!: bool",
                 t.bill_id,
                 CASE WHEN t.returns_payment_id IS NOT NULL THEN 'return' ELSE t.matched_by END
                     AS "matched_by: String",
                 t.ignored_at IS NOT NULL AS "ignored!: bool""# + $extra + "
               FROM transactions t JOIN bank_accounts a ON a.id = t.account_id " + $rest
            $(, $arg)*
        )
    };
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        $crate::ssr::bank::transactions::select_transactions!(extra = "", $rest $(, $arg)*)
    };
}
pub(crate) use select_transactions;

/// A row of [`select_transactions!`] as a [`BankTransaction`], with its
/// cleaned-up name filled in. Moves the row's transaction fields, so other
/// columns of the row can be taken before or after.
macro_rules! transaction_from {
    ($row:ident) => {
        $crate::contract::bank::BankTransaction {
            name: $crate::domain::bank::merchant::normalize(&$row.description),
            id: $row.id,
            account_id: $row.account_id,
            posted_at: $row.posted_at,
            amount_minor: $row.amount_minor,
            currency: $row.currency,
            description: $row.description,
            payee: $row.payee,
            memo: $row.memo,
            pending: $row.pending,
            bill_id: $row.bill_id,
            matched_by: $row.matched_by,
            ignored: $row.ignored,
        }
    };
}
pub(crate) use transaction_from;

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
    let matched = query.matched;
    let limit = i64::from(size) + 1;
    let mut transactions: Vec<BankTransaction> = select_transactions!(
        r#"WHERE t.user_id = ?1
             AND (?2 IS NULL OR t.account_id = ?2)
             AND (?3 IS NULL OR t.pending = ?3)
             AND (?4 IS NULL OR (t.bill_id IS NOT NULL) = ?4)
             AND (?5 IS NULL OR t.description LIKE ?5 ESCAPE '\'
                  OR t.payee LIKE ?5 ESCAPE '\' OR t.memo LIKE ?5 ESCAPE '\')
             AND t.posted_at <= ?6 AND (t.posted_at < ?6 OR t.id < ?7)
           ORDER BY t.posted_at DESC, t.id DESC LIMIT ?8"#,
        user_id,
        query.account_id,
        query.pending,
        matched,
        pattern,
        before_posted,
        before_id,
        limit
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| transaction_from!(row))
    .collect();
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
