//! Starting a restore from Admin or `POST /v1/admin:restore`: an
//! administrator at a browser who typed their password again
//! ([`ConfirmedAdmin`]); the backup must exist and be confirmed by typing
//! its name.

use std::sync::Arc;

use super::is_backup_name;
use crate::ssr::api_error::ApiError;
use crate::ssr::auth::admin::ConfirmedAdmin;
use crate::ssr::operations::{Engine, Job, Record};

pub async fn start_restore(
    operations: &Arc<Engine>,
    backups_dir: &std::path::Path,
    admin: &ConfirmedAdmin,
    backup_file: &str,
    confirm: &str,
) -> Result<Record, ApiError> {
    if !is_backup_name(backup_file) {
        return Err(ApiError::InvalidField {
            field: "backupFile".into(),
            description: format!("{backup_file:?} is not a backup name (bills-<timestamp>.db)"),
        });
    }
    if !backups_dir.join(backup_file).is_file() {
        return Err(ApiError::NotFound(format!(
            "there is no backup named {backup_file:?}"
        )));
    }
    if confirm.trim() != backup_file {
        return Err(ApiError::InvalidField {
            field: "confirm".into(),
            description: format!("type the backup's name, {backup_file}, to restore it"),
        });
    }
    Ok(operations
        .start(
            Some(admin.user().id),
            Job::Restore {
                backup_file: backup_file.to_owned(),
            },
        )
        .await?)
}
