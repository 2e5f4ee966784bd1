//! Why a notifications request failed. Mapped to HTTP once, in
//! `backend::api_error`.

use crate::backend::secrets::KeyringError;

#[derive(Debug, thiserror::Error)]
pub enum NotifyError {
    /// A field of the request is wrong; `field` names it on the wire.
    #[error("{field}: {description}")]
    Invalid {
        field: &'static str,
        description: String,
    },
    #[error("{0}")]
    NotFound(String),
    #[error("you have {0} channels, the most one account may have; remove one first")]
    TooManyChannels(i64),
    /// "Send test" to a channel whose address has not opened its
    /// confirmation link yet.
    #[error(
        "this channel's address is not confirmed yet: open the link sent to it, then send a test"
    )]
    Unconfirmed,
    /// Too many test sends; try again after `retry_after`.
    #[error("too many test messages; try again in {} seconds", .retry_after.as_secs().max(1))]
    TooManyTests { retry_after: std::time::Duration },
    #[error("the stored secret could not be opened or sealed: {0}")]
    Secret(#[from] KeyringError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// The notifications engine could not start the run.
    #[error("{0}")]
    Operations(String),
}

impl NotifyError {
    pub fn invalid(field: &'static str, description: impl Into<String>) -> Self {
        Self::Invalid {
            field,
            description: description.into(),
        }
    }
}

impl From<crate::domain::notification::SettingProblem> for NotifyError {
    fn from(problem: crate::domain::notification::SettingProblem) -> Self {
        Self::Invalid {
            field: problem.field,
            description: problem.description,
        }
    }
}
