//! SQL of bank transactions as the contract shows them: one, a page of
//! the user's list, the recent unmatched ones (for suggestions) and the
//! recent automatic matches (for review). Every read is scoped to the user.

use sqlx::SqlitePool;

use crate::contract::bank::{AutoMatch, BankTransaction};

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
               FROM transactions t JOIN bank_accounts a ON a.id = t.account_id AND a.user_id = t.user_id " + $rest
            $(, $arg)*
        )
    };
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        $crate::backend::bank::store::transactions::select_transactions!(extra = "", $rest $(, $arg)*)
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

/// One of the user's transactions.
pub async fn one(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
) -> Result<Option<BankTransaction>, sqlx::Error> {
    Ok(
        select_transactions!("WHERE t.id = ? AND t.user_id = ?", id, user_id)
            .fetch_optional(pool)
            .await?
            .map(|row| transaction_from!(row)),
    )
}

/// The filters of a page of the list, and where it starts: before the
/// keyset bound (posting time, id), at most `limit` rows.
pub struct PageFilter<'a> {
    pub account_id: Option<i64>,
    pub pending: Option<bool>,
    pub matched: Option<bool>,
    /// A `LIKE` pattern over description, payee and memo (`\` escapes).
    pub pattern: Option<&'a str>,
    pub before_posted: &'a str,
    pub before_id: i64,
    pub limit: i64,
}

/// The user's transactions, newest first, as the filter says.
pub async fn page(
    pool: &SqlitePool,
    user_id: i64,
    filter: &PageFilter<'_>,
) -> Result<Vec<BankTransaction>, sqlx::Error> {
    Ok(select_transactions!(
        r#"WHERE t.user_id = ?1
             AND (?2 IS NULL OR t.account_id = ?2)
             AND (?3 IS NULL OR t.pending = ?3)
             AND (?4 IS NULL OR (t.bill_id IS NOT NULL) = ?4)
             AND (?5 IS NULL OR t.description LIKE ?5 ESCAPE '\'
                  OR t.payee LIKE ?5 ESCAPE '\' OR t.memo LIKE ?5 ESCAPE '\')
             AND t.posted_at <= ?6 AND (t.posted_at < ?6 OR t.id < ?7)
           ORDER BY t.posted_at DESC, t.id DESC LIMIT ?8"#,
        user_id,
        filter.account_id,
        filter.pending,
        filter.matched,
        filter.pattern,
        filter.before_posted,
        filter.before_id,
        filter.limit
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| transaction_from!(row))
    .collect())
}

/// The user's settled spending of the last 45 days on monitored accounts
/// that no bill claims and nobody ignored, newest first.
pub async fn recent_unmatched(
    pool: &SqlitePool,
    user_id: i64,
    limit: i64,
) -> Result<Vec<BankTransaction>, sqlx::Error> {
    let now = crate::backend::clock::now_sql();
    Ok(select_transactions!(
        "WHERE t.user_id = ? AND t.bill_id IS NULL AND t.pending = 0
                 AND t.ignored_at IS NULL AND t.amount_cents < 0 AND a.monitored = 1
                 AND t.posted_at >= strftime('%Y-%m-%dT%H:%M:%SZ', ?, '-45 days')
               ORDER BY t.posted_at DESC, t.id DESC LIMIT ?",
        user_id,
        now,
        limit
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| transaction_from!(row))
    .collect())
}

/// The user's automatic matches made since `window` ago (like `-7 days`),
/// newest first, at most 500.
pub async fn auto_matched_since(
    pool: &SqlitePool,
    user_id: i64,
    window: &str,
) -> Result<Vec<AutoMatch>, sqlx::Error> {
    let rows = select_transactions!(
        extra = r#", b.name AS bill_name, t.matched_at AS "matched_at!""#,
        "JOIN bills b ON b.id = t.bill_id AND b.user_id = t.user_id
         WHERE t.user_id = ? AND t.matched_by = 'auto'
           AND t.matched_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)
         ORDER BY t.matched_at DESC, t.id DESC LIMIT 500",
        user_id,
        window
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| AutoMatch {
            bill_name: row.bill_name,
            matched_at: row.matched_at,
            transaction: transaction_from!(row),
        })
        .collect())
}
