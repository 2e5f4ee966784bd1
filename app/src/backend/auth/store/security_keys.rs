//! SQL of security keys: the registered keys (`webauthn_credentials`, each
//! key's public part and counter as `webauthn-rs` stores it), the account's
//! WebAuthn handle and "has a key" flag, and the state each ceremony keeps
//! between its two requests (`webauthn_challenges`, expiring, used once).

use sqlx::SqlitePool;

pub use crate::contract::security_keys::KeyInfo;

/// Why a key could not be added.
#[derive(Debug, thiserror::Error)]
pub enum InsertError {
    #[error("this key is already registered")]
    AlreadyRegistered,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Adds a key and marks the account as having one, in one transaction.
pub async fn insert(
    pool: &SqlitePool,
    user_id: i64,
    credential_id: &str,
    name: &str,
    stored: &str,
) -> Result<KeyInfo, InsertError> {
    let mut tx = crate::backend::db::write(pool).await?;
    let info: KeyInfo = sqlx::query_as!(
        KeyInfo,
        r#"INSERT INTO webauthn_credentials (user_id, credential_id, name, passkey)
             VALUES (?, ?, ?, ?) RETURNING id AS "id!", name, created_at, last_used_at"#,
        user_id,
        credential_id,
        name,
        stored,
    )
    .fetch_one(&mut *tx)
    .await
    .map_err(|error| match &error {
        sqlx::Error::Database(db) if db.is_unique_violation() => InsertError::AlreadyRegistered,
        _ => InsertError::Database(error),
    })?;
    sqlx::query!(
        "UPDATE users SET webauthn_enabled = 1 WHERE id = ?",
        user_id,
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(info)
}

/// Keeps a key's new state (its counter) after it signed in.
pub async fn update_used(pool: &SqlitePool, id: i64, stored: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE webauthn_credentials
                 SET passkey = ?, last_used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                 WHERE id = ?",
        stored,
        id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn is_enabled(pool: &SqlitePool, user_id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT webauthn_enabled = 1 AS "on!: bool" FROM users WHERE id = ?"#,
        user_id,
    )
    .fetch_one(pool)
    .await
}

pub async fn list(pool: &SqlitePool, user_id: i64) -> Result<Vec<KeyInfo>, sqlx::Error> {
    sqlx::query_as!(
        KeyInfo,
        r#"SELECT id AS "id!", name, created_at, last_used_at FROM webauthn_credentials
         WHERE user_id = ? ORDER BY id"#,
        user_id,
    )
    .fetch_all(pool)
    .await
}

/// Removes one of the user's keys and sets the "has a key" flag from what
/// is left, in one transaction. False when the user has no such key.
pub async fn delete(pool: &SqlitePool, user_id: i64, id: i64) -> Result<bool, sqlx::Error> {
    let mut tx = crate::backend::db::write(pool).await?;
    let done = sqlx::query!(
        "DELETE FROM webauthn_credentials WHERE id = ? AND user_id = ?",
        id,
        user_id,
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "UPDATE users SET webauthn_enabled =
            EXISTS (SELECT 1 FROM webauthn_credentials WHERE user_id = ?1)
         WHERE id = ?1",
        user_id,
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected() > 0)
}

pub async fn owns(pool: &SqlitePool, user_id: i64, id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM webauthn_credentials WHERE id = ? AND user_id = ?)
             AS "owns!: bool""#,
        id,
        user_id,
    )
    .fetch_one(pool)
    .await
}

/// The account's WebAuthn handle, if one was made.
pub async fn handle(pool: &SqlitePool, user_id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!("SELECT webauthn_user_id FROM users WHERE id = ?", user_id)
        .fetch_one(pool)
        .await
}

pub async fn set_handle(pool: &SqlitePool, user_id: i64, handle: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE users SET webauthn_user_id = ? WHERE id = ?",
        handle,
        user_id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The user's keys as stored: (row id, the key's JSON).
pub async fn keys(pool: &SqlitePool, user_id: i64) -> Result<Vec<(i64, String)>, sqlx::Error> {
    let rows = sqlx::query!(
        r#"SELECT id AS "id!", passkey FROM webauthn_credentials WHERE user_id = ?"#,
        user_id,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|row| (row.id, row.passkey)).collect())
}

/// Keeps a ceremony's state for `lifetime` (like `+5 minutes`), replacing
/// one of the same id; expired states are swept first.
pub async fn put_state(
    pool: &SqlitePool,
    id: &str,
    user_id: i64,
    purpose: &str,
    state: &str,
    lifetime: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "DELETE FROM webauthn_challenges WHERE expires_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
    )
    .execute(pool)
    .await?;
    sqlx::query!(
        "INSERT OR REPLACE INTO webauthn_challenges (id, user_id, purpose, state, expires_at)
         VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?))",
        id,
        user_id,
        purpose,
        state,
        lifetime,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Takes (and deletes) a live state: each ceremony is answered once.
pub async fn take_state(
    pool: &SqlitePool,
    id: &str,
    user_id: i64,
    purpose: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "DELETE FROM webauthn_challenges
         WHERE id = ? AND user_id = ? AND purpose = ?
           AND expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         RETURNING state",
        id,
        user_id,
        purpose,
    )
    .fetch_optional(pool)
    .await
}
