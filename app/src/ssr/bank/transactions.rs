//! The user's transactions, newest first, filtered and paged by keyset (the
//! page token is the last row's posting time and id, so a sync between two
//! pages neither repeats nor skips a row).

use base64::Engine as _;
use sqlx::{QueryBuilder, Sqlite, SqlitePool};

use super::BankError;
use crate::contract::bank::{BankTransaction, TransactionPage, TransactionQuery};

/// A [`BankTransaction`]'s columns, read `FROM` the transaction `t` and
/// its account `a`.
pub const COLUMNS: &str = "t.id, t.account_id, t.posted_at, t.amount_cents AS amount_minor,
        a.currency, t.description, t.payee, t.memo, t.pending = 1 AS pending, t.bill_id,
        CASE WHEN t.returns_payment_id IS NOT NULL THEN 'return' ELSE t.matched_by END
            AS matched_by,
        t.ignored_at IS NOT NULL AS ignored";
pub const FROM: &str = "FROM transactions t JOIN bank_accounts a ON a.id = t.account_id";

/// A transaction as read, with its cleaned-up name filled in.
pub fn named(mut transaction: BankTransaction) -> BankTransaction {
    transaction.name = crate::domain::bank::merchant::normalize(&transaction.description);
    transaction
}

pub const DEFAULT_PAGE: u32 = 50;
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
    let mut sql: QueryBuilder<Sqlite> = QueryBuilder::new(format!("SELECT {COLUMNS} {FROM}"));
    sql.push(" WHERE t.user_id = ");
    sql.push_bind(user_id);
    if let Some(account_id) = query.account_id {
        sql.push(" AND t.account_id = ").push_bind(account_id);
    }
    if let Some(pending) = query.pending {
        sql.push(" AND t.pending = ").push_bind(pending);
    }
    match query.matched {
        Some(true) => {
            sql.push(" AND t.bill_id IS NOT NULL");
        }
        Some(false) => {
            sql.push(" AND t.bill_id IS NULL");
        }
        None => {}
    }
    if let Some(words) = query.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        let pattern = format!(
            "%{}%",
            words
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        sql.push(" AND (t.description LIKE ")
            .push_bind(pattern.clone())
            .push(" ESCAPE '\\' OR t.payee LIKE ")
            .push_bind(pattern.clone())
            .push(" ESCAPE '\\' OR t.memo LIKE ")
            .push_bind(pattern)
            .push(" ESCAPE '\\')");
    }
    if let Some((posted_at, id)) = query.page_token.as_deref().and_then(read_token) {
        sql.push(" AND (t.posted_at < ")
            .push_bind(posted_at.clone())
            .push(" OR (t.posted_at = ")
            .push_bind(posted_at)
            .push(" AND t.id < ")
            .push_bind(id)
            .push("))");
    }
    sql.push(" ORDER BY t.posted_at DESC, t.id DESC LIMIT ")
        .push_bind(i64::from(size) + 1);
    let mut transactions: Vec<BankTransaction> = sql
        .build_query_as()
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(named)
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
