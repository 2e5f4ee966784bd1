use std::path::{Path, PathBuf};

use super::create::sync_dir;
use super::{is_backup_name, verify, BackupError, Verified};
use crate::backend::data_dir_lock::DataDirLock;

#[derive(Debug)]
pub struct RestoreReport {
    pub restored: Verified,
    /// Where the database that was replaced now lives (with its WAL files).
    pub replaced_kept_at: Option<PathBuf>,
}

/// Replaces the live database with a backup, offline: the caller holds no
/// pool, and the data directory lock proves no server is running. The backup
/// is checked first (sound, and Tally's own schema at a known version:
/// `known_schema`); the replaced database is moved aside, never deleted.
pub async fn restore(
    data_dir: &Path,
    database: &Path,
    backups: &Path,
    name: &str,
) -> Result<RestoreReport, BackupError> {
    if !is_backup_name(name) {
        return Err(BackupError::BadName(name.to_owned()));
    }
    let source = backups.join(name);
    if !source.is_file() {
        return Err(BackupError::NotFound(name.to_owned()));
    }
    let _lock = DataDirLock::acquire(data_dir)?;
    let restored = verify(&source, 1).await?;
    super::known_schema(&source).await?;
    let db_dir = database.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(db_dir).map_err(|source| BackupError::Io {
        path: db_dir.to_path_buf(),
        source,
    })?;

    let staging = db_dir.join(".restoring.db");
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BackupError::Io { path, source }
    };
    std::fs::copy(&source, &staging).map_err(io(&staging))?;
    std::fs::File::open(&staging)
        .and_then(|f| f.sync_all())
        .map_err(io(&staging))?;

    let replaced_kept_at = if database.exists() {
        let stamp = jiff::Timestamp::now()
            .strftime("%Y%m%dT%H%M%SZ")
            .to_string();
        let aside = db_dir.join(format!("replaced-{stamp}"));
        std::fs::create_dir_all(&aside).map_err(io(&aside))?;
        for suffix in ["", "-wal", "-shm"] {
            let file = PathBuf::from(format!("{}{suffix}", database.display()));
            if file.exists() {
                let name = file.file_name().map(|n| n.to_owned()).unwrap_or_default();
                std::fs::rename(&file, aside.join(name)).map_err(io(&file))?;
            }
        }
        Some(aside)
    } else {
        None
    };
    std::fs::rename(&staging, database).map_err(io(database))?;
    sync_dir(db_dir)?;
    tracing::info!(backup = name, "database restored");
    Ok(RestoreReport {
        restored,
        replaced_kept_at,
    })
}
