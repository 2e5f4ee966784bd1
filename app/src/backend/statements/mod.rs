//! Statement files as bank transactions (issue 32): OFX 1 and 2, QFX, QIF
//! and CAMT.053, uploaded, previewed (new, already there, refused, the
//! balance check) and committed, each step a long-running operation.
//!
//! - `parse`: the formats, pure and bounded.
//! - `rules`: each row's stable id (the file's transaction id, else bank
//!   sync's fingerprint) and the preview's summary, pure.
//! - `store`: every SQL statement; `service`: upload, read, commit;
//!   `jobs`: the preview and the commit, with progress.

mod error;
pub mod jobs;
pub mod parse;
pub mod rules;
pub mod service;
mod store;

pub use error::ImportError;
/// What waits and runs of a person's, for `upload_quota`.
pub use store::{imports_running, waiting as waiting_uploads};

/// How long a preview waits for its commit.
pub const PREVIEW_HOURS: i64 = 24;
/// The provider name of the bank connection that holds imported accounts.
pub const FILE_PROVIDER: &str = "file";
