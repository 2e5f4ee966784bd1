//! SQL of invitations. A link's token is never stored: the statements take
//! its SHA-256.

use sqlx::SqlitePool;

use crate::contract::admin::Invitation;
use crate::domain::role::Role;

/// A new invitation, working until `lifetime` (like `+7 days`) from now.
pub async fn insert(
    pool: &SqlitePool,
    token_hash: &str,
    email: Option<&str>,
    role: Role,
    created_by: Option<i64>,
    lifetime: &str,
) -> Result<Invitation, sqlx::Error> {
    let role_name = role.as_str();
    sqlx::query_as!(
        Invitation,
        r#"INSERT INTO invitations (token_hash, email, role, created_by, expires_at)
         VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?))
         RETURNING id AS "id!", email, role AS "role: Role", created_at, expires_at"#,
        token_hash,
        email,
        role_name,
        created_by,
        lifetime,
    )
    .fetch_one(pool)
    .await
}

/// Removes the unused setup links (those no administrator made).
pub async fn delete_setup_links(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    sqlx::query!("DELETE FROM invitations WHERE created_by IS NULL AND used_at IS NULL")
        .execute(pool)
        .await?;
    Ok(())
}

/// Invitations not yet used and not expired, newest first.
pub async fn pending(pool: &SqlitePool) -> Result<Vec<Invitation>, sqlx::Error> {
    sqlx::query_as!(
        Invitation,
        r#"SELECT id AS "id!", email, role AS "role: Role", created_at, expires_at
         FROM invitations
         WHERE used_at IS NULL AND expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         ORDER BY id DESC"#,
    )
    .fetch_all(pool)
    .await
}

/// Deletes an unused invitation; false when there was none.
pub async fn revoke(pool: &SqlitePool, id: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "DELETE FROM invitations WHERE id = ? AND used_at IS NULL",
        id,
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The invitation with this token hash, when it can still be used.
pub async fn usable(
    pool: &SqlitePool,
    token_hash: &str,
) -> Result<Option<Invitation>, sqlx::Error> {
    sqlx::query_as!(
        Invitation,
        r#"SELECT id AS "id!", email, role AS "role: Role", created_at, expires_at
         FROM invitations
         WHERE token_hash = ? AND used_at IS NULL
           AND expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"#,
        token_hash,
    )
    .fetch_optional(pool)
    .await
}

/// Marks the usable invitation with this token hash used, in one
/// statement (two people cannot both use it); none when there is none.
pub async fn claim(pool: &SqlitePool, token_hash: &str) -> Result<Option<Invitation>, sqlx::Error> {
    sqlx::query_as!(
        Invitation,
        r#"UPDATE invitations SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE token_hash = ? AND used_at IS NULL
           AND expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         RETURNING id AS "id!", email, role AS "role: Role", created_at, expires_at"#,
        token_hash,
    )
    .fetch_optional(pool)
    .await
}

/// The account the invitation made.
pub async fn set_used_by(pool: &SqlitePool, id: i64, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE invitations SET used_by = ? WHERE id = ?",
        user_id,
        id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The invitation can be used again.
pub async fn release(pool: &SqlitePool, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query!("UPDATE invitations SET used_at = NULL WHERE id = ?", id)
        .execute(pool)
        .await?;
    Ok(())
}
