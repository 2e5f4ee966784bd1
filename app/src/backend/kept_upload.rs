//! A file sent for a preview, kept between the preview and the import it
//! leads to (a bills file, a workbook): posted without JavaScript, the page
//! cannot keep the file, so the server does, in its scratch directory, for
//! [`KEPT_FOR`]. Each use keeps its files on a shelf of its own. The
//! address then names a file by a random id, never by anything the person
//! typed; another person's id finds nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rand::RngCore;

/// How long a previewed file waits for its import.
pub const KEPT_FOR: Duration = Duration::from_secs(60 * 60);
/// How many files one person keeps on a shelf at most: keeping one more
/// forgets their oldest, so nobody fills the disk with previews.
pub const KEPT_PER_PERSON: usize = 4;

#[derive(Debug, thiserror::Error)]
pub enum KeptError {
    /// The file asked for is not kept (any more, or not for this person).
    #[error("this preview is no longer kept; choose the file again")]
    NotKept,
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
/// [`KEPT_FOR`] are removed first, and so are the person's oldest beyond
/// [`KEPT_PER_PERSON`].
pub async fn keep(
    scratch: &Path,
    shelf: &str,
    user: i64,
    label: &str,
    file: &[u8],
) -> Result<String, KeptError> {
    let folder = folder(scratch, shelf);
    tokio::fs::create_dir_all(&folder).await?;
    forget_expired(&folder, user).await?;
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

/// Removes every expired file, and `user`'s oldest so that one more
/// keeps them within [`KEPT_PER_PERSON`].
async fn forget_expired(folder: &Path, user: i64) -> std::io::Result<()> {
    let prefix = format!("{user}-");
    let mut theirs = Vec::new();
    let mut entries = tokio::fs::read_dir(folder).await?;
    while let Some(entry) = entries.next_entry().await? {
        let Ok(found) = entry.metadata().await else {
            continue;
        };
        if expired(&found) {
            let _ = tokio::fs::remove_file(entry.path()).await;
        } else if entry.file_name().to_string_lossy().starts_with(&prefix) {
            theirs.push((found.modified().ok(), entry.path()));
        }
    }
    theirs.sort();
    let over = (theirs.len() + 1).saturating_sub(KEPT_PER_PERSON);
    for (_, path) in theirs.into_iter().take(over) {
        let _ = tokio::fs::remove_file(path).await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_kept_file_is_its_owners_by_id_until_forgotten() {
        let scratch = tempfile::tempdir().unwrap();
        let id = keep(
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
    async fn a_person_keeps_a_few_files_and_the_oldest_goes_first() {
        let scratch = tempfile::tempdir().unwrap();
        let mut ids = Vec::new();
        for n in 0..KEPT_PER_PERSON + 2 {
            ids.push(
                keep(
                    scratch.path(),
                    "bills",
                    7,
                    "tally",
                    n.to_string().as_bytes(),
                )
                .await
                .unwrap(),
            );
            // Modification times an mtime apart, whatever the file system.
            let path = path_of(scratch.path(), "bills", 7, ids.last().unwrap()).unwrap();
            let at = SystemTime::now() - Duration::from_secs(600) + Duration::from_secs(n as u64);
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(at)
                .unwrap();
        }
        let other = keep(scratch.path(), "bills", 8, "tally", b"theirs")
            .await
            .unwrap();
        let mut left = Vec::new();
        for id in &ids {
            left.push(kept(scratch.path(), "bills", 7, id).await.is_ok());
        }
        let expected: Vec<bool> = (0..ids.len())
            .map(|n| n >= ids.len() - KEPT_PER_PERSON)
            .collect();
        assert_eq!(left, expected, "the newest {KEPT_PER_PERSON} stay");
        assert!(
            kept(scratch.path(), "bills", 8, &other).await.is_ok(),
            "another person's stays"
        );
    }

    #[tokio::test]
    async fn a_file_kept_too_long_is_gone() {
        let scratch = tempfile::tempdir().unwrap();
        let id = keep(scratch.path(), "bills", 7, "tally", b"name\n")
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
        keep(scratch.path(), "bills", 7, "tally", b"name\n")
            .await
            .unwrap();
        assert!(!path.exists());
    }
}
