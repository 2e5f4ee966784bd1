//! An uploaded personal export, written to a scratch file as it arrives
//! and refused past [`MAX_BYTES`]; the file is removed when dropped. Both
//! doors stream into it: REST's raw body and the Data page's form field.

use std::path::Path;

use futures::{Stream, StreamExt};
use tempfile::NamedTempFile;
use tokio::io::AsyncWriteExt;

use super::rules::MAX_BYTES;
use super::PersonalDataError;

/// The file received and how many bytes it holds.
pub struct Upload {
    pub file: NamedTempFile,
    pub bytes: usize,
}

/// Writes `chunks` to a new file in `scratch` (created when missing); a
/// chunk's error ends it with that error, and so does passing
/// [`MAX_BYTES`].
pub async fn receive<T: AsRef<[u8]>>(
    scratch: &Path,
    chunks: impl Stream<Item = Result<T, PersonalDataError>>,
) -> Result<Upload, PersonalDataError> {
    tokio::fs::create_dir_all(scratch).await?;
    let file = tempfile::Builder::new()
        .prefix("import-")
        .suffix(".sqlite")
        .tempfile_in(scratch)?;
    let mut writer = tokio::fs::File::from_std(file.as_file().try_clone()?);
    let mut chunks = std::pin::pin!(chunks);
    let mut bytes = 0usize;
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk?;
        let chunk = chunk.as_ref();
        bytes += chunk.len();
        if bytes > MAX_BYTES {
            return Err(PersonalDataError::TooLarge { limit: MAX_BYTES });
        }
        writer.write_all(chunk).await?;
    }
    writer.flush().await?;
    Ok(Upload { file, bytes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_chunks_are_written_in_order_and_an_error_ends_it() {
        let scratch = tempfile::tempdir().unwrap();
        let chunks = futures::stream::iter([Ok(b"SQLite ".to_vec()), Ok(b"format 3".to_vec())]);
        let upload = receive(scratch.path(), chunks).await.unwrap();
        assert_eq!(upload.bytes, 15);
        assert_eq!(
            std::fs::read(upload.file.path()).unwrap(),
            b"SQLite format 3"
        );

        let failing = futures::stream::iter([
            Ok(b"SQLite".to_vec()),
            Err(PersonalDataError::TooLarge { limit: 1 }),
        ]);
        assert!(matches!(
            receive(scratch.path(), failing).await,
            Err(PersonalDataError::TooLarge { limit: 1 })
        ));
    }
}
