//! A file sent for a preview, kept between the preview and the import it
//! leads to (a bills file, a workbook): posted without JavaScript, the page
//! cannot keep the file, so the server does, in its scratch directory, for
//! [`KEPT_FOR`]. Each use keeps its files on a shelf of its own. The
//! address then names a file by a random id, never by anything the person
//! typed; another person's id finds nothing. What one person may keep
//! waiting, across shelves and statements, is `upload_quota`'s to say.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rand::RngCore;

/// How long a previewed file waits for its import.
pub const KEPT_FOR: Duration = Duration::from_secs(60 * 60);

#[derive(Debug, thiserror::Error)]
pub enum KeptError {
    /// The file asked for is not kept (any more, or not for this person).
    #[error("this preview is no longer kept; choose the file again")]
    NotKept,
    /// The person has as much waiting as they may (429).
    #[error(transparent)]
    Quota(#[from] crate::backend::upload_quota::UploadQuotaError),
    /// The scratch directory failed.
    #[error("keeping the file: {0}")]
    Scratch(#[from] std::io::Error),
}

/// The shelf's folder inside the scratch directory.
fn folder(scratch: &Path, shelf: &str) -> PathBuf {
    scratch.join(format!("kept-{shelf}"))
}

/// `<user>-<id>`: an id is 32 lowercase hex digits, anything else is no id.
fn path_of(scratch: &Path, shelf: &str, user: i64, id: &str) -> Option<PathBuf> {
    let well_formed = id.len() == 32
        && id
            .bytes()
            .all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'));
    well_formed.then(|| folder(scratch, shelf).join(format!("{user}-{id}")))
}

/// Keeps `file` on `shelf` for `user`, with `label` (one line: what the
/// file is, say the app that made it); its id. Files kept longer than
/// [`KEPT_FOR`] are removed first; a person who has as much waiting as
/// `upload_quota` allows is refused.
pub async fn keep(
    pool: &sqlx::SqlitePool,
    scratch: &Path,
    shelf: &str,
    user: i64,
    label: &str,
    file: &[u8],
) -> Result<String, KeptError> {
    let folder = folder(scratch, shelf);
    tokio::fs::create_dir_all(&folder).await?;
    forget_expired(&folder).await?;
    crate::backend::upload_quota::check(pool, scratch, user, file.len()).await?;
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    let id: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
    let path = path_of(scratch, shelf, user, &id).ok_or(KeptError::NotKept)?;
    let label = label.replace('\n', " ");
    let mut kept = Vec::with_capacity(label.len() + 1 + file.len());
    kept.extend_from_slice(label.as_bytes());
    kept.push(b'\n');
    kept.extend_from_slice(file);
    tokio::fs::write(path, kept).await?;
    Ok(id)
}

/// The file `user` kept on `shelf` as `id`, and its label.
pub async fn kept(
    scratch: &Path,
    shelf: &str,
    user: i64,
    id: &str,
) -> Result<(String, Vec<u8>), KeptError> {
    let path = path_of(scratch, shelf, user, id).ok_or(KeptError::NotKept)?;
    let fresh = tokio::fs::metadata(&path)
        .await
        .ok()
        .is_some_and(|found| !expired(&found));
    if !fresh {
        return Err(KeptError::NotKept);
    }
    let mut kept = tokio::fs::read(&path)
        .await
        .map_err(|_| KeptError::NotKept)?;
    let split = kept
        .iter()
        .position(|byte| *byte == b'\n')
        .ok_or(KeptError::NotKept)?;
    let label = String::from_utf8_lossy(&kept[..split]).into_owned();
    kept.drain(..=split);
    Ok((label, kept))
}

/// Removes the file `user` kept on `shelf` as `id` (after its import).
pub async fn forget(scratch: &Path, shelf: &str, user: i64, id: &str) {
    if let Some(path) = path_of(scratch, shelf, user, id) {
        // Already gone is as good.
        let _ = tokio::fs::remove_file(path).await;
    }
}

fn expired(file: &std::fs::Metadata) -> bool {
    file.modified()
        .ok()
        .and_then(|modified| SystemTime::now().duration_since(modified).ok())
        .is_none_or(|age| age > KEPT_FOR)
}

/// Removes every expired file of the shelf in `folder`.
async fn forget_expired(folder: &Path) -> std::io::Result<()> {
    let mut entries = tokio::fs::read_dir(folder).await?;
    while let Some(entry) = entries.next_entry().await? {
        let Ok(found) = entry.metadata().await else {
            continue;
        };
        if expired(&found) {
            let _ = tokio::fs::remove_file(entry.path()).await;
        }
    }
    Ok(())
}

/// `user`'s files waiting on every shelf: each one's size and how long it
/// is kept yet.
pub async fn waiting(scratch: &Path, user: i64) -> std::io::Result<Vec<(u64, Duration)>> {
    let prefix = format!("{user}-");
    let mut found = Vec::new();
    let mut shelves = match tokio::fs::read_dir(scratch).await {
        Ok(shelves) => shelves,
        // Nothing was ever kept.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(error) => return Err(error),
    };
    while let Some(shelf) = shelves.next_entry().await? {
        let is_shelf = shelf.file_name().to_string_lossy().starts_with("kept-")
            && shelf.file_type().await.is_ok_and(|kind| kind.is_dir());
        if !is_shelf {
            continue;
        }
        let mut files = tokio::fs::read_dir(shelf.path()).await?;
        while let Some(file) = files.next_entry().await? {
            if !file.file_name().to_string_lossy().starts_with(&prefix) {
                continue;
            }
            let Ok(metadata) = file.metadata().await else {
                continue;
            };
            if expired(&metadata) {
                continue;
            }
            let age = metadata
                .modified()
                .ok()
                .and_then(|modified| SystemTime::now().duration_since(modified).ok())
                .unwrap_or_default();
            found.push((metadata.len(), KEPT_FOR.saturating_sub(age)));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_kept_file_is_its_owners_by_id_until_forgotten() {
        let (_db, pool) = crate::backend::db::migrated_for_test().await;
        let scratch = tempfile::tempdir().unwrap();
        let id = keep(
            &pool,
            scratch.path(),
            "bills",
            7,
            "wallos",
            b"{\"subscriptions\":[]}\n",
        )
        .await
        .unwrap();
        assert_eq!(id.len(), 32);
        let (label, file) = kept(scratch.path(), "bills", 7, &id).await.unwrap();
        assert_eq!(label, "wallos");
        assert_eq!(file, b"{\"subscriptions\":[]}\n");

        // Another person, another shelf, a made-up id, a path: nothing.
        for (shelf, user, asked) in [
            ("bills", 8, id.as_str()),
            ("workbooks", 7, id.as_str()),
            ("bills", 7, "0123456789abcdef0123456789abcdef"),
            ("bills", 7, "../../etc/passwd"),
        ] {
            assert!(matches!(
                kept(scratch.path(), shelf, user, asked).await,
                Err(KeptError::NotKept)
            ));
        }

        forget(scratch.path(), "bills", 7, &id).await;
        assert!(matches!(
            kept(scratch.path(), "bills", 7, &id).await,
            Err(KeptError::NotKept)
        ));
    }

    #[tokio::test]
    async fn a_person_keeps_at_most_five_files_waiting_across_shelves() {
        let (_db, pool) = crate::backend::db::migrated_for_test().await;
        let scratch = tempfile::tempdir().unwrap();
        for (n, shelf) in ["bills", "bills", "workbooks", "bills", "workbooks"]
            .into_iter()
            .enumerate()
        {
            keep(
                &pool,
                scratch.path(),
                shelf,
                7,
                "tally",
                n.to_string().as_bytes(),
            )
            .await
            .unwrap();
        }
        let sixth = keep(&pool, scratch.path(), "bills", 7, "tally", b"6").await;
        match sixth {
            Err(KeptError::Quota(refusal)) => {
                let wait = refusal.retry_after().unwrap();
                assert!(wait > Duration::ZERO && wait <= KEPT_FOR, "{wait:?}");
            }
            other => panic!("{other:?}"),
        }
        // Another person is not held up by it.
        keep(&pool, scratch.path(), "bills", 8, "tally", b"theirs")
            .await
            .unwrap();
        let waiting = waiting(scratch.path(), 7).await.unwrap();
        assert_eq!(waiting.len(), 5);
        assert!(waiting
            .iter()
            .all(|(bytes, _)| *bytes == 2 + "tally".len() as u64));
    }

    #[tokio::test]
    async fn a_file_kept_too_long_is_gone() {
        let (_db, pool) = crate::backend::db::migrated_for_test().await;
        let scratch = tempfile::tempdir().unwrap();
        let id = keep(&pool, scratch.path(), "bills", 7, "tally", b"name\n")
            .await
            .unwrap();
        let path = path_of(scratch.path(), "bills", 7, &id).unwrap();
        let old = SystemTime::now() - KEPT_FOR - Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(matches!(
            kept(scratch.path(), "bills", 7, &id).await,
            Err(KeptError::NotKept)
        ));
        // The next file kept clears it away.
        keep(&pool, scratch.path(), "bills", 7, "tally", b"name\n")
            .await
            .unwrap();
        assert!(!path.exists());
    }
}
