//! `notifications_run`: the daily reminders (`ssr::notifications`), with
//! progress user by user. Resumable: a run records each message once, so a
//! second run sends only what the first did not.

use serde_json::Value;

use super::super::context::{percent, JobContext, Resources};
use super::super::messages::{Message, NotificationsRunMetadata, NotificationsRunResponse};
use super::super::record::Status;
use crate::ssr::notifications::jobs::{self, Progress};

fn progress_fields(progress: Progress) -> Value {
    NotificationsRunMetadata {
        users_total: progress.users_total,
        users_done: progress.users_done,
        sent: progress.counts.sent,
        failed: progress.counts.failed,
    }
    .to_json()
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
    Ok(NotificationsRunResponse {
        users: counts.users,
        sent: counts.sent,
        failed: counts.failed,
        skipped: counts.skipped,
    }
    .to_json())
}
