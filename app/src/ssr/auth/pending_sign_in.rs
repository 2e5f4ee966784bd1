//! The short-lived challenge between a correct password and the second
//! factor (TOTP code, recovery code or security key). The client holds the
//! challenge; `pending_sign_ins.id` keeps only its SHA-256.

use sqlx::SqlitePool;

use super::token::{random_token, sha256_hex};
use super::AuthError;

/// How long the challenge between password and second factor lives.
const PENDING_MINUTES: i64 = 5;

/// After a correct password: a challenge for the second step.
pub async fn begin(pool: &SqlitePool, user_id: i64) -> Result<String, AuthError> {
    let challenge = random_token();
    sqlx::query(
        "DELETE FROM pending_sign_ins WHERE expires_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
    )
    .execute(pool)
    .await?;
    sqlx::query(
        "INSERT INTO pending_sign_ins (id, user_id, expires_at)
         VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?))",
    )
    .bind(sha256_hex(&challenge))
    .bind(user_id)
    .bind(format!("+{PENDING_MINUTES} minutes"))
    .execute(pool)
    .await?;
    Ok(challenge)
}

/// The user a live challenge belongs to.
pub async fn user(pool: &SqlitePool, challenge: &str) -> Result<Option<i64>, AuthError> {
    Ok(sqlx::query_scalar(
        "SELECT user_id FROM pending_sign_ins WHERE id = ? AND expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
    )
    .bind(sha256_hex(challenge))
    .fetch_optional(pool)
    .await?)
}

/// Ends a challenge once its second factor was accepted.
pub async fn spend(pool: &SqlitePool, challenge: &str) -> Result<(), AuthError> {
    sqlx::query("DELETE FROM pending_sign_ins WHERE id = ?")
        .bind(sha256_hex(challenge))
        .execute(pool)
        .await?;
    Ok(())
}
