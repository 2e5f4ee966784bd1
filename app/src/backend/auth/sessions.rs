//! Sessions. The cookie carries a random 256-bit token; `sessions.id` holds
//! only its SHA-256 (v0.94), so a copied database row signs nobody in.
//! A session ends 30 days after sign-in, or after 7 idle days.

use sqlx::SqlitePool;

use super::store::sessions as stored;
use super::token::{random_token, sha256_hex};
use super::users::User;
use super::AuthError;

pub const LIFETIME_DAYS: i64 = 30;
pub const IDLE_DAYS: i64 = 7;

/// A session found by its token.
#[derive(Clone, Debug)]
pub struct SessionUser {
    pub user: User,
    /// `sessions.id`: the token's hash.
    pub session_id: String,
}

/// Starts a session for `user_id`; returns the token for the cookie.
pub async fn create(
    pool: &SqlitePool,
    user_id: i64,
    user_agent: Option<&str>,
) -> Result<String, AuthError> {
    let token = random_token();
    let session_id = sha256_hex(&token);
    let lifetime = format!("+{LIFETIME_DAYS} days");
    let user_agent = user_agent.map(|agent| agent.chars().take(300).collect::<String>());
    stored::insert(pool, &session_id, user_id, &lifetime, user_agent.as_deref()).await?;
    Ok(token)
}

/// The live session of `token`, touching its last-seen time (at most once a
/// minute, to spare writes).
pub async fn authenticate(
    pool: &SqlitePool,
    token: &str,
) -> Result<Option<SessionUser>, AuthError> {
    let session_id = sha256_hex(token);
    let idle = format!("-{IDLE_DAYS} days");
    let row = stored::live_user(pool, &session_id, &idle).await?;
    let Some(row) = row else { return Ok(None) };
    stored::touch(pool, &session_id).await?;
    Ok(Some(SessionUser {
        user: row.into(),
        session_id,
    }))
}

/// Ends one session.
pub async fn end(pool: &SqlitePool, session_id: &str) -> Result<(), AuthError> {
    stored::delete(pool, session_id).await?;
    Ok(())
}

/// Ends every session of a user, except `keep` when given.
pub async fn end_all(
    pool: &SqlitePool,
    user_id: i64,
    keep: Option<&str>,
) -> Result<u64, AuthError> {
    Ok(stored::delete_all(pool, user_id, keep).await?)
}
