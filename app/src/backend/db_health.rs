//! The health probe's view of the database, cheap enough to answer a probe
//! per request at load.
//!
//! A pooled connection keeps working on a file that was deleted or replaced
//! under it, so a probe must look at the path itself. Opening a fresh
//! connection per probe did that, but capped `/api/health` at a few thousand
//! answers a second. Now each probe compares the file at the path with the
//! one opened at start (device and inode: a single `stat`), which catches a
//! file that vanished or was replaced at once; and a full probe (a pooled
//! read plus a fresh, never-creating open: `db::probe`) runs at most once a
//! second, shared by every request in that second, which catches a file
//! damaged in place within a second.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sqlx::SqlitePool;

use super::db::{self, DbError};

/// How long a full probe's answer stands.
const FULL_PROBE_EVERY: Duration = Duration::from_secs(1);

/// Which file a path names: its device and inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileIdentity {
    device: u64,
    inode: u64,
}

impl FileIdentity {
    fn of(path: &Path) -> std::io::Result<Self> {
        use std::os::unix::fs::MetadataExt;
        let metadata = std::fs::metadata(path)?;
        Ok(Self {
            device: metadata.dev(),
            inode: metadata.ino(),
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum HealthError {
    #[error("the database file {path} is gone: {source}")]
    Gone {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the database file {0} was replaced by another file")]
    Replaced(PathBuf),
    #[error(transparent)]
    Probe(#[from] DbError),
    #[error("the last full probe failed (less than a second ago)")]
    RecentlyFailed,
}

pub struct DbHealth {
    path: PathBuf,
    opened: FileIdentity,
    /// When the last full probe ran and whether it passed.
    last_full: Mutex<Option<(Instant, bool)>>,
    /// One full probe at a time; the others wait and share its answer.
    full_probe: tokio::sync::Mutex<()>,
}

impl DbHealth {
    /// Remembers which file `path` is now; call right after opening it.
    pub fn new(path: &Path) -> std::io::Result<Self> {
        Ok(Self {
            path: path.to_path_buf(),
            opened: FileIdentity::of(path)?,
            last_full: Mutex::new(None),
            full_probe: tokio::sync::Mutex::new(()),
        })
    }

    pub async fn check(&self, pool: &SqlitePool) -> Result<(), HealthError> {
        self.same_file()?;
        if let Some(passed) = self.recent_full_probe() {
            return if passed {
                Ok(())
            } else {
                Err(HealthError::RecentlyFailed)
            };
        }
        let _turn = self.full_probe.lock().await;
        // Another request may have probed while this one waited.
        if let Some(passed) = self.recent_full_probe() {
            return if passed {
                Ok(())
            } else {
                Err(HealthError::RecentlyFailed)
            };
        }
        let outcome = db::probe(pool, &self.path).await;
        if let Ok(mut last) = self.last_full.lock() {
            *last = Some((Instant::now(), outcome.is_ok()));
        }
        Ok(outcome?)
    }

    fn same_file(&self) -> Result<(), HealthError> {
        match FileIdentity::of(&self.path) {
            Ok(now) if now == self.opened => Ok(()),
            Ok(_) => Err(HealthError::Replaced(self.path.clone())),
            Err(source) => Err(HealthError::Gone {
                path: self.path.clone(),
                source,
            }),
        }
    }

    fn recent_full_probe(&self) -> Option<bool> {
        let last = *self.last_full.lock().ok()?;
        last.filter(|(at, _)| at.elapsed() < FULL_PROBE_EVERY)
            .map(|(_, passed)| passed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_vanished_or_replaced_file_fails_at_once_even_after_a_passing_probe() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bills.db");
        let pool = db::connect(&path).await.unwrap();
        let health = DbHealth::new(&path).unwrap();
        health.check(&pool).await.unwrap();

        let aside = dir.path().join("aside.db");
        std::fs::rename(&path, &aside).unwrap();
        assert!(matches!(
            health.check(&pool).await,
            Err(HealthError::Gone { .. })
        ));
        std::fs::copy(&aside, &path).unwrap();
        assert!(matches!(
            health.check(&pool).await,
            Err(HealthError::Replaced(_))
        ));
        std::fs::remove_file(&path).unwrap();
        std::fs::rename(&aside, &path).unwrap();
        health.check(&pool).await.unwrap();
    }

    #[tokio::test]
    async fn a_file_damaged_in_place_fails_once_the_last_full_probe_is_a_second_old() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bills.db");
        let pool = db::connect(&path).await.unwrap();
        sqlx::raw_sql("CREATE TABLE t (x); PRAGMA wal_checkpoint(TRUNCATE);")
            .execute(&pool)
            .await
            .unwrap();
        let health = DbHealth::new(&path).unwrap();
        health.check(&pool).await.unwrap();
        // Same inode, garbage inside.
        std::fs::write(&path, vec![0x55_u8; 8192]).unwrap();
        // Expire the cached answer rather than sleeping.
        *health.last_full.lock().unwrap() =
            Some((Instant::now().checked_sub(FULL_PROBE_EVERY).unwrap(), true));
        assert!(health.check(&pool).await.is_err());
        assert!(matches!(
            health.check(&pool).await,
            Err(HealthError::RecentlyFailed)
        ));
    }
}
