//! Reading connections and their accounts back as the contract shows them.
//! Every read is scoped to the user: another user's connection is "not
//! found", never "forbidden".

pub mod autopay;
pub mod connections;
pub mod matching;
pub mod sync;
pub mod transactions;

use sqlx::SqlitePool;

use super::BankError;
use crate::contract::bank::{BankAccount, BankConnection, ConnectionStatus};

struct ConnectionRow {
    id: i64,
    institution: String,
    status: String,
    last_synced_at: Option<String>,
    last_error: Option<String>,
    created_at: String,
}

struct AccountRow {
    id: i64,
    connection_id: i64,
    name: String,
    currency: String,
    balance_cents: Option<i64>,
    available_cents: Option<i64>,
    balance_date: Option<String>,
    pending_cents: i64,
    monitored: bool,
}

fn account(row: AccountRow) -> BankAccount {
    BankAccount {
        id: row.id,
        connection_id: row.connection_id,
        name: row.name,
        currency: row.currency,
        balance_minor: row.balance_cents,
        available_minor: row.available_cents,
        balance_date: row.balance_date,
        pending_minor: row.pending_cents,
        monitored: row.monitored,
    }
}

fn connection(row: ConnectionRow, accounts: Vec<BankAccount>) -> BankConnection {
    BankConnection {
        id: row.id,
        institution: row.institution,
        status: ConnectionStatus::parse(&row.status),
        last_synced_at: row.last_synced_at,
        last_error: row.last_error,
        created_at: row.created_at,
        accounts,
    }
}

/// A compile-checked read of bank accounts with their pending total:
/// `select_accounts!("WHERE a.id = ?", id)` is `query_as!` into
/// [`AccountRow`] with the rest of the statement appended.
macro_rules! select_accounts {
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            AccountRow,
            r#"SELECT a.id AS "id!", a.connection_id, a.name, a.currency, a.balance_cents,
                 a.available_cents, a.balance_date, a.monitored AS "monitored: bool",
                 COALESCE((SELECT sum(t.amount_cents) FROM transactions t
                           WHERE t.account_id = a.id AND t.user_id = a.user_id AND t.pending = 1), 0)
                     AS "pending_cents!: i64"
             FROM bank_accounts a "# + $rest
            $(, $arg)*
        )
    };
}

/// The user's connections, oldest first, each with its accounts.
pub async fn connections(
    pool: &SqlitePool,
    user_id: i64,
) -> Result<Vec<BankConnection>, BankError> {
    let rows: Vec<ConnectionRow> = sqlx::query_as!(
        ConnectionRow,
        r#"SELECT id AS "id!", institution, status, last_synced_at, last_error, created_at
         FROM bank_connections WHERE user_id = ? ORDER BY id"#,
        user_id,
    )
    .fetch_all(pool)
    .await?;
    let accounts: Vec<AccountRow> = select_accounts!("WHERE a.user_id = ? ORDER BY a.id", user_id,)
        .fetch_all(pool)
        .await?;
    let mut accounts: Vec<BankAccount> = accounts.into_iter().map(account).collect();
    Ok(rows
        .into_iter()
        .map(|row| {
            let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut accounts)
                .into_iter()
                .partition(|account| account.connection_id == row.id);
            accounts = rest;
            connection(row, mine)
        })
        .collect())
}

/// One of the user's connections with its accounts.
pub async fn connection_of(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
) -> Result<BankConnection, BankError> {
    let row: ConnectionRow = sqlx::query_as!(
        ConnectionRow,
        r#"SELECT id AS "id!", institution, status, last_synced_at, last_error, created_at
         FROM bank_connections WHERE id = ? AND user_id = ?"#,
        id,
        user_id,
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| BankError::NotFound(format!("no bank connection {id}")))?;
    let accounts: Vec<AccountRow> = select_accounts!(
        "WHERE a.connection_id = ? AND a.user_id = ? ORDER BY a.id",
        id,
        user_id,
    )
    .fetch_all(pool)
    .await?;
    Ok(connection(row, accounts.into_iter().map(account).collect()))
}

/// Switches one of the user's accounts in or out of syncing and matching.
pub async fn set_monitored(
    pool: &SqlitePool,
    user_id: i64,
    account_id: i64,
    monitored: bool,
) -> Result<BankAccount, BankError> {
    let done = sqlx::query!(
        "UPDATE bank_accounts SET monitored = ? WHERE id = ? AND user_id = ?",
        monitored,
        account_id,
        user_id,
    )
    .execute(pool)
    .await?;
    if done.rows_affected() == 0 {
        return Err(BankError::NotFound(format!("no bank account {account_id}")));
    }
    let row: AccountRow = select_accounts!("WHERE a.id = ?", account_id,)
        .fetch_one(pool)
        .await?;
    Ok(account(row))
}
