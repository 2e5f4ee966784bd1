//! `statement_preview` and `statement_import`: a statement file's preview
//! and commit (`ssr::statements::jobs`), with progress row by row. Both
//! resumable: the preview starts over, the commit adds only what is not
//! there yet.

use serde_json::{Map, Value};

use super::super::context::{percent, JobContext, Resources};
use super::super::proto_json::Fields;
use super::super::record::Status;
use crate::ssr::statements::jobs::{self, Progress};
use crate::ssr::statements::ImportError;

/// The metadata's parameters: the import (repeated in every report, so the
/// job can be rebuilt after a restart).
pub fn parameters(import: i64) -> Fields {
    Fields::new().int64("import", import)
}

/// The import a metadata names (int64 as a string).
pub fn import_of(fields: &Map<String, Value>) -> Option<i64> {
    fields
        .get("import")
        .and_then(Value::as_str)
        .and_then(|text| text.parse().ok())
}

fn progress_fields(import: i64, progress: Progress) -> Value {
    parameters(import)
        .int64("rowsDone", progress.done)
        .int64("rowsTotal", progress.total)
        .build()
}

fn status(error: ImportError) -> Status {
    match error {
        ImportError::File(error) => Status::new(Status::INVALID_ARGUMENT, format!("file: {error}")),
        ImportError::NotNow(message) if message == "cancelled" => {
            Status::new(Status::CANCELLED, "cancelled")
        }
        ImportError::NotNow(message) | ImportError::NotFound(message) => {
            Status::new(Status::FAILED_PRECONDITION, message)
        }
        other => Status::new(Status::INTERNAL, other.to_string()),
    }
}

pub async fn preview(
    context: &JobContext,
    resources: &Resources,
    import: i64,
) -> Result<Value, Status> {
    let (sender, updates) = tokio::sync::watch::channel(Progress::default());
    let work = async move {
        let cancelled = || context.is_cancelled();
        jobs::preview(&resources.pool, import, &sender, &cancelled).await
    };
    let reports = context.report_progress(updates, |now: Progress| {
        (progress_fields(import, now), percent(now.done, now.total))
    });
    let (result, ()) = tokio::join!(work, reports);
    let summary = result.map_err(status)?;
    context.checkpoint()?;
    Ok(parameters(import)
        .int64("rows", summary.rows)
        .int64("newRows", summary.new_rows)
        .int64("duplicates", summary.duplicates)
        .int64("refused", summary.refused_count)
        .string("firstDay", summary.first_day.as_deref().unwrap_or(""))
        .string("lastDay", summary.last_day.as_deref().unwrap_or(""))
        .build())
}

pub async fn commit(
    context: &JobContext,
    resources: &Resources,
    import: i64,
) -> Result<Value, Status> {
    let (sender, updates) = tokio::sync::watch::channel(Progress::default());
    let work = async move {
        let cancelled = || context.is_cancelled();
        jobs::commit(
            &resources.pool,
            &resources.keyring,
            import,
            &sender,
            &cancelled,
        )
        .await
    };
    let reports = context.report_progress(updates, |now: Progress| {
        (progress_fields(import, now), percent(now.done, now.total))
    });
    let (result, ()) = tokio::join!(work, reports);
    let committed = result.map_err(status)?;
    context.checkpoint()?;
    Ok(parameters(import)
        .int64("added", committed.added)
        .int64("alreadyThere", committed.already_there)
        .int64("matched", committed.matched)
        .build())
}
