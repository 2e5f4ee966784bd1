use std::path::{Path, PathBuf};

use sqlx::SqlitePool;

use super::{is_backup_name, verify, BackupError, Verified, PREFIX, SUFFIX};

/// One backup file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupInfo {
    pub name: String,
    pub path: PathBuf,
    pub bytes: u64,
    /// When the file was last written: when the backup was taken.
    pub modified: Option<std::time::SystemTime>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BackupError + '_ {
    move |source| BackupError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Makes the backups directory (mode 700: backups hold everything).
fn ensure_dir(dir: &Path) -> Result<(), BackupError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io(dir))?;
    }
    Ok(())
}

/// How far a copy has come, in database pages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Copied {
    pub pages: i64,
    pub total: i64,
}

/// Takes an online backup of the live database while it keeps serving
/// writes, checks it, moves it into place, and prunes to the newest `keep`.
pub async fn create(
    pool: &SqlitePool,
    dir: &Path,
    keep: usize,
) -> Result<(BackupInfo, Verified), BackupError> {
    let (progress, _) = tokio::sync::watch::channel(Copied::default());
    create_observed(pool, dir, keep, &progress, &|| false).await
}

/// [`create`], publishing the pages copied so far on `progress` (read from
/// the growing copy every 100 ms) and giving up, leaving nothing behind,
/// when `cancelled` says so between steps.
pub async fn create_observed(
    pool: &SqlitePool,
    dir: &Path,
    keep: usize,
    progress: &tokio::sync::watch::Sender<Copied>,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Result<(BackupInfo, Verified), BackupError> {
    ensure_dir(dir)?;
    remove_abandoned(dir);
    let temporary = dir.join(format!("{PARTIAL_PREFIX}{}.db", uuid::Uuid::new_v4()));
    // The copy is locked while this backup works on it, so another backup
    // (here or in a `tally backup create` beside the server) can tell it
    // from one a crash or a restart left behind. VACUUM INTO accepts an
    // empty file.
    let holder = std::fs::File::create_new(&temporary).map_err(io(&temporary))?;
    holder.lock().map_err(io(&temporary))?;
    let live_tables: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .fetch_one(pool)
    .await
    .map_err(BackupError::Copy)?;

    let page_size: i64 = sqlx::query_scalar("PRAGMA page_size")
        .fetch_one(pool)
        .await
        .map_err(BackupError::Copy)?;
    let total: i64 = sqlx::query_scalar("PRAGMA page_count")
        .fetch_one(pool)
        .await
        .map_err(BackupError::Copy)?;
    progress.send_replace(Copied { pages: 0, total });

    let result: Result<_, BackupError> = async {
        let target = temporary.to_string_lossy().into_owned();
        let copy = sqlx::query("VACUUM INTO ?").bind(target).execute(pool);
        tokio::pin!(copy);
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(100));
        loop {
            tokio::select! {
                copied = &mut copy => {
                    copied.map_err(BackupError::Copy)?;
                    break;
                }
                _ = tick.tick() => {
                    let bytes = std::fs::metadata(&temporary).map_or(0, |m| m.len());
                    let pages = i64::try_from(bytes).unwrap_or(i64::MAX) / page_size.max(1);
                    progress.send_replace(Copied { pages: pages.min(total), total });
                }
            }
        }
        progress.send_replace(Copied {
            pages: total,
            total,
        });
        if cancelled() {
            return Err(BackupError::Cancelled);
        }
        let verified = verify(&temporary, live_tables).await?;
        if cancelled() {
            return Err(BackupError::Cancelled);
        }
        sync_file(&temporary)?;
        let name = unused_name(dir);
        let path = dir.join(&name);
        std::fs::rename(&temporary, &path).map_err(io(&path))?;
        sync_dir(dir)?;
        let metadata = std::fs::metadata(&path).map_err(io(&path))?;
        Ok((
            BackupInfo {
                name,
                path,
                bytes: metadata.len(),
                modified: metadata.modified().ok(),
            },
            verified,
        ))
    }
    .await;
    if result.is_err() {
        // A failed backup leaves nothing behind.
        let _ = std::fs::remove_file(&temporary);
    }
    drop(holder);
    let (info, verified) = result?;
    prune(dir, keep)?;
    tracing::info!(backup = %info.name, bytes = info.bytes, tables = verified.tables, rows = verified.rows, "backup created");
    Ok((info, verified))
}

const PARTIAL_PREFIX: &str = ".partial-";

/// Removes copies that a backup stopped by a crash or a restart left
/// behind: each copy in progress is locked by its backup, so only copies
/// nobody holds go.
fn remove_abandoned(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with(PARTIAL_PREFIX) && name.ends_with(".db")) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = std::fs::File::options().write(true).open(&path) else {
            continue;
        };
        if file.try_lock().is_ok() && std::fs::remove_file(&path).is_ok() {
            tracing::info!(file = %name, "removed a copy an interrupted backup left behind");
        }
    }
}

fn unused_name(dir: &Path) -> String {
    let stamp = jiff::Timestamp::now()
        .strftime("%Y%m%dT%H%M%S%.3fZ")
        .to_string();
    let mut name = format!("{PREFIX}{stamp}{SUFFIX}");
    let mut n = 2;
    while dir.join(&name).exists() {
        name = format!("{PREFIX}{stamp}-{n}{SUFFIX}");
        n += 1;
    }
    name
}

/// Backups, newest first.
pub fn list(dir: &Path) -> Result<Vec<BackupInfo>, BackupError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(io(dir)(error)),
    };
    let mut backups = Vec::new();
    for entry in entries {
        let entry = entry.map_err(io(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_backup_name(&name) {
            let metadata = entry.metadata().map_err(io(dir))?;
            backups.push(BackupInfo {
                path: entry.path(),
                name,
                bytes: metadata.len(),
                modified: metadata.modified().ok(),
            });
        }
    }
    backups.sort_by(|a, b| b.name.cmp(&a.name));
    Ok(backups)
}

fn prune(dir: &Path, keep: usize) -> Result<(), BackupError> {
    for old in list(dir)?.into_iter().skip(keep.max(1)) {
        std::fs::remove_file(&old.path).map_err(io(&old.path))?;
        tracing::info!(backup = %old.name, "old backup removed (retention)");
    }
    Ok(())
}

fn sync_file(path: &Path) -> Result<(), BackupError> {
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(io(path))
}

pub(super) fn sync_dir(dir: &Path) -> Result<(), BackupError> {
    #[cfg(unix)]
    std::fs::File::open(dir)
        .and_then(|f| f.sync_all())
        .map_err(io(dir))?;
    Ok(())
}
