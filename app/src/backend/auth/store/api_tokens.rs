//! SQL of personal API tokens. A token is never stored: the statements
//! take its SHA-256.

use sqlx::SqlitePool;

/// A token as stored: its scopes as written (`read,write`).
pub struct InfoRow {
    pub id: i64,
    pub name: String,
    pub scopes: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
    pub expires_at: String,
    pub expired: bool,
}

/// A new token of the account, working until `lifetime` (like `+90 days`)
/// from now.
pub async fn insert(
    pool: &SqlitePool,
    user_id: i64,
    name: &str,
    token_hash: &str,
    lifetime: &str,
    scopes: &str,
) -> Result<InfoRow, sqlx::Error> {
    sqlx::query_as!(
        InfoRow,
        r#"INSERT INTO api_tokens (user_id, name, token_hash, expires_at, scopes)
         VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?), ?)
         RETURNING id AS "id!", name, scopes, created_at, last_used_at, expires_at,
             expires_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS "expired!: bool""#,
        user_id,
        name,
        token_hash,
        lifetime,
        scopes,
    )
    .fetch_one(pool)
    .await
}

/// The account's tokens not revoked (expired ones too), newest first.
pub async fn of_user(pool: &SqlitePool, user_id: i64) -> Result<Vec<InfoRow>, sqlx::Error> {
    sqlx::query_as!(
        InfoRow,
        r#"SELECT id AS "id!", name, scopes, created_at, last_used_at, expires_at,
             expires_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS "expired!: bool"
         FROM api_tokens
         WHERE user_id = ? AND revoked_at IS NULL ORDER BY id DESC"#,
        user_id,
    )
    .fetch_all(pool)
    .await
}

/// Revokes one of the account's tokens; how many (0 or 1).
pub async fn revoke(pool: &SqlitePool, user_id: i64, id: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query!(
        "UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
        id,
        user_id,
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// Revokes every token of the account; how many.
pub async fn revoke_all(pool: &SqlitePool, user_id: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query!(
        "UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE user_id = ? AND revoked_at IS NULL",
        user_id,
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// Why a stored token is no longer live: whether it was revoked, and
/// whether it expired. `None` for a token never made here.
pub async fn why_not_live(
    pool: &SqlitePool,
    token_hash: &str,
) -> Result<Option<(bool, bool)>, sqlx::Error> {
    Ok(sqlx::query!(
        r#"SELECT revoked_at IS NOT NULL AS "revoked!: bool",
             expires_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS "expired!: bool"
         FROM api_tokens WHERE token_hash = ?"#,
        token_hash,
    )
    .fetch_optional(pool)
    .await?
    .map(|row| (row.revoked, row.expired)))
}

/// Records the use of a live token (not revoked, not expired, its owner
/// not disabled): its owner and its scopes as written.
pub async fn use_live(
    pool: &SqlitePool,
    token_hash: &str,
) -> Result<Option<(i64, String)>, sqlx::Error> {
    Ok(sqlx::query!(
        "UPDATE api_tokens SET last_used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE token_hash = ? AND revoked_at IS NULL
           AND expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
           AND user_id IN (SELECT id FROM users WHERE disabled_at IS NULL)
         RETURNING user_id, scopes",
        token_hash,
    )
    .fetch_optional(pool)
    .await?
    .map(|row| (row.user_id, row.scopes)))
}
