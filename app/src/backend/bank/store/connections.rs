//! SQL for `bank_connections`: the cap on connections, storing a claimed
//! access, and a connection's state.

use sqlx::SqlitePool;

use crate::backend::bank::BankError;
use crate::contract::bank::ConnectionHealth;

/// The most connections (not disconnected) one user may have: each one is
/// a sync the automatic worker makes every interval.
pub const MAX_PER_USER: i64 = 10;

/// How many connections the user has that are not disconnected, and
/// whether `reconnect` (none: a new connection) would add one.
pub async fn room(
    pool: &SqlitePool,
    user_id: i64,
    reconnect: Option<i64>,
) -> Result<(i64, bool), sqlx::Error> {
    let found = sqlx::query!(
        r#"SELECT (SELECT count(*) FROM bank_connections
                 WHERE user_id = ?1 AND status <> 'disconnected') AS "active!: i64",
                coalesce((SELECT status = 'disconnected' FROM bank_connections
                          WHERE id = ?2 AND user_id = ?1), 1) AS "reviving!: bool""#,
        user_id,
        reconnect
    )
    .fetch_one(pool)
    .await?;
    Ok((found.active, found.reviving))
}

/// Stores a new connection, or the new access of a reconnected one, in one
/// statement that checks the cap again (two connects at once cannot both
/// take the last place: SQLite runs one write at a time).
pub async fn store_access(
    pool: &SqlitePool,
    user_id: i64,
    reconnect: Option<i64>,
    provider: &str,
    institution: &str,
    sealed: &str,
) -> Result<i64, BankError> {
    let stored: Option<i64> = match reconnect {
        Some(id) => sqlx::query_scalar!(
            r#"UPDATE bank_connections SET access_secret = ?3, status = 'active', last_error = NULL
             WHERE id = ?1 AND user_id = ?2
               AND (status <> 'disconnected'
                    OR (SELECT count(*) FROM bank_connections
                        WHERE user_id = ?2 AND status <> 'disconnected') < ?4)
             RETURNING id AS "id!""#,
            id,
            user_id,
            sealed,
            MAX_PER_USER,
        )
        .fetch_optional(pool)
        .await?,
        None => {
            sqlx::query_scalar!(
                r#"INSERT INTO bank_connections (user_id, provider, institution, access_secret)
             SELECT ?1, ?2, ?3, ?4
             WHERE (SELECT count(*) FROM bank_connections
                    WHERE user_id = ?1 AND status <> 'disconnected') < ?5
             RETURNING id AS "id!""#,
                user_id,
                provider,
                institution,
                sealed,
                MAX_PER_USER,
            )
            .fetch_optional(pool)
            .await?
        }
    };
    stored.ok_or(BankError::TooManyConnections(MAX_PER_USER))
}
/// Whether the connection is the user's.
pub async fn exists(pool: &SqlitePool, user_id: i64, id: i64) -> Result<bool, sqlx::Error> {
    let found: Option<i64> = sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM bank_connections WHERE id = ? AND user_id = ?"#,
        id,
        user_id,
    )
    .fetch_optional(pool)
    .await?;
    Ok(found.is_some())
}

/// Marks the connection disconnected, its access replaced by `emptied`.
pub async fn disconnect(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
    emptied: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE bank_connections SET status = 'disconnected', access_secret = ?, last_error = NULL
         WHERE id = ? AND user_id = ?",
        emptied,
        id,
        user_id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The user's connections that are not disconnected, by id.
pub async fn syncable(pool: &SqlitePool, user_id: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM bank_connections WHERE user_id = ? AND status <> 'disconnected' ORDER BY id"#,
        user_id,
    )
    .fetch_all(pool)
    .await
}

/// The connection's status, if it is the user's.
pub async fn status(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT status FROM bank_connections WHERE id = ? AND user_id = ?",
        id,
        user_id,
    )
    .fetch_optional(pool)
    .await
}

/// The connections due a sync (not disconnected, not synced within
/// `fresh`, like `-1 hour`), the longest waiting first: `(id, owner,
/// status)`.
pub async fn due_for_sync(
    pool: &SqlitePool,
    fresh: &str,
) -> Result<Vec<(i64, i64, String)>, sqlx::Error> {
    // The clock `last_synced_at` is written on (sync::mark_synced).
    let now = crate::backend::clock::now_sql();
    Ok(sqlx::query!(
        r#"SELECT id AS "id!", user_id, status FROM bank_connections
         WHERE status <> 'disconnected'
           AND (last_synced_at IS NULL
                OR last_synced_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?, ?))
         ORDER BY last_synced_at IS NOT NULL, last_synced_at, id"#,
        now,
        fresh
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| (row.id, row.user_id, row.status))
    .collect())
}

/// Every connection of every user with its last result, for Admin.
pub async fn health(pool: &SqlitePool) -> Result<Vec<ConnectionHealth>, sqlx::Error> {
    sqlx::query_as!(
        ConnectionHealth,
        r#"SELECT c.id AS "id!", u.email AS owner_email, c.institution, c.status, c.last_synced_at,
                c.last_error
         FROM bank_connections c JOIN users u ON u.id = c.user_id ORDER BY c.id"#,
    )
    .fetch_all(pool)
    .await
}
