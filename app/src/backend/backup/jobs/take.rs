//! `backup`: the data layer's online backup, with progress in pages copied.

use serde_json::Value;

use super::Backups;
use crate::backend::backup::{self, BackupError, Copied};
use crate::backend::operations::messages::{BackupMetadata, BackupResponse, Message};
use crate::backend::operations::{percent, JobContext, Status};

fn progress_fields(copied: Copied) -> Value {
    BackupMetadata {
        pages_total: copied.total,
        pages_copied: copied.pages,
    }
    .to_json()
}

/// A backup kept to the newest `keep`, reported as it copies: `report`
/// turns the pages copied into the metadata and the percentage.
async fn take_reporting(
    context: &JobContext,
    backups: &Backups,
    keep: usize,
    report: impl Fn(Copied) -> (Value, i64),
) -> Result<(backup::BackupInfo, backup::Verified), BackupError> {
    let (progress, mut updates) = tokio::sync::watch::channel(Copied::default());
    let cancelled = || context.is_cancelled();
    let copy = backup::create_observed(&backups.pool, &backups.dir, keep, &progress, &cancelled);
    tokio::pin!(copy);
    loop {
        tokio::select! {
            result = &mut copy => break result,
            changed = updates.changed() => {
                if changed.is_ok() {
                    let (fields, percent) = report(*updates.borrow_and_update());
                    context.report(fields, percent).await;
                }
            }
        }
    }
}

pub async fn run(context: &JobContext, backups: &Backups) -> Result<Value, Status> {
    context.checkpoint()?;
    let result = take_reporting(context, backups, backups.settings.keep, |copied| {
        (
            progress_fields(copied),
            percent(copied.pages, copied.total) * 9 / 10,
        )
    })
    .await;
    match result {
        Ok((info, verified)) => Ok(BackupResponse {
            file_name: info.name,
            size_bytes: i64::try_from(info.bytes).unwrap_or(i64::MAX),
            tables: verified.tables,
            rows: verified.rows,
        }
        .to_json()),
        Err(BackupError::Cancelled) => Err(Status::cancelled()),
        Err(error @ BackupError::CheckFailed(_)) => {
            Err(Status::new(Status::FAILED_PRECONDITION, error.to_string()))
        }
        Err(error) => {
            tracing::error!(%error, "backup operation failed");
            Err(Status::new(Status::INTERNAL, error.to_string()))
        }
    }
}
