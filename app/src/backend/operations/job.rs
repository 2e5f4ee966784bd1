//! A job: the work behind one operation, with its parameters and what it
//! works with. Each feature declares the jobs of its kinds (its `jobs.rs`)
//! and registers with the engine how to take an unfinished one back up
//! after a restart; the engine runs any [`Job`] and knows none of them.
//! A job reports progress through its [`JobContext`], watches the
//! context's cancellation token at its safe points, and ends with the
//! response message's fields or a status.

use std::future::Future;
use std::pin::Pin;

use serde_json::{Map, Value};

use super::context::JobContext;
use super::record::Status;
use crate::domain::operation_kind::OperationKind;

/// The response message's fields, or why the operation failed.
pub type JobResult = Result<Value, Status>;

/// A job at work.
pub type Running<'a> = Pin<Box<dyn Future<Output = JobResult> + Send + 'a>>;

pub trait Job: Send + Sync + 'static {
    fn kind(&self) -> OperationKind;

    /// The metadata an operation starts with: its parameters, no progress.
    /// Every progress report repeats them, so [`Resume`] can rebuild the
    /// job from what a restart left.
    fn parameters(&self) -> Value;

    fn run<'a>(&'a self, context: &'a JobContext) -> Running<'a>;
}

/// How a feature takes an unfinished operation of one of its kinds back
/// up after a restart: the job its stored metadata (without
/// `percentDone`) stands for, or `None` when the metadata names none.
pub type Resume = Box<dyn Fn(&Map<String, Value>) -> Option<Box<dyn Job>> + Send + Sync>;

/// An int64 of a metadata (proto3 JSON writes them as strings).
pub fn int64_field(fields: &Map<String, Value>, name: &str) -> Option<i64> {
    fields
        .get(name)
        .and_then(Value::as_str)
        .and_then(|text| text.parse().ok())
}

/// A repeated int64 of a metadata.
pub fn int64_list(fields: &Map<String, Value>, name: &str) -> Vec<i64> {
    fields
        .get(name)
        .and_then(Value::as_array)
        .map(|ids| {
            ids.iter()
                .filter_map(|id| id.as_str().and_then(|text| text.parse().ok()))
                .collect()
        })
        .unwrap_or_default()
}

/// A string of a metadata.
pub fn string_field(fields: &Map<String, Value>, name: &str) -> Option<String> {
    fields.get(name).and_then(Value::as_str).map(str::to_owned)
}
