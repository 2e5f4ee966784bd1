//! Starting the daily run: now (an administrator asked), or on schedule.
//! One run at a time: asked while one runs, the answer is that run.

use std::sync::Arc;
use std::time::Duration;

use sqlx::SqlitePool;

use super::error::NotifyError;
use super::jobs::NotificationsRun;
use super::notifier::Notifier;
use super::schedule;
use super::store;
use crate::backend::operations::{Engine, Record, Viewer};

/// Starts a run, or answers with the one running.
pub async fn start(
    engine: &Arc<Engine>,
    notifier: &Arc<Notifier>,
    owner: Option<i64>,
) -> Result<Record, NotifyError> {
    let _one_at_a_time = notifier.start_lock.lock().await;
    let running = notifier.running();
    if let Some(id) = running.filter(|id| engine.is_live(id)) {
        let everyone = Viewer {
            user_id: 0,
            admin: true,
        };
        if let Ok(record) = engine.get(everyone, &id).await {
            return Ok(record);
        }
    }
    let record = engine
        .start(
            owner,
            NotificationsRun::new(Arc::clone(notifier), engine.pool().clone()),
        )
        .await
        .map_err(|error| NotifyError::Operations(error.to_string()))?;
    notifier.set_running(Some(record.id.clone()));
    Ok(record)
}

/// The in-process scheduler: a run at `REMINDER_HOUR` each day, and one at
/// start-up when today's hour has passed and no run started since; none
/// while no user has a channel.
pub fn spawn_scheduler(engine: Arc<Engine>, notifier: Arc<Notifier>, pool: SqlitePool) {
    tokio::spawn(async move {
        let hour = notifier.settings.reminder_hour;
        loop {
            let now = jiff::Zoned::now();
            if let Some(at) = schedule::due_since(&now, hour) {
                // Nobody to remind: no run (and no operation) at all.
                let anyone = store::users_with_channels(&pool)
                    .await
                    .is_ok_and(|users| !users.is_empty());
                match store::has_run_since(&pool, &at.timestamp().to_string()).await {
                    Ok(false) if anyone => {
                        if let Err(error) = start(&engine, &notifier, None).await {
                            tracing::error!(%error, "the daily reminders run could not start");
                        }
                    }
                    Ok(_) => {}
                    Err(error) => {
                        tracing::error!(%error, "the reminders schedule could not be read")
                    }
                }
            }
            // Sleep to the next run time, waking hourly in case the clock
            // or the zone moved.
            let wait = schedule::next_after(&jiff::Zoned::now(), hour)
                .and_then(|next| {
                    let left = next.timestamp().as_second() - jiff::Timestamp::now().as_second();
                    u64::try_from(left).ok()
                })
                .unwrap_or(3600)
                .clamp(1, 3600);
            tokio::time::sleep(Duration::from_secs(wait)).await;
        }
    });
}
