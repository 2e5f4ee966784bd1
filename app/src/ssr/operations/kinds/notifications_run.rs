//! `notifications_run`: the daily reminders (`ssr::notifications`), with
//! progress user by user. Resumable: a run records each message once, so a
//! second run sends only what the first did not.

use serde_json::Value;

use super::super::context::{percent, JobContext, Resources};
use super::super::proto_json::Fields;
use super::super::record::Status;
use crate::ssr::notifications::jobs::{self, Progress};

fn progress_fields(progress: Progress) -> Value {
    Fields::new()
        .int64("usersTotal", progress.users_total)
        .int64("usersDone", progress.users_done)
        .int64("sent", progress.counts.sent)
        .int64("failed", progress.counts.failed)
        .build()
}

pub async fn run(
    context: &JobContext,
    resources: &Resources,
    operation: &str,
) -> Result<Value, Status> {
    let Some(notifier) = &resources.notifier else {
        return Err(Status::new(
            Status::FAILED_PRECONDITION,
            "notifications are not set up in this process",
        ));
    };
    let (sender, updates) = tokio::sync::watch::channel(Progress::default());
    let work = async move {
        let cancelled = || context.is_cancelled();
        jobs::run_operation(notifier, &resources.pool, operation, &sender, &cancelled).await
    };
    let reports = context.report_progress(updates, |now: Progress| {
        (
            progress_fields(now),
            percent(now.users_done, now.users_total),
        )
    });
    let (result, ()) = tokio::join!(work, reports);
    notifier.set_running(None);
    let counts = result.map_err(|error| {
        Status::new(
            Status::INTERNAL,
            format!("the reminders run failed: {error}"),
        )
    })?;
    context.checkpoint()?;
    Ok(Fields::new()
        .int64("users", counts.users)
        .int64("sent", counts.sent)
        .int64("failed", counts.failed)
        .int64("skipped", counts.skipped)
        .build())
}
