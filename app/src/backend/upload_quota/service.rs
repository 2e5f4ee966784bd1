//! The checks, with what they read: the person's waiting statements (the
//! statements store) and kept files (the scratch directory).

use std::path::Path;

use sqlx::SqlitePool;

use super::rules::{self, Waiting, RUNNING_RETRY};
use super::UploadQuotaError;
use crate::backend::kept_upload;
use crate::backend::statements;

/// Refuses one more upload of `bytes` for `user` when it would pass the
/// bounds of [`rules::admit`].
pub async fn check(
    pool: &SqlitePool,
    scratch: &Path,
    user: i64,
    bytes: usize,
) -> Result<(), UploadQuotaError> {
    let mut waiting: Vec<Waiting> = statements::waiting_uploads(pool, user)
        .await?
        .into_iter()
        .map(|(bytes, seconds_left)| Waiting {
            bytes: u64::try_from(bytes).unwrap_or(0),
            left: std::time::Duration::from_secs(u64::try_from(seconds_left).unwrap_or(0)),
        })
        .collect();
    waiting.extend(
        kept_upload::waiting(scratch, user)
            .await?
            .into_iter()
            .map(|(bytes, left)| Waiting { bytes, left }),
    );
    rules::admit(&waiting, u64::try_from(bytes).unwrap_or(u64::MAX))
}

/// Refuses to start an import job for `user` while one of theirs runs
/// (a preview or a commit of a statement): one person's imports take
/// turns, so one person cannot keep the writer busy for everyone.
pub async fn one_import_at_a_time(pool: &SqlitePool, user: i64) -> Result<(), UploadQuotaError> {
    if statements::imports_running(pool, user).await? > 0 {
        return Err(UploadQuotaError::Running {
            retry_after: RUNNING_RETRY,
        });
    }
    Ok(())
}
