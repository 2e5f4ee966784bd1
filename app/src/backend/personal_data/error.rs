//! What can go wrong with a personal export or its import, mapped to HTTP
//! once (`api_error`).

use crate::backend::untrusted_sqlite::UntrustedError;

#[derive(Debug, thiserror::Error)]
pub enum PersonalDataError {
    /// The file is not a Tally export this Tally can take; the message says
    /// why in words.
    #[error("file: {0}")]
    NotAnExport(String),
    #[error("the file is larger than {limit} bytes")]
    TooLarge { limit: usize },
    /// An import of the person's is running already.
    #[error(transparent)]
    Quota(#[from] crate::backend::upload_quota::UploadQuotaError),
    /// A backup was restored, or the account removed, while the file was
    /// being copied: what the import had added went with it.
    #[error("file: it was not imported, because a backup was restored or the account was removed while it was copied; nothing of it was kept")]
    Interrupted,
    /// The scratch directory or a scratch file failed.
    #[error("scratch file: {0}")]
    Scratch(String),
    #[error("{0}")]
    Sealing(String),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<std::io::Error> for PersonalDataError {
    fn from(error: std::io::Error) -> Self {
        Self::Scratch(error.to_string())
    }
}

/// Reading the file through the opener of supplied files: its words are
/// for the person (they name a table, never SQLite's own); a reader
/// thread that stopped is the server's fault.
impl From<UntrustedError> for PersonalDataError {
    fn from(error: UntrustedError) -> Self {
        match error {
            UntrustedError::Stopped(_) => Self::Scratch(error.to_string()),
            other => Self::NotAnExport(format!("it cannot be read ({other})")),
        }
    }
}
