//! Signing in: throttled per IP and account, the same answer in the same
//! time whether or not the email exists, and a login-history row with the
//! IP and user agent sealed at rest (for a failed attempt, written after the
//! answer).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use secrecy::SecretString;
use sqlx::SqlitePool;

use super::device;
use super::login_history::{LoginHistory, Origin, SignInMethod};
pub use super::pending_sign_in::SecondFactorMethod;
use super::throttle::{Refusal, SignInThrottle, Standing};
use super::users::{self, User};
use super::{password, pending_sign_in, security_keys, sessions, totp, AuthError};
use crate::backend::secrets::Keyring;

pub struct Attempt {
    pub email: String,
    pub password: SecretString,
    pub ip: IpAddr,
    pub user_agent: Option<String>,
    /// The browser's device cookie, if it sent one.
    pub device: Option<String>,
}

/// How the throttle counts a browser that sent `device` for `email`.
fn standing(keyring: &Keyring, device: Option<&str>, email: &str) -> Standing {
    device
        .and_then(|cookie| device::recognised(keyring, cookie, email))
        .map_or(Standing::Stranger, Standing::Device)
}

#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("email or password is wrong")]
    WrongCredentials,
    /// Longer than any account's email; refused before it is counted.
    #[error("{}", Refusal::EmailTooLong)]
    EmailTooLong,
    #[error("that code is not right, or was already used")]
    WrongCode,
    #[error("the security key's answer was not accepted; try again")]
    WrongKey,
    #[error("too many sign-in attempts; try again in {} seconds", .0.as_secs().max(1))]
    Throttled(Duration),
    #[error(transparent)]
    Auth(#[from] AuthError),
}

impl From<Refusal> for SignInError {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::EmailTooLong => Self::EmailTooLong,
            Refusal::Wait(wait) => Self::Throttled(wait),
        }
    }
}

/// What a correct password leads to.
pub enum SignedIn {
    /// Signed in: the session token for the cookie.
    Session { user: User, token: String },
    /// The account has a second factor: the challenge for the next step
    /// and the methods that can answer it.
    SecondFactor {
        challenge: String,
        methods: Vec<SecondFactorMethod>,
    },
}

/// Checks the credentials; on success starts a session, or asks for the
/// second factor when the account has one.
pub async fn sign_in(
    pool: &SqlitePool,
    keyring: &Arc<Keyring>,
    history: &LoginHistory,
    throttle: &SignInThrottle,
    attempt: Attempt,
) -> Result<SignedIn, SignInError> {
    let standing = standing(keyring, attempt.device.as_deref(), &attempt.email);
    throttle.attempt(attempt.ip, &attempt.email, standing)?;
    let found = users::for_sign_in(pool, &attempt.email).await?;
    let (user, hash) = match found {
        Some((user, hash)) => (Some(user), hash),
        None => (None, None),
    };
    let matches = password::verify(attempt.password.clone(), hash).await?;
    let Some(user) = user else {
        return Err(SignInError::WrongCredentials);
    };
    let origin = Origin {
        ip: attempt.ip,
        user_agent: attempt.user_agent.as_deref(),
    };
    if !matches {
        // Answered now, like an unknown email: the row (and its location
        // lookup) must not make this answer slower.
        history.record_after_answer(pool, keyring, user.id, false, origin);
        return Err(SignInError::WrongCredentials);
    }
    history
        .record(pool, keyring, user.id, SignInMethod::Password, true, origin)
        .await?;
    let mut methods = Vec::new();
    if totp::is_enabled(pool, user.id).await? {
        methods.push(SecondFactorMethod::Totp);
    }
    if security_keys::is_enabled(pool, user.id).await? {
        methods.push(SecondFactorMethod::SecurityKey);
    }
    if !methods.is_empty() {
        let challenge = pending_sign_in::begin(pool, user.id, &methods).await?;
        return Ok(SignedIn::SecondFactor { challenge, methods });
    }
    let token = sessions::create(pool, user.id, attempt.user_agent.as_deref()).await?;
    Ok(SignedIn::Session { user, token })
}

/// Who is answering a second step: their address, browser and device
/// cookie.
pub struct Knock<'a> {
    pub ip: IpAddr,
    pub user_agent: Option<&'a str>,
    pub device: Option<&'a str>,
}

/// The second step: a TOTP or recovery code for a pending challenge.
pub async fn second_factor(
    pool: &SqlitePool,
    keyring: &Keyring,
    throttle: &SignInThrottle,
    knock: Knock<'_>,
    challenge: &str,
    code: &str,
) -> Result<SignedIn, SignInError> {
    let user = pending_user(pool, keyring, throttle, &knock, challenge).await?;
    let user_agent = knock.user_agent;
    match totp::finish_sign_in(pool, keyring, challenge, code).await? {
        Some(_) => start_session(pool, user, user_agent).await,
        None => Err(SignInError::WrongCode),
    }
}

/// The second step with a security key's answer, recorded in the sign-in
/// history (`security_key`) whether the key was accepted or refused: a
/// refused answer on a live challenge is an attempt on the account by
/// someone who had its password.
#[allow(clippy::too_many_arguments)]
pub async fn security_key(
    pool: &SqlitePool,
    keyring: &Keyring,
    history: &LoginHistory,
    keys: &security_keys::SecurityKeys,
    throttle: &SignInThrottle,
    knock: Knock<'_>,
    challenge: &str,
    credential: serde_json::Value,
) -> Result<SignedIn, SignInError> {
    let user = pending_user(pool, keyring, throttle, &knock, challenge).await?;
    let user_agent = knock.user_agent;
    let accepted = keys
        .finish_sign_in(pool, challenge, credential)
        .await?
        .is_some();
    let origin = Origin {
        ip: knock.ip,
        user_agent,
    };
    history
        .record(
            pool,
            keyring,
            user.id,
            SignInMethod::SecurityKey,
            accepted,
            origin,
        )
        .await?;
    if accepted {
        start_session(pool, user, user_agent).await
    } else {
        Err(SignInError::WrongKey)
    }
}

/// The user of a live pending sign-in; the attempt counts against the
/// throttle like a password attempt.
async fn pending_user(
    pool: &SqlitePool,
    keyring: &Keyring,
    throttle: &SignInThrottle,
    knock: &Knock<'_>,
    challenge: &str,
) -> Result<User, SignInError> {
    let Some(user_id) = pending_sign_in::user(pool, challenge).await? else {
        return Err(SignInError::WrongCredentials);
    };
    let user = users::by_id(pool, user_id)
        .await?
        .ok_or(SignInError::WrongCredentials)?;
    let standing = standing(keyring, knock.device, &user.email);
    throttle.attempt(knock.ip, &user.email, standing)?;
    Ok(user)
}

async fn start_session(
    pool: &SqlitePool,
    user: User,
    user_agent: Option<&str>,
) -> Result<SignedIn, SignInError> {
    let token = sessions::create(pool, user.id, user_agent).await?;
    Ok(SignedIn::Session { user, token })
}
