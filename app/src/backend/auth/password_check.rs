//! Asking for the current password again before a change that weakens or
//! takes over the account (a new password or email, turning a second factor
//! off, removing a security key). Each check counts against the sign-in
//! throttle, like a sign-in, so it cannot be used to guess the password.

use std::net::IpAddr;

use secrecy::SecretString;
use sqlx::SqlitePool;

use super::throttle::{Refusal, SignInThrottle, Standing};
use super::users::{self, User};
use super::AuthError;

#[derive(Debug, thiserror::Error)]
pub enum PasswordCheckError {
    /// Over the throttle's limit (or an email too long to count).
    #[error("too many password attempts; try again later")]
    Throttled(Refusal),
    #[error("currentPassword: this is not your current password")]
    Wrong,
    #[error(transparent)]
    Auth(#[from] AuthError),
}

/// A failed check as the auth feature's error: throttled, or the
/// `currentPassword` field at fault.
impl From<PasswordCheckError> for AuthError {
    fn from(error: PasswordCheckError) -> Self {
        match error {
            PasswordCheckError::Throttled(refusal) => {
                AuthError::throttled(refusal, &error.to_string())
            }
            PasswordCheckError::Wrong => {
                AuthError::field("currentPassword", "this is not your current password")
            }
            PasswordCheckError::Auth(error) => error,
        }
    }
}

/// Whether `current_password` is `user`'s password, asked from `ip`.
pub async fn confirm(
    pool: &SqlitePool,
    throttle: &SignInThrottle,
    ip: IpAddr,
    user: &User,
    current_password: String,
) -> Result<(), PasswordCheckError> {
    throttle
        .attempt(ip, &user.email, Standing::SignedIn)
        .map_err(PasswordCheckError::Throttled)?;
    if users::password_matches(pool, user.id, SecretString::from(current_password)).await? {
        Ok(())
    } else {
        Err(PasswordCheckError::Wrong)
    }
}
