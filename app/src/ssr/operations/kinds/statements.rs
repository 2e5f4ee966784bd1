//! `statement_preview` and `statement_import`: a statement file's preview
//! and commit (`ssr::statements::jobs`), with progress row by row. Both
//! resumable: the preview starts over, the commit adds only what is not
//! there yet.

use serde_json::{Map, Value};

use super::super::context::{percent, JobContext, Resources};
use super::super::messages::{
    Message, StatementImportMetadata, StatementImportResponse, StatementPreviewMetadata,
    StatementPreviewResponse,
};
use super::super::record::Status;
use crate::ssr::statements::jobs::{self, Progress};
use crate::ssr::statements::ImportError;

/// The metadata's parameters: the import (repeated in every report, so the
/// job can be rebuilt after a restart). A preview's and a commit's
/// metadata have the same fields.
pub fn parameters(import: i64) -> StatementPreviewMetadata {
    StatementPreviewMetadata {
        import,
        ..StatementPreviewMetadata::default()
    }
}

/// The import a metadata names (int64 as a string).
pub fn import_of(fields: &Map<String, Value>) -> Option<i64> {
    fields
        .get("import")
        .and_then(Value::as_str)
        .and_then(|text| text.parse().ok())
}

fn preview_progress(import: i64, progress: Progress) -> Value {
    StatementPreviewMetadata {
        import,
        rows_done: progress.done,
        rows_total: progress.total,
    }
    .to_json()
}

fn import_progress(import: i64, progress: Progress) -> Value {
    StatementImportMetadata {
        import,
        rows_done: progress.done,
        rows_total: progress.total,
    }
    .to_json()
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
        (preview_progress(import, now), percent(now.done, now.total))
    });
    let (result, ()) = tokio::join!(work, reports);
    let summary = result.map_err(status)?;
    context.checkpoint()?;
    Ok(StatementPreviewResponse {
        import,
        rows: summary.rows,
        new_rows: summary.new_rows,
        duplicates: summary.duplicates,
        refused: summary.refused_count,
        first_day: summary.first_day.unwrap_or_default(),
        last_day: summary.last_day.unwrap_or_default(),
    }
    .to_json())
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
        (import_progress(import, now), percent(now.done, now.total))
    });
    let (result, ()) = tokio::join!(work, reports);
    let committed = result.map_err(status)?;
    context.checkpoint()?;
    Ok(StatementImportResponse {
        import,
        added: committed.added,
        already_there: committed.already_there,
        matched: committed.matched,
    }
    .to_json())
}
