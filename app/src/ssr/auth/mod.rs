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
    #[error("{0}")]
    Invalid(String),
    #[error("sealing a secret failed: {0}")]
    Sealing(String),
}
