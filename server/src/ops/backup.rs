//! `tally ops backup`: a verified copy of the live database on the
//! operator's machine. The server takes an online backup (the backup
//! operation, followed to its end); it is downloaded into `DIR` (made with
//! mode 700) under a temporary name, checked there (`PRAGMA
//! integrity_check` says `ok` and the table count is plausible), and only
//! then moved into place; the newest `BACKUP_KEEP` are kept. Anything that
//! fails leaves nothing behind. The logs volume and the environment (which
//! holds the secrets) are not part of a backup.

use std::path::{Path, PathBuf};

use secrecy::SecretString;

use super::client::Tally;
use super::OpsError;

/// Fewer tables than this and the copy is not Tally's database.
pub const PLAUSIBLE_TABLES: i64 = 20;

pub struct BackupArgs {
    pub url: String,
    pub token: SecretString,
    pub dir: PathBuf,
    pub keep: usize,
    /// Whether `url` may be plain http.
    pub allow_http: bool,
}

/// What `run` did, for the report.
pub struct Taken {
    pub path: PathBuf,
    pub bytes: u64,
    pub tables: i64,
    pub rows: i64,
    pub removed: Vec<String>,
}

/// The settings checked before anything is asked or made: the server's
/// base URL.
fn checked(args: &BackupArgs) -> Result<String, OpsError> {
    if args.keep == 0 {
        return Err(OpsError::Usage("BACKUP_KEEP: keep at least 1".into()));
    }
    super::api_url_of("--url", &args.url, args.allow_http)
}

pub async fn run(args: BackupArgs) -> Result<Taken, OpsError> {
    let base = checked(&args)?;
    let made = private_dir(&args.dir)?;
    let taken = take_into(&args, base).await;
    if taken.is_err() && made {
        // Made for this backup, which failed: nothing is left behind. Only
        // an empty directory goes (`remove_dir` refuses any other).
        let _ = std::fs::remove_dir(&args.dir);
    }
    taken
}

async fn take_into(args: &BackupArgs, base: String) -> Result<Taken, OpsError> {
    remove_stale_partials(&args.dir);
    let tally = Tally::new(base, args.token.clone())?;
    let name = tally.backup().await?;
    if !app::backend::backup::is_backup_name(&name) {
        return Err(OpsError::Failed(format!(
            "the server named its backup {name:?}, which is not a backup name"
        )));
    }
    let path = args.dir.join(&name);
    let partial = args.dir.join(partial_name(&name));
    let result = async {
        let bytes = tally.download(&name, &partial).await?;
        let verified = app::backend::backup::verify(&partial, PLAUSIBLE_TABLES)
            .await
            .map_err(|error| OpsError::Failed(format!("{name} was refused: {error}")))?;
        std::fs::rename(&partial, &path).map_err(|source| OpsError::Io {
            path: path.clone(),
            source,
        })?;
        Ok((bytes, verified))
    }
    .await;
    let (bytes, verified) = match result {
        Ok(done) => done,
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            return Err(error);
        }
    };
    let removed = prune(&args.dir, args.keep)?;
    Ok(Taken {
        path,
        bytes,
        tables: verified.tables,
        rows: verified.rows,
        removed,
    })
}

/// Where a download goes until it is verified.
fn partial_name(name: &str) -> String {
    format!(".{name}.partial")
}

/// Downloads an earlier run left when it was stopped (Ctrl-C, a lost
/// connection): never a backup, and each as large as one.
fn remove_stale_partials(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let stale = name
            .strip_prefix('.')
            .and_then(|rest| rest.strip_suffix(".partial"))
            .is_some_and(app::backend::backup::is_backup_name);
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// What a backup needs, checked without taking one (for `deploy
/// --dry-run`): the address and an administrator's token the server
/// accepts, and a place for `DIR` (it, or the folder it would be made in,
/// is a directory). Nothing is created or changed.
pub async fn preflight(args: &BackupArgs) -> Result<(), OpsError> {
    let base = checked(args)?;
    // The nearest folder that exists (a relative `DIR` ends at `.`).
    let existing = args
        .dir
        .ancestors()
        .find(|dir| dir.exists())
        .unwrap_or(Path::new("."));
    if !existing.is_dir() {
        return Err(OpsError::Usage(format!(
            "--dir: {} is not a directory",
            existing.display()
        )));
    }
    Tally::new(base, args.token.clone())?.can_back_up().await
}

/// Makes `dir` (and its parents) with mode 700, or narrows an existing one
/// to it: the copies hold every user's data. Answers whether it was made.
fn private_dir(dir: &Path) -> Result<bool, OpsError> {
    let io = |source| OpsError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let made = !dir.exists();
    std::fs::create_dir_all(dir).map_err(io)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir).map_err(io)?.permissions().mode() & 0o777;
        if mode != 0o700 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io)?;
            if mode & 0o077 != 0 {
                eprintln!(
                    "note: {} was readable by others (mode {mode:o}); it is 700 now",
                    dir.display()
                );
            }
        }
    }
    Ok(made)
}

/// Deletes all but the newest `keep` backups in `dir` (names sort by age);
/// answers the names removed.
fn prune(dir: &Path, keep: usize) -> Result<Vec<String>, OpsError> {
    let io = |source| OpsError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| app::backend::backup::is_backup_name(name))
        .collect();
    names.sort();
    let surplus = names.len().saturating_sub(keep);
    let removed: Vec<String> = names.drain(..surplus).collect();
    for name in &removed {
        std::fs::remove_file(dir.join(name)).map_err(io)?;
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruning_keeps_the_newest_backups_and_nothing_else_is_touched() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "bills-20260101T000000Z.db",
            "bills-20260102T000000Z.db",
            "bills-20260103T000000Z.db",
            "notes.txt",
        ] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        let removed = prune(dir.path(), 2).unwrap();
        assert_eq!(removed, vec!["bills-20260101T000000Z.db"]);
        assert!(dir.path().join("notes.txt").exists());
        assert!(dir.path().join("bills-20260103T000000Z.db").exists());
    }

    #[cfg(unix)]
    #[test]
    fn the_directory_is_made_private() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("a").join("backups");
        private_dir(&dir).unwrap();
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        private_dir(&dir).unwrap();
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }
}
