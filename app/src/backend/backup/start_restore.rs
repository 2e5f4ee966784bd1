//! Starting a restore from Admin or `POST /v1/admin:restore`: an
//! administrator at a browser who typed their password again
//! ([`ConfirmedAdmin`]); the backup must exist and be confirmed by typing
//! its name.

use std::sync::Arc;

use super::{is_backup_name, Backups};
use crate::backend::auth::admin::ConfirmedAdmin;
use crate::backend::operations::{Engine, OperationsError, Record};

/// Why a restore did not start; `backend::api_error` maps each to HTTP once.
#[derive(Debug, thiserror::Error)]
pub enum StartRestoreError {
    /// `backupFile` is not a backup name.
    #[error("{0:?} is not a backup name (bills-<timestamp>.db)")]
    BadName(String),
    #[error("there is no backup named {0:?}")]
    NotFound(String),
    /// `confirm` is not the backup's name.
    #[error("type the backup's name, {0}, to restore it")]
    NotConfirmed(String),
    #[error(transparent)]
    Operations(#[from] OperationsError),
}

pub async fn start_restore(
    operations: &Arc<Engine>,
    backups: &Backups,
    admin: &ConfirmedAdmin,
    backup_file: &str,
    confirm: &str,
) -> Result<Record, StartRestoreError> {
    if !is_backup_name(backup_file) {
        return Err(StartRestoreError::BadName(backup_file.to_owned()));
    }
    if !backups.has(backup_file) {
        return Err(StartRestoreError::NotFound(backup_file.to_owned()));
    }
    if confirm.trim() != backup_file {
        return Err(StartRestoreError::NotConfirmed(backup_file.to_owned()));
    }
    Ok(operations
        .start(
            Some(admin.user().id),
            backups.restore(backup_file.to_owned()),
        )
        .await?)
}
