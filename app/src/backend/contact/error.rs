//! What the contact forms and their review can refuse, in the feature's own
//! words; `backend::api_error` maps each to HTTP once.

use std::time::Duration;

use crate::domain::validation::FieldViolation;

#[derive(Debug, thiserror::Error)]
pub enum ContactError {
    /// Too many submissions from one client; try again after `retry_after`.
    #[error("too many submissions from your address; try again in {} seconds", .retry_after.as_secs().max(1))]
    TooMany { retry_after: Duration },
    /// Fields of the form at fault, each named (the bot check's answer is
    /// `captchaToken`).
    #[error("{} fields are invalid", .0.len())]
    Invalid(Vec<FieldViolation>),
    /// The bot-check provider could not be asked; nothing was stored.
    #[error("{0}")]
    BotCheckUnavailable(String),
    /// A page size outside 1 to 200.
    #[error("use 1 to 200")]
    PageSize,
    /// No failed CRM post to send again at the address given.
    #[error("no failed CRM post at {0}")]
    NothingToResend(String),
    #[error(transparent)]
    Store(#[from] super::group_commit::StoreError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}
