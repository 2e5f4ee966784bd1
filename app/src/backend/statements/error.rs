//! What can go wrong with a statement import, mapped to HTTP once
//! (`api_error`).

use super::parse::ParseError;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A field of the request is not valid; `field` is its API name.
    #[error("{field}: {description}")]
    Invalid {
        field: &'static str,
        description: String,
    },
    #[error("the file is larger than {limit} bytes")]
    TooLarge { limit: usize },
    #[error("{0}")]
    NotFound(String),
    /// The import is not in a state for this (expired, not previewed yet,
    /// committed already); the message says which.
    #[error("{0}")]
    NotNow(String),
    /// The import cannot be discarded as it stands (its preview or commit
    /// is running, or it is committed); the message says which. Unlike
    /// `NotNow` (a step asked too early or too late, 400) this is the
    /// import's state refusing the change: 409.
    #[error("{0}")]
    CannotDiscard(String),
    /// The file cannot be read: where and why.
    #[error("file: {0}")]
    File(#[from] ParseError),
    #[error("{0}")]
    Sealing(String),
    #[error("{0}")]
    Operations(#[from] crate::backend::operations::OperationsError),
    /// As much waiting, or an import running, as one person may have.
    #[error(transparent)]
    Quota(#[from] crate::backend::upload_quota::UploadQuotaError),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}
