//! SQL of sessions and of the pending sign-ins between a password and a
//! second factor. Both are found by the SHA-256 of the token the browser
//! holds, never by the token.

use sqlx::SqlitePool;

use super::users::UserRow;

/// A session ending `lifetime` (like `+30 days`) from now.
pub async fn insert(
    pool: &SqlitePool,
    session_id: &str,
    user_id: i64,
    lifetime: &str,
    user_agent: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO sessions (id, user_id, expires_at, user_agent)
         VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?), ?)",
        session_id,
        user_id,
        lifetime,
        user_agent,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The account of a session that has neither expired nor been idle past
/// `idle` (like `-7 days`), unless the account is disabled.
pub async fn live_user(
    pool: &SqlitePool,
    session_id: &str,
    idle: &str,
) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as!(
        UserRow,
        r#"SELECT u.id AS "id!", u.email, u.name, u.role
         FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.id = ?1
           AND s.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
           AND s.last_seen_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?2)
           AND u.disabled_at IS NULL"#,
        session_id,
        idle,
    )
    .fetch_optional(pool)
    .await
}

/// The session was seen now (written at most once a minute).
pub async fn touch(pool: &SqlitePool, session_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE sessions SET last_seen_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND last_seen_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 minute')",
        session_id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn delete(pool: &SqlitePool, session_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query!("DELETE FROM sessions WHERE id = ?", session_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Deletes every session of the account but `keep`; how many.
pub async fn delete_all(
    pool: &SqlitePool,
    user_id: i64,
    keep: Option<&str>,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query!(
        "DELETE FROM sessions WHERE user_id = ? AND id IS NOT ?",
        user_id,
        keep,
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// A pending sign-in ending `lifetime` (like `+5 minutes`) from now,
/// answerable with the comma-separated `methods`; expired ones are swept
/// first.
pub async fn insert_pending(
    pool: &SqlitePool,
    challenge_hash: &str,
    user_id: i64,
    lifetime: &str,
    methods: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "DELETE FROM pending_sign_ins WHERE expires_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
    )
    .execute(pool)
    .await?;
    sqlx::query!(
        "INSERT INTO pending_sign_ins (id, user_id, expires_at, methods)
         VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?), ?)",
        challenge_hash,
        user_id,
        lifetime,
        methods,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The account of a live pending sign-in.
pub async fn pending_user(
    pool: &SqlitePool,
    challenge_hash: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT user_id FROM pending_sign_ins WHERE id = ? AND expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        challenge_hash,
    )
    .fetch_optional(pool)
    .await
}

/// The account of a live pending sign-in that offered `method`.
pub async fn pending_user_offered(
    pool: &SqlitePool,
    challenge_hash: &str,
    method: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT user_id FROM pending_sign_ins
         WHERE id = ? AND expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
           AND instr(',' || methods || ',', ',' || ? || ',') > 0",
        challenge_hash,
        method,
    )
    .fetch_optional(pool)
    .await
}

pub async fn delete_pending(pool: &SqlitePool, challenge_hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query!("DELETE FROM pending_sign_ins WHERE id = ?", challenge_hash)
        .execute(pool)
        .await?;
    Ok(())
}
