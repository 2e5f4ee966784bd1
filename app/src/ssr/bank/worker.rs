//! The automatic sync: every interval an administrator sets (4 hours by
//! default), each connection not disconnected and not synced in the last
//! hour is synced, oldest first, a few seconds apart. A connection's failure
//! is recorded on it and the others go on. It calls the same `sync::run` as
//! a manual sync, so both give the same result; whatever a sync does after
//! writing (matching, once it exists) is inside `sync::run`, never repeated
//! here.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::SqlitePool;
use tokio::sync::Notify;

use super::simplefin::Provider;
use super::sync;
use crate::contract::bank::WorkerState;
use crate::domain::bank::sync_window::SyncReason;
use crate::ssr::secrets::Keyring;
use crate::ssr::settings::{self, Scope};

/// The interval's setting and its default.
const INTERVAL_KEY: &str = "bank_sync_interval_hours";
pub const DEFAULT_INTERVAL_HOURS: u32 = 4;
pub const MAX_INTERVAL_HOURS: u32 = 168;
/// A connection synced this recently is skipped.
const FRESH: &str = "-1 hour";
/// The pause between two connections, easy on the provider.
pub const PAUSE: Duration = Duration::from_secs(3);

pub async fn interval_hours(pool: &SqlitePool) -> Result<u32, sqlx::Error> {
    Ok(settings::get(pool, Scope::Instance, INTERVAL_KEY)
        .await?
        .and_then(|text| text.parse().ok())
        .filter(|hours| (1..=MAX_INTERVAL_HOURS).contains(hours))
        .unwrap_or(DEFAULT_INTERVAL_HOURS))
}

pub async fn set_interval_hours(pool: &SqlitePool, hours: u32) -> Result<(), sqlx::Error> {
    settings::set(pool, Scope::Instance, INTERVAL_KEY, &hours.to_string()).await
}

/// What one pass did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    pub synced: u32,
    pub failed: u32,
}

/// One pass over the due connections.
pub async fn pass(
    pool: &SqlitePool,
    keyring: &Arc<Keyring>,
    provider: &Provider,
    pause: Duration,
) -> Result<Pass, sqlx::Error> {
    let due: Vec<i64> = sqlx::query_scalar(&format!(
        "SELECT id FROM bank_connections
         WHERE status <> 'disconnected'
           AND (last_synced_at IS NULL
                OR last_synced_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '{FRESH}'))
         ORDER BY last_synced_at IS NOT NULL, last_synced_at, id"
    ))
    .fetch_all(pool)
    .await?;
    let mut done = Pass::default();
    for (index, id) in due.into_iter().enumerate() {
        if index > 0 {
            tokio::time::sleep(pause).await;
        }
        let now = jiff::Timestamp::now().as_second();
        match sync::run(
            pool,
            keyring,
            provider,
            id,
            SyncReason::Routine,
            now,
            |_, _, _| {},
        )
        .await
        {
            Ok(_) => done.synced += 1,
            Err(error) => {
                // Already recorded on the connection by `sync::run`.
                tracing::warn!(connection = id, %error, "automatic bank sync failed");
                done.failed += 1;
            }
        }
    }
    Ok(done)
}

/// The worker: its state for Admin, and a bell to run a pass now.
#[derive(Default)]
pub struct Worker {
    state: Mutex<WorkerState>,
    wake: Notify,
    reschedule: Notify,
}

impl Worker {
    pub fn state(&self) -> WorkerState {
        self.state
            .lock()
            .map(|state| state.clone())
            .unwrap_or_default()
    }

    /// Runs a pass now instead of at the next interval.
    pub fn run_now(&self) {
        self.wake.notify_one();
    }

    /// Starts the wait again with the interval as now set.
    pub fn reschedule(&self) {
        self.reschedule.notify_one();
    }

    fn update(&self, change: impl FnOnce(&mut WorkerState)) {
        if let Ok(mut state) = self.state.lock() {
            change(&mut state);
        }
    }

    /// Runs for as long as the process does: waits the interval (or the
    /// bell), then passes over the due connections while bank sync is on.
    pub fn spawn(
        self: &Arc<Self>,
        pool: SqlitePool,
        keyring: Arc<Keyring>,
        provider: Provider,
        enabled_by_default: bool,
    ) {
        let worker = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                let hours = interval_hours(&pool)
                    .await
                    .unwrap_or(DEFAULT_INTERVAL_HOURS);
                let wait = Duration::from_secs(u64::from(hours) * 3600);
                let next = jiff::Timestamp::now()
                    .checked_add(jiff::SignedDuration::from_secs(i64::from(hours) * 3600))
                    .ok()
                    .map(|at| at.to_string());
                worker.update(|state| state.next_run_at = next);
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    () = worker.wake.notified() => {}
                    () = worker.reschedule.notified() => continue,
                }
                let enabled = super::service::enabled(&pool, enabled_by_default).await;
                if !enabled.unwrap_or(false) {
                    continue;
                }
                worker.update(|state| state.running = true);
                let result = pass(&pool, &keyring, &provider, PAUSE).await;
                let finished = jiff::Timestamp::now().to_string();
                worker.update(|state| {
                    state.running = false;
                    state.last_run_at = Some(finished);
                    if let Ok(done) = result {
                        state.last_synced = done.synced;
                        state.last_failed = done.failed;
                    }
                });
                if let Err(error) = result {
                    tracing::error!(%error, "automatic bank sync could not read the connections");
                }
            }
        });
    }
}
