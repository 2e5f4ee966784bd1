//! SQL of the sign-in history. The address, browser and place come in and
//! go out sealed (`secrets`); this file never sees them in the clear.

use sqlx::SqlitePool;

/// One attempt as stored, its sealed columns still sealed.
pub struct SealedAttempt<'a> {
    pub user_id: i64,
    pub at: &'a str,
    pub success: bool,
    pub ip: &'a str,
    pub user_agent: Option<&'a str>,
    pub location: Option<&'a str>,
    /// `password` or `oidc`.
    pub method: &'a str,
}

pub async fn insert(pool: &SqlitePool, attempt: &SealedAttempt<'_>) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO login_history (user_id, at, success, ip, user_agent, location, method)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
        attempt.user_id,
        attempt.at,
        attempt.success,
        attempt.ip,
        attempt.user_agent,
        attempt.location,
        attempt.method,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// A stored attempt as read back, sealed.
pub struct StoredAttempt {
    pub at: String,
    pub success: bool,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub location: Option<String>,
}

/// The account's latest `limit` attempts, newest first.
pub async fn recent(
    pool: &SqlitePool,
    user_id: i64,
    limit: i64,
) -> Result<Vec<StoredAttempt>, sqlx::Error> {
    sqlx::query_as!(
        StoredAttempt,
        r#"SELECT at, success AS "success: bool", ip, user_agent, location FROM login_history
         WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?"#,
        user_id,
        limit,
    )
    .fetch_all(pool)
    .await
}
