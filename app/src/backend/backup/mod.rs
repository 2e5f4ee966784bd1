//! Backups: an online, consistent copy of the live database (`VACUUM INTO`)
//! written under a temporary name in `DATA_DIR/backups`, checked, and only
//! then moved into place. Retention keeps the newest `BACKUP_KEEP`.

mod create;
mod jobs;
mod known_schema;
mod listing;
mod live_restore;
mod restore;
mod settings;
mod start_restore;
mod verify;

pub use create::{create, create_observed, list, BackupInfo, Copied};
pub use jobs::Backups;
pub use known_schema::{known_schema, KnownSchema, SchemaObject};
pub use listing::{files, open};
pub use live_restore::{restore_live, LiveRestoreError, LiveRestored};
pub use restore::{restore, RestoreReport};
pub use settings::BackupSettings;
pub use start_restore::{start_restore, StartRestoreError};
pub use verify::{verify, Verified};

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("backup directory {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("copying the database failed: {0}")]
    Copy(#[source] sqlx::Error),
    #[error("the copy failed its check, so no backup was kept: {0}")]
    CheckFailed(String),
    /// Not Tally's schema at a version this build knows (`known_schema`).
    #[error("{0}")]
    UnknownSchema(String),
    #[error("the backup was cancelled; nothing was kept")]
    Cancelled,
    #[error("there is no backup named {0:?}")]
    NotFound(String),
    #[error("{0:?} is not a backup name (expected bills-<timestamp>.db)")]
    BadName(String),
    #[error(transparent)]
    Lock(#[from] crate::backend::data_dir_lock::LockError),
}

/// Backup file names: `bills-<UTC timestamp>.db`, so names sort by age.
const PREFIX: &str = "bills-";
const SUFFIX: &str = ".db";

pub fn is_backup_name(name: &str) -> bool {
    name.starts_with(PREFIX)
        && name.ends_with(SUFFIX)
        && name.len() > PREFIX.len() + SUFFIX.len()
        && !name.contains('/')
        && !name.contains("..")
}
