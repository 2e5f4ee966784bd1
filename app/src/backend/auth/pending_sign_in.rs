//! The short-lived challenge between a correct password and the second
//! factor (TOTP code, recovery code or security key). The client holds the
//! challenge; `pending_sign_ins.id` keeps only its SHA-256, and `methods`
//! (v1.04) the second factors this sign-in offered: only those can answer
//! it, so a factor that was not on when the password was checked (such as a
//! TOTP secret whose setup was never confirmed) can never stand in for one
//! that was.

use sqlx::SqlitePool;

use super::store::sessions as stored;
use super::token::{random_token, sha256_hex};
use super::AuthError;

/// How long the challenge between password and second factor lives.
const PENDING_MINUTES: i64 = 5;

pub use crate::contract::account::SecondFactorMethod;

/// After a correct password: a challenge for the second step, answerable
/// with one of `methods` (which must not be empty).
pub async fn begin(
    pool: &SqlitePool,
    user_id: i64,
    methods: &[SecondFactorMethod],
) -> Result<String, AuthError> {
    if methods.is_empty() {
        return Err(AuthError::field(
            "methods",
            "a second step needs a second factor to offer",
        ));
    }
    let offered = methods
        .iter()
        .map(|method| method.as_str())
        .collect::<Vec<_>>()
        .join(",");
    let challenge = random_token();
    let challenge_hash = sha256_hex(&challenge);
    let lifetime = format!("+{PENDING_MINUTES} minutes");
    stored::insert_pending(pool, &challenge_hash, user_id, &lifetime, &offered).await?;
    Ok(challenge)
}

/// The user a live challenge belongs to.
pub async fn user(pool: &SqlitePool, challenge: &str) -> Result<Option<i64>, AuthError> {
    let challenge_hash = sha256_hex(challenge);
    Ok(stored::pending_user(pool, &challenge_hash).await?)
}

/// The user of a live challenge that offered `method`; `None` when the
/// challenge is not live or did not offer it.
pub async fn user_offered(
    pool: &SqlitePool,
    challenge: &str,
    method: SecondFactorMethod,
) -> Result<Option<i64>, AuthError> {
    let challenge_hash = sha256_hex(challenge);
    let method = method.as_str();
    Ok(stored::pending_user_offered(pool, &challenge_hash, method).await?)
}

/// Ends a challenge once its second factor was accepted.
pub async fn spend(pool: &SqlitePool, challenge: &str) -> Result<(), AuthError> {
    let challenge_hash = sha256_hex(challenge);
    stored::delete_pending(pool, &challenge_hash).await?;
    Ok(())
}
