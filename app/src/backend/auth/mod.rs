//! Accounts: users, password hashing, hashed sessions, personal API tokens
//! and sign-in throttling, and who is asking (`current`, `extractors`). The
//! rest of the HTTP side (the CSRF check, the routes) is in the server
//! crate.

pub mod account;
pub mod admin;
pub mod api_tokens;
pub mod current;
pub mod device;
pub mod entrance;
pub mod extractors;
pub mod geolocation;
pub mod invitations;
pub mod login_history;
pub mod password;
pub mod password_check;
pub mod pending_sign_in;
pub mod security_keys;
pub mod sessions;
pub mod settings;
pub mod sign_in;
mod store;
pub mod throttle;
pub mod token;
pub mod totp;
pub mod users;

use std::net::IpAddr;
use std::sync::Arc;

use sqlx::SqlitePool;

/// What signing in, registering and the account and Admin use cases work
/// with, assembled once at start-up: the database, the key that seals
/// second factors and device tokens, the sign-in throttle, the sign-in
/// history, the WebAuthn relying party, single sign-on (whether email and
/// password still sign in, signing out at the provider) and the public
/// address (for invitation links).
pub struct Auth {
    pub pool: SqlitePool,
    pub keyring: Arc<crate::backend::secrets::Keyring>,
    pub sign_in_throttle: Arc<throttle::SignInThrottle>,
    pub login_history: login_history::LoginHistory,
    pub security_keys: security_keys::SecurityKeys,
    pub sso: Arc<crate::backend::sso::Sso>,
    pub public_base_url: String,
}

impl Auth {
    /// Checks the signed-in user's current password before a sensitive
    /// change (throttled like a sign-in).
    pub async fn confirm_password(
        &self,
        ip: IpAddr,
        user: &users::User,
        current_password: String,
    ) -> Result<(), password_check::PasswordCheckError> {
        password_check::confirm(
            &self.pool,
            &self.sign_in_throttle,
            ip,
            user,
            current_password,
        )
        .await
    }

    /// The one-time registration link of an invitation.
    pub fn invitation_link(&self, token: &str) -> String {
        invitations::link(&self.public_base_url, token)
    }
}

/// Why an account operation failed.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error("password hashing failed: {0}")]
    Hashing(String),
    /// One field of the request at fault (named as the API names it).
    #[error("{}: {}", .0.field, .0.description)]
    Field(crate::domain::validation::FieldViolation),
    #[error("sealing a secret failed: {0}")]
    Sealing(String),
    /// Nothing of the person's there; the message says what was looked for.
    #[error("{0}")]
    NotFound(String),
    /// Not for this caller (not an administrator, local sign-in off, …).
    #[error("{0}")]
    Forbidden(String),
    #[error("email or password is wrong")]
    WrongCredentials,
    /// A bearer token of Tally's that no longer opens anything, and why.
    #[error("{0}")]
    TokenRefused(&'static str),
    /// Too many attempts; try again after `retry_after`.
    #[error("{message}")]
    TooMany {
        message: String,
        retry_after: std::time::Duration,
    },
    #[error(transparent)]
    Sso(Box<crate::backend::sso::SsoError>),
}

impl From<crate::backend::sso::SsoError> for AuthError {
    fn from(error: crate::backend::sso::SsoError) -> Self {
        Self::Sso(Box::new(error))
    }
}

impl AuthError {
    /// `field` (as the API names it) at fault, and what to do about it.
    pub fn field(field: &str, description: impl std::fmt::Display) -> Self {
        Self::Field(crate::domain::validation::FieldViolation::new(
            field,
            description,
        ))
    }

    /// An email longer than any account's (refused before it is counted).
    pub fn email_too_long() -> Self {
        Self::field(
            "email",
            format!("use at most {} characters", throttle::MAX_EMAIL_CHARS),
        )
    }

    /// A sign-in throttle's refusal: a too-long email is the request's
    /// mistake; otherwise `message` and how long to wait.
    pub fn throttled(refusal: throttle::Refusal, message: &str) -> Self {
        match refusal {
            throttle::Refusal::EmailTooLong => Self::email_too_long(),
            throttle::Refusal::Wait(wait) => Self::TooMany {
                message: message.into(),
                retry_after: wait,
            },
        }
    }
}
