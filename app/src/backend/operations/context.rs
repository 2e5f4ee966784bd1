//! What a running job sees: its line to its operation (progress reports
//! and the cancellation token). What it works with, the job brings itself.
//! A leaf: the engine hands a context to a job; the context writes progress
//! straight to the operation's row and knows nothing of the engine.

use serde_json::{Map, Value};
use sqlx::SqlitePool;
use tokio_util::sync::CancellationToken;

use super::record::Status;
use super::store;

/// A running job's line to its operation.
pub struct JobContext {
    pool: SqlitePool,
    id: String,
    cancel: CancellationToken,
}

impl JobContext {
    pub(super) fn new(pool: SqlitePool, id: String, cancel: CancellationToken) -> Self {
        Self { pool, id, cancel }
    }

    /// The operation's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Resolves when a client asks to cancel.
    pub async fn cancelled(&self) {
        self.cancel.cancelled().await;
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// `Err(CANCELLED)` once cancellation was asked for: `?` at a safe point.
    pub fn checkpoint(&self) -> Result<(), Status> {
        if self.is_cancelled() {
            Err(Status::cancelled())
        } else {
            Ok(())
        }
    }

    /// Replaces the metadata with `fields` and the percentage done.
    pub async fn report(&self, fields: Value, percent: i64) {
        let mut metadata = match fields {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        metadata.insert("percentDone".to_owned(), Value::from(percent.clamp(0, 100)));
        if let Err(error) =
            store::set_metadata(&self.pool, &self.id, &Value::Object(metadata)).await
        {
            tracing::warn!(operation = %self.id, %error, "could not record progress");
        }
    }
}

impl JobContext {
    /// Reports what `updates` says until its sender is dropped (the work
    /// ended), each update through `fields` (metadata and percent). Run it
    /// beside the work with `tokio::join!`, not in turn with it in a
    /// `select!`: a report is a write, and the work may be parked inside a
    /// write transaction of its own that must go on to end, or the report
    /// waits out the busy timeout and is lost.
    pub async fn report_progress<P: Copy>(
        &self,
        mut updates: tokio::sync::watch::Receiver<P>,
        fields: impl Fn(P) -> (Value, i64),
    ) {
        while updates.changed().await.is_ok() {
            let now = *updates.borrow_and_update();
            let (metadata, percent) = fields(now);
            self.report(metadata, percent).await;
        }
    }
}

/// `part` of `whole` in percent.
pub fn percent(part: i64, whole: i64) -> i64 {
    if whole <= 0 {
        0
    } else {
        (part.saturating_mul(100) / whole).clamp(0, 100)
    }
}
