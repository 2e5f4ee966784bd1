//! A bill import's file kept between its preview and its import, for the
//! Data page's form: posted without JavaScript, the page cannot keep the
//! file, so the server does, in its scratch directory, for
//! [`KEPT_FOR`]. The address then names the file by a random id, never by
//! anything the person typed; another person's id finds nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rand::RngCore;

use super::import_error::BillImportError;
use crate::backend::other_apps::Source;

/// How long a previewed file waits for its import.
pub const KEPT_FOR: Duration = Duration::from_secs(60 * 60);

/// The folder of kept files inside the scratch directory.
fn folder(scratch: &Path) -> PathBuf {
    scratch.join("bill-imports")
}

/// `<user>-<id>`: an id is 32 lowercase hex digits, anything else is no id.
fn path_of(scratch: &Path, user: i64, id: &str) -> Option<PathBuf> {
    let well_formed = id.len() == 32
        && id
            .bytes()
            .all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'));
    well_formed.then(|| folder(scratch).join(format!("{user}-{id}")))
}

fn gone() -> BillImportError {
    BillImportError::NotKept
}

/// Keeps `file` (read as `source`) for `user`; its id. Files kept longer
/// than [`KEPT_FOR`] are removed first.
pub async fn keep(
    scratch: &Path,
    user: i64,
    source: Source,
    file: &[u8],
) -> Result<String, BillImportError> {
    let folder = folder(scratch);
    tokio::fs::create_dir_all(&folder).await?;
    forget_expired(&folder).await?;
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    let id: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
    let path = path_of(scratch, user, &id).ok_or_else(gone)?;
    let mut kept = Vec::with_capacity(file.len() + 8);
    kept.extend_from_slice(source.name().as_bytes());
    kept.push(b'\n');
    kept.extend_from_slice(file);
    tokio::fs::write(path, kept).await?;
    Ok(id)
}

/// The file `user` kept as `id`, and what it was read as.
pub async fn kept(
    scratch: &Path,
    user: i64,
    id: &str,
) -> Result<(Source, Vec<u8>), BillImportError> {
    let path = path_of(scratch, user, id).ok_or_else(gone)?;
    let fresh = tokio::fs::metadata(&path)
        .await
        .ok()
        .and_then(|found| found.modified().ok())
        .and_then(|modified| SystemTime::now().duration_since(modified).ok())
        .is_some_and(|age| age <= KEPT_FOR);
    if !fresh {
        return Err(gone());
    }
    let mut kept = tokio::fs::read(&path).await.map_err(|_| gone())?;
    let split = kept
        .iter()
        .position(|byte| *byte == b'\n')
        .ok_or_else(gone)?;
    let source = std::str::from_utf8(&kept[..split])
        .ok()
        .and_then(Source::parse)
        .ok_or_else(gone)?;
    kept.drain(..=split);
    Ok((source, kept))
}

/// Removes the file `user` kept as `id` (after its import).
pub async fn forget(scratch: &Path, user: i64, id: &str) {
    if let Some(path) = path_of(scratch, user, id) {
        // Already gone is as good.
        let _ = tokio::fs::remove_file(path).await;
    }
}

async fn forget_expired(folder: &Path) -> std::io::Result<()> {
    let mut entries = tokio::fs::read_dir(folder).await?;
    while let Some(entry) = entries.next_entry().await? {
        let expired = entry
            .metadata()
            .await
            .ok()
            .and_then(|found| found.modified().ok())
            .and_then(|modified| SystemTime::now().duration_since(modified).ok())
            .is_some_and(|age| age > KEPT_FOR);
        if expired {
            let _ = tokio::fs::remove_file(entry.path()).await;
        }
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
            7,
            Source::Wallos,
            b"{\"subscriptions\":[]}\n",
        )
        .await
        .unwrap();
        assert_eq!(id.len(), 32);
        let (source, file) = kept(scratch.path(), 7, &id).await.unwrap();
        assert_eq!(source, Source::Wallos);
        assert_eq!(file, b"{\"subscriptions\":[]}\n");

        // Another person, a made-up id, a path: nothing.
        for (user, asked) in [
            (8, id.as_str()),
            (7, "0123456789abcdef0123456789abcdef"),
            (7, "../../etc/passwd"),
        ] {
            assert!(matches!(
                kept(scratch.path(), user, asked).await,
                Err(BillImportError::NotKept)
            ));
        }

        forget(scratch.path(), 7, &id).await;
        assert!(matches!(
            kept(scratch.path(), 7, &id).await,
            Err(BillImportError::NotKept)
        ));
    }

    #[tokio::test]
    async fn a_file_kept_too_long_is_gone() {
        let scratch = tempfile::tempdir().unwrap();
        let id = keep(scratch.path(), 7, Source::Tally, b"name\n")
            .await
            .unwrap();
        let path = path_of(scratch.path(), 7, &id).unwrap();
        let old = SystemTime::now() - KEPT_FOR - Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(matches!(
            kept(scratch.path(), 7, &id).await,
            Err(BillImportError::NotKept)
        ));
        // The next file kept clears it away.
        keep(scratch.path(), 7, Source::Tally, b"name\n")
            .await
            .unwrap();
        assert!(!path.exists());
    }
}
