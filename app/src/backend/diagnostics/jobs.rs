//! The diagnostics kind `sleep`: waits, reporting progress every hundredth
//! of the way (at most a second apart), then succeeds or (with `fail`) ends
//! with INTERNAL. It honours cancellation at once, which makes it the
//! operator's and the tests' way to exercise the API.

use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

use crate::backend::operations::messages::{Message, SleepMetadata, SleepResponse};
use crate::backend::operations::{percent, Job, JobContext, Running, Status};
use crate::domain::operation_kind::OperationKind;

/// A sleep of `duration`; it fails at the end when `fail`. Not resumed
/// after a restart (nothing registers it), so the tests see the ABORTED
/// rule.
pub struct Sleep {
    pub duration: Duration,
    pub fail: bool,
}

impl Job for Sleep {
    fn kind(&self) -> OperationKind {
        OperationKind::Sleep
    }

    fn parameters(&self) -> Value {
        SleepMetadata {
            duration: self.duration,
            fail: self.fail,
        }
        .to_json()
    }

    fn run<'a>(&'a self, context: &'a JobContext) -> Running<'a> {
        Box::pin(run(context, self.duration, self.fail))
    }
}

async fn run(context: &JobContext, duration: Duration, fail: bool) -> Result<Value, Status> {
    let started = Instant::now();
    let fields = SleepMetadata { duration, fail }.to_json();
    let step = (duration / 100).clamp(Duration::from_millis(50), Duration::from_secs(1));
    loop {
        let elapsed = started.elapsed();
        if elapsed >= duration {
            break;
        }
        let whole = i64::try_from(duration.as_millis()).unwrap_or(i64::MAX);
        let part = i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX);
        context.report(fields.clone(), percent(part, whole)).await;
        let nap = step.min(duration - elapsed);
        tokio::select! {
            () = context.cancelled() => return Err(Status::cancelled()),
            () = tokio::time::sleep(nap) => {}
        }
    }
    if fail {
        return Err(Status::new(Status::INTERNAL, "the sleep was asked to fail"));
    }
    Ok(SleepResponse { slept: duration }.to_json())
}
