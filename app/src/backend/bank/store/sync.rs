//! SQL of a sync: a connection's access and state, its accounts, and
//! their transactions as the provider lists them.

use sqlx::{SqliteConnection, SqlitePool};

/// A transaction read and checked, ready to store.
pub struct Incoming {
    pub provider_id: String,
    pub stable_id: String,
    pub posted_at: String,
    pub transacted_at: Option<String>,
    pub amount_minor: i64,
    pub description: String,
    pub payee: Option<String>,
    pub memo: Option<String>,
    pub pending: bool,
}

pub struct IncomingAccount {
    pub provider_id: String,
    pub name: String,
    pub currency: String,
    pub institution: String,
    pub balance_minor: Option<i64>,
    pub available_minor: Option<i64>,
    pub balance_date: Option<String>,
    pub transactions: Vec<Incoming>,
}

/// A stored posted transaction, as far as a sync compares it.
#[derive(sqlx::FromRow)]
pub struct Stored {
    pub provider_transaction_id: String,
    pub provider_id: Option<String>,
    pub payee: Option<String>,
    pub memo: Option<String>,
    pub edited: bool,
}

/// Notes a failed sync on the connection (unless it was disconnected).
pub async fn record_failure(
    pool: &SqlitePool,
    connection_id: i64,
    error: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE bank_connections SET status = 'error', last_error = ?
         WHERE id = ? AND status <> 'disconnected'",
        error,
        connection_id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The connection synced now: active, no error, its institution's name.
pub async fn mark_synced(
    pool: &SqlitePool,
    connection_id: i64,
    institution: Option<String>,
) -> Result<(), sqlx::Error> {
    // On the calendar's clock: autopay reads the day a sync reached.
    let at = crate::backend::clock::now_stored();
    sqlx::query!(
        "UPDATE bank_connections SET status = 'active', last_error = NULL,
             last_synced_at = ?3,
             institution = CASE WHEN ?2 IS NOT NULL AND ?2 <> '' THEN ?2 ELSE institution END
         WHERE id = ?1",
        connection_id,
        institution,
        at,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// A connection's owner, its sealed access URL and its status.
pub async fn sealed_access(
    pool: &SqlitePool,
    connection_id: i64,
) -> Result<Option<(i64, String, String)>, sqlx::Error> {
    Ok(sqlx::query!(
        "SELECT user_id, access_secret, status FROM bank_connections WHERE id = ?",
        connection_id
    )
    .fetch_optional(pool)
    .await?
    .map(|connection| {
        (
            connection.user_id,
            connection.access_secret,
            connection.status,
        )
    }))
}

/// The institution's name, when the provider gave one.
pub async fn set_institution(
    conn: &mut SqliteConnection,
    connection_id: i64,
    institution: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE bank_connections
         SET institution = CASE WHEN ?2 IS NOT NULL AND ?2 <> '' THEN ?2 ELSE institution END
         WHERE id = ?1",
        connection_id,
        institution,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Stores one account and its balance; its id and whether it is monitored.
pub async fn upsert_account(
    tx: &mut SqliteConnection,
    user_id: i64,
    connection_id: i64,
    account: &IncomingAccount,
) -> Result<(i64, bool), sqlx::Error> {
    // The same bank account seen through an earlier connection of the same
    // user (disconnected and connected again) is that account: it moves to
    // this connection and keeps its history.
    let existing = sqlx::query!(
        r#"SELECT id AS "id!", monitored AS "monitored: bool" FROM bank_accounts
         WHERE user_id = ? AND provider_account_id = ?
         ORDER BY connection_id = ? DESC, id LIMIT 1"#,
        user_id,
        account.provider_id,
        connection_id
    )
    .fetch_optional(&mut *tx)
    .await?
    .map(|row| (row.id, row.monitored));
    let (account_id, monitored) = match existing {
        Some((id, monitored)) => {
            sqlx::query!(
                "UPDATE bank_accounts SET connection_id = ?, name = ?, currency = ?,
                     balance_cents = ?, available_cents = ?, balance_date = ?
                 WHERE id = ?",
                connection_id,
                account.name,
                account.currency,
                account.balance_minor,
                account.available_minor,
                account.balance_date,
                id,
            )
            .execute(&mut *tx)
            .await?;
            (id, monitored)
        }
        None => {
            let id: i64 = sqlx::query_scalar!(
                r#"INSERT INTO bank_accounts (connection_id, user_id, provider_account_id, name,
                     currency, balance_cents, available_cents, balance_date)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id AS "id!""#,
                connection_id,
                user_id,
                account.provider_id,
                account.name,
                account.currency,
                account.balance_minor,
                account.available_minor,
                account.balance_date,
            )
            .fetch_one(&mut *tx)
            .await?;
            (id, true)
        }
    };
    Ok((account_id, monitored))
}

/// Drops the account's pending transactions (the provider lists the
/// pending ones anew each time).
pub async fn clear_pending(
    conn: &mut SqliteConnection,
    account_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "DELETE FROM transactions WHERE account_id = ? AND pending = 1",
        account_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The account's posted transactions, as a sync compares them.
pub async fn posted(pool: &SqlitePool, account_id: i64) -> Result<Vec<Stored>, sqlx::Error> {
    sqlx::query_as!(
        Stored,
        r#"SELECT provider_transaction_id, provider_id, payee, memo,
                user_edited_at IS NOT NULL AS "edited!: bool"
         FROM transactions WHERE account_id = ? AND pending = 0"#,
        account_id,
    )
    .fetch_all(pool)
    .await
}

/// A known transaction as the provider lists it now (payee and memo only
/// when its owner has not edited them).
pub async fn refresh(
    conn: &mut SqliteConnection,
    account_id: i64,
    incoming: &Incoming,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE transactions SET provider_id = ?3,
             payee = CASE WHEN user_edited_at IS NULL THEN ?4 ELSE payee END,
             memo = CASE WHEN user_edited_at IS NULL THEN ?5 ELSE memo END
         WHERE account_id = ?1 AND provider_transaction_id = ?2",
        account_id,
        incoming.stable_id,
        incoming.provider_id,
        incoming.payee,
        incoming.memo,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A transaction stored under its `legacy` id moves to its stable id.
pub async fn adopt(
    conn: &mut SqliteConnection,
    account_id: i64,
    legacy: &str,
    incoming: &Incoming,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE transactions SET provider_transaction_id = ?3, provider_id = ?4
         WHERE account_id = ?1 AND provider_transaction_id = ?2",
        account_id,
        legacy,
        incoming.stable_id,
        incoming.provider_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Adds a transaction (one already stored under its stable id is left).
pub async fn insert(
    tx: &mut SqliteConnection,
    user_id: i64,
    account_id: i64,
    incoming: &Incoming,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO transactions (user_id, account_id, provider_transaction_id, provider_id,
             posted_at, transacted_at, amount_cents, description, payee, memo, pending)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, provider_transaction_id) DO NOTHING",
        user_id,
        account_id,
        incoming.stable_id,
        incoming.provider_id,
        incoming.posted_at,
        incoming.transacted_at,
        incoming.amount_minor,
        incoming.description,
        incoming.payee,
        incoming.memo,
        incoming.pending,
    )
    .execute(&mut *tx)
    .await?;
    Ok(())
}
