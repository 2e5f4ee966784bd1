//! Signing in: throttled per IP and account, the same answer whether or not
//! the email exists, and a login-history row with the IP and user agent
//! sealed at rest.

use std::net::IpAddr;
use std::time::Duration;

use secrecy::SecretString;
use sqlx::SqlitePool;

use super::throttle::SignInThrottle;
use super::users::{self, User};
use super::{password, sessions, AuthError};
use crate::ssr::secrets::{Keyring, SECRET_COLUMNS};

pub struct Attempt {
    pub email: String,
    pub password: SecretString,
    pub ip: IpAddr,
    pub user_agent: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("email or password is wrong")]
    WrongCredentials,
    #[error("too many sign-in attempts; try again in {} seconds", .0.as_secs().max(1))]
    Throttled(Duration),
    #[error(transparent)]
    Auth(#[from] AuthError),
}

/// Checks the credentials; on success starts a session and returns its token.
pub async fn sign_in(
    pool: &SqlitePool,
    keyring: &Keyring,
    throttle: &SignInThrottle,
    attempt: Attempt,
) -> Result<(User, String), SignInError> {
    throttle
        .attempt(attempt.ip, &attempt.email)
        .map_err(SignInError::Throttled)?;
    let found = users::for_sign_in(pool, &attempt.email).await?;
    let (user, hash) = match found {
        Some((user, hash)) => (Some(user), hash),
        None => (None, None),
    };
    let matches = password::verify(attempt.password.clone(), hash).await?;
    let Some(user) = user else {
        return Err(SignInError::WrongCredentials);
    };
    record(pool, keyring, user.id, matches, &attempt).await?;
    if !matches {
        return Err(SignInError::WrongCredentials);
    }
    let token = sessions::create(pool, user.id, attempt.user_agent.as_deref()).await?;
    Ok((user, token))
}

async fn record(
    pool: &SqlitePool,
    keyring: &Keyring,
    user_id: i64,
    success: bool,
    attempt: &Attempt,
) -> Result<(), AuthError> {
    let column = |name: &str| {
        SECRET_COLUMNS
            .iter()
            .find(|c| c.table == "login_history" && c.column == name)
            .copied()
    };
    let seal = |name: &str, value: &str| -> Result<Option<String>, AuthError> {
        match column(name) {
            Some(column) => keyring
                .seal(column, value)
                .map(Some)
                .map_err(|error| AuthError::Invalid(error.to_string())),
            None => Ok(None),
        }
    };
    let ip = seal("ip", &attempt.ip.to_string())?;
    let agent = match &attempt.user_agent {
        Some(agent) => seal("user_agent", agent)?,
        None => None,
    };
    sqlx::query("INSERT INTO login_history (user_id, success, ip, user_agent) VALUES (?, ?, ?, ?)")
        .bind(user_id)
        .bind(success)
        .bind(ip)
        .bind(agent)
        .execute(pool)
        .await?;
    Ok(())
}
