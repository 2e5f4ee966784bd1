//! SQL of secrets at rest: the one place that reads and rewrites every
//! secret column, and the instance's key check. These statements name
//! their table and column from `SECRET_COLUMNS`, a fixed list of
//! constants, so they are built with `format!` (never from input) and are
//! not compile-checked; `server/tests/integration/secrets.rs` runs them
//! over every column of the schema.

use sqlx::SqliteExecutor;

use super::columns::SecretColumn;

/// How many values the column holds.
pub async fn count<'e>(
    db: impl SqliteExecutor<'e>,
    column: SecretColumn,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT count(*) FROM {} WHERE {} IS NOT NULL",
        column.table, column.column
    )))
    .fetch_one(db)
    .await
}

/// Which values of the column to read: all, or only those not yet sealed
/// with the environment key (`e2:`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Sealed {
    Any,
    NotWithEnvironmentKey,
}

/// The column's values with their row ids.
pub async fn values<'e>(
    db: impl SqliteExecutor<'e>,
    column: SecretColumn,
    which: Sealed,
) -> Result<Vec<(i64, String)>, sqlx::Error> {
    let select = match which {
        Sealed::Any => format!(
            "SELECT rowid, {col} FROM {table} WHERE {col} IS NOT NULL",
            col = column.column,
            table = column.table
        ),
        Sealed::NotWithEnvironmentKey => format!(
            "SELECT rowid, {col} FROM {table} WHERE {col} IS NOT NULL AND {col} NOT LIKE 'e2:%'",
            col = column.column,
            table = column.table
        ),
    };
    sqlx::query_as(sqlx::AssertSqlSafe(select))
        .fetch_all(db)
        .await
}

/// Writes a value sealed again into its row.
pub async fn reseal<'e>(
    db: impl SqliteExecutor<'e>,
    column: SecretColumn,
    rowid: i64,
    sealed: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {} SET {} = ? WHERE rowid = ?",
        column.table, column.column
    )))
    .bind(sealed)
    .bind(rowid)
    .execute(db)
    .await?;
    Ok(())
}

/// One value of the column sealed with the environment key, if any.
pub async fn one_with_environment_key<'e>(
    db: impl SqliteExecutor<'e>,
    column: SecretColumn,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(format!(
        "SELECT {col} FROM {table} WHERE {col} LIKE 'e2:%' LIMIT 1",
        col = column.column,
        table = column.table
    )))
    .fetch_optional(db)
    .await
}

/// The instance's sealed key check, if one was written.
pub async fn key_check<'e>(db: impl SqliteExecutor<'e>) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT value FROM settings WHERE user_id IS NULL AND key = 'token_key_check'"
    )
    .fetch_optional(db)
    .await
}

/// Writes the key check, unless one is there.
pub async fn insert_key_check<'e>(
    db: impl SqliteExecutor<'e>,
    sealed: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO settings (user_id, key, value) VALUES (NULL, 'token_key_check', ?)
         ON CONFLICT DO NOTHING",
        sealed
    )
    .execute(db)
    .await?;
    Ok(())
}
