//! The backups as Admin and `GET /api/admin/backups` list them, and one
//! opened for download.

use std::path::Path;

use super::{is_backup_name, list, BackupError};
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

/// The backup `name` in `dir`, opened, with its size in bytes: a name
/// that is not a backup's is refused before the disk is asked.
pub async fn open(dir: &Path, name: &str) -> Result<(tokio::fs::File, u64), BackupError> {
    if !is_backup_name(name) {
        return Err(BackupError::BadName(name.to_owned()));
    }
    let path = dir.join(name);
    let io = |source| BackupError::Io {
        path: path.clone(),
        source,
    };
    let file = match tokio::fs::File::open(&path).await {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(BackupError::NotFound(name.to_owned()))
        }
        opened => opened.map_err(io)?,
    };
    let bytes = file.metadata().await.map_err(io)?.len();
    Ok((file, bytes))
}
