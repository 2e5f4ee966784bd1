//! The backups as Admin and `GET /api/admin/backups` list them.

use std::path::Path;

use super::{list, BackupError};
use crate::contract::admin::{BackupFile, BackupFiles};

/// Newest first, with sizes and when each was written.
pub fn files(dir: &Path) -> Result<BackupFiles, BackupError> {
    let backups = list(dir)?
        .into_iter()
        .map(|info| BackupFile {
            taken_at: info
                .modified
                .and_then(|at| jiff::Timestamp::try_from(at).ok())
                .map(|at| at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()),
            age_seconds: info
                .modified
                .and_then(|at| at.elapsed().ok())
                .map(|age| age.as_secs()),
            name: info.name,
            bytes: info.bytes,
        })
        .collect();
    Ok(BackupFiles { backups })
}
