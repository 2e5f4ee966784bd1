//! `backup`: the data layer's online backup, with progress in pages copied.

use serde_json::Value;

use super::super::context::{percent, JobContext, Resources};
use super::super::proto_json::Fields;
use super::super::record::Status;
use crate::ssr::backup::{self, BackupError, Copied};

fn progress_fields(copied: Copied) -> Value {
    Fields::new()
        .int64("pagesTotal", copied.total)
        .int64("pagesCopied", copied.pages)
        .build()
}

pub async fn run(context: &JobContext, resources: &Resources) -> Result<Value, Status> {
    context.checkpoint()?;
    let (progress, mut updates) = tokio::sync::watch::channel(Copied::default());
    let cancelled = || context.is_cancelled();
    let copy = backup::create_observed(
        &resources.pool,
        &resources.backups_dir,
        resources.backups.keep,
        &progress,
        &cancelled,
    );
    tokio::pin!(copy);
    let result = loop {
        tokio::select! {
            result = &mut copy => break result,
            changed = updates.changed() => {
                if changed.is_ok() {
                    let copied = *updates.borrow_and_update();
                    context.report(progress_fields(copied), percent(copied.pages, copied.total) * 9 / 10).await;
                }
            }
        }
    };
    match result {
        Ok((info, verified)) => Ok(Fields::new()
            .string("fileName", &info.name)
            .int64("sizeBytes", i64::try_from(info.bytes).unwrap_or(i64::MAX))
            .int64("tables", verified.tables)
            .int64("rows", verified.rows)
            .build()),
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
