//! How much a person may leave waiting on the server between an upload and
//! its import: statements (in the database until previewed and committed),
//! bills files and workbooks (kept in the scratch directory), all counted
//! together. Without a bound one person could fill the disk or the
//! database with previews nobody imports.
//!
//! What the rest of the app uses: [`check`] before keeping an upload,
//! [`one_import_at_a_time`] before starting an import job, [`Turns`] for
//! an import that runs as a request rather than a job (the personal
//! import), and [`UploadQuotaError`], mapped to 429 `RESOURCE_EXHAUSTED`
//! with `Retry-After` once (`api_error`).

pub mod rules;
mod service;
mod turns;

pub use rules::{MAX_WAITING, MAX_WAITING_BYTES};
pub use service::{check, one_import_at_a_time};
pub use turns::{Turn, Turns};

use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum UploadQuotaError {
    /// As many uploads waiting as a person may have.
    #[error(
        "you have {MAX_WAITING} uploads waiting for their import (statements, bills files, workbooks): import them on the Data page, or discard a statement's preview there, or try again in {}, when the oldest expires",
        wait_words(*.retry_after)
    )]
    TooMany { retry_after: Duration },
    /// The waiting uploads and this one together are too large.
    #[error(
        "your waiting uploads would hold more than {} MiB: import them on the Data page, or discard a statement's preview there, or try again in {}, when the oldest expires",
        MAX_WAITING_BYTES / (1024 * 1024),
        wait_words(*.retry_after)
    )]
    TooLarge { retry_after: Duration },
    /// An import of the person's is running already.
    #[error("one of your imports is still running; wait for it to finish (Operations shows it), then try again")]
    Running { retry_after: Duration },
    /// An import of the person's whole data ("Import my data") is running
    /// already; it is a request, not an operation, so Operations does not
    /// show it.
    #[error("your data import is still running; wait for it to finish, then try again")]
    Importing { retry_after: Duration },
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("scratch directory: {0}")]
    Scratch(#[from] std::io::Error),
}

impl UploadQuotaError {
    /// How long to wait, for `Retry-After`; `None` for a server fault.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::TooMany { retry_after }
            | Self::TooLarge { retry_after }
            | Self::Running { retry_after }
            | Self::Importing { retry_after } => Some(*retry_after),
            Self::Database(_) | Self::Scratch(_) => None,
        }
    }
}

/// A wait in words a person reads at a glance: minutes up to two hours,
/// then about so many hours.
fn wait_words(wait: Duration) -> String {
    let minutes = wait.as_secs().div_ceil(60).max(1);
    match minutes {
        1 => "1 minute".to_owned(),
        2..120 => format!("{minutes} minutes"),
        _ => format!("about {} hours", minutes.div_ceil(60)),
    }
}
