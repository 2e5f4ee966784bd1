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
pub mod throttle;
pub mod token;
pub mod totp;
pub mod users;

/// Why an account operation failed.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error("password hashing failed: {0}")]
    Hashing(String),
    /// A refusal in words, `field: what to do` when a field is at fault.
    #[error("{0}")]
    Invalid(String),
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
    /// Too many attempts; try again after `retry_after`.
    #[error("{message}")]
    TooMany {
        message: String,
        retry_after: std::time::Duration,
    },
    #[error(transparent)]
    Sso(Box<crate::ssr::sso::SsoError>),
}

impl From<crate::ssr::sso::SsoError> for AuthError {
    fn from(error: crate::ssr::sso::SsoError) -> Self {
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

    /// A sign-in throttle's refusal: a too-long email is the request's
    /// mistake; otherwise `message` and how long to wait.
    pub fn throttled(refusal: throttle::Refusal, message: &str) -> Self {
        match refusal {
            throttle::Refusal::EmailTooLong => Self::Invalid(refusal.to_string()),
            throttle::Refusal::Wait(wait) => Self::TooMany {
                message: message.into(),
                retry_after: wait,
            },
        }
    }
}
