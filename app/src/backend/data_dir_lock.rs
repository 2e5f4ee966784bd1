//! One process owns a data directory at a time: the server holds an
//! exclusive lock on `DATA_DIR/.tally.lock` for its whole life, and commands
//! that must not run beside it (migrate, restore) take the same lock.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

pub const LOCK_FILE: &str = ".tally.lock";

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("another Tally process is using {0}; stop it first")]
    Held(PathBuf),
    #[error("cannot lock {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Held while alive; the lock is released when dropped or the process ends.
#[derive(Debug)]
pub struct DataDirLock {
    _file: File,
}

impl DataDirLock {
    pub fn acquire(data_dir: &Path) -> Result<Self, LockError> {
        let io = |source| LockError::Io {
            path: data_dir.to_path_buf(),
            source,
        };
        std::fs::create_dir_all(data_dir).map_err(io)?;
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(data_dir.join(LOCK_FILE))
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => Ok(Self { _file: file }),
            Err(TryLockError::WouldBlock) => Err(LockError::Held(data_dir.to_path_buf())),
            Err(TryLockError::Error(source)) => Err(io(source)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_until_the_first_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let first = DataDirLock::acquire(dir.path()).unwrap();
        assert!(matches!(
            DataDirLock::acquire(dir.path()),
            Err(LockError::Held(_))
        ));
        drop(first);
        DataDirLock::acquire(dir.path()).unwrap();
    }
}
