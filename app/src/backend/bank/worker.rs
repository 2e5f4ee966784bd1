//! The automatic sync: every interval an administrator sets (4 hours by
//! default), each connection not disconnected and not synced in the last
//! hour is synced, oldest first, a few seconds apart. A connection's failure
//! is recorded on it and the others go on. Each sync takes one of the
//! server's bank-job places (as a manual sync does), each user's
//! connections get `USER_BUDGET` of a pass (`BANK_SYNC_USER_BUDGET_SECONDS`) (the rest wait for the next
//! one, so one user's slow bank cannot starve the others), and a
//! connection in `error` is backed off: after n failures in a row it is
//! skipped for `BACKOFF_BASE` × 2^(n−1), at most `BACKOFF_MAX`. The backoff
//! lives in memory: a restart tries every connection once more. It calls the same `sync::run` as
//! a manual sync, so both give the same result; whatever a sync does after
//! writing (matching, once it exists) is inside `sync::run`, never repeated
//! here.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sqlx::SqlitePool;
use tokio::sync::Notify;

use super::simplefin::Provider;
use super::sync;
use crate::backend::secrets::Keyring;
use crate::backend::settings::{self, Scope};
use crate::contract::bank::WorkerState;
use crate::domain::bank::sync_window::SyncReason;

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

/// How long one user's syncs may take in one pass, unless the settings
/// say otherwise.
pub const USER_BUDGET: Duration = Duration::from_secs(120);
/// The first wait after a connection failed.
pub const BACKOFF_BASE: Duration = Duration::from_secs(3600);
/// The longest wait between tries of a failing connection.
pub const BACKOFF_MAX: Duration = Duration::from_secs(7 * 24 * 3600);

/// How long a connection that failed `failures` times in a row waits
/// before the worker tries it again.
pub fn backoff(failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(16);
    BACKOFF_BASE.saturating_mul(1 << doublings).min(BACKOFF_MAX)
}

/// A failing connection's record: failures in a row, and when it may be
/// tried again.
#[derive(Clone, Copy, Debug)]
struct Failing {
    failures: u32,
    retry_at: Instant,
}

/// What one pass did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    pub synced: u32,
    pub failed: u32,
    /// Failing connections left alone this pass (backed off).
    pub backed_off: u32,
    /// Connections left for the next pass: their user's budget was spent.
    pub deferred: u32,
}

/// One pass over the due connections.
async fn pass(
    pool: &SqlitePool,
    keyring: &Arc<Keyring>,
    provider: &Provider,
    pause: Duration,
    budget: Duration,
    failing: &Mutex<HashMap<i64, Failing>>,
) -> Result<Pass, sqlx::Error> {
    let due = super::store::connections::due_for_sync(pool, FRESH).await?;
    let failing_now = |id: i64| {
        failing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&id)
            .copied()
    };
    let mut spent: HashMap<i64, Duration> = HashMap::new();
    let mut done = Pass::default();
    let mut first = true;
    for (id, user_id, status) in due {
        if status != "error" {
            // Fixed since (a manual sync, a reconnect): no backoff left.
            failing
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(&id);
        } else if failing_now(id).is_some_and(|record| Instant::now() < record.retry_at) {
            done.backed_off += 1;
            continue;
        }
        if spent.get(&user_id).is_some_and(|used| *used >= budget) {
            done.deferred += 1;
            continue;
        }
        if !first {
            tokio::time::sleep(pause).await;
        }
        first = false;
        let Ok(_turn) = Arc::clone(provider.jobs()).acquire_owned().await else {
            break;
        };
        let started = Instant::now();
        let now = crate::backend::clock::now().as_second();
        let result = sync::run(
            pool,
            keyring,
            provider,
            id,
            SyncReason::Routine,
            now,
            |_, _, _| {},
        )
        .await;
        *spent.entry(user_id).or_default() += started.elapsed();
        let mut failing = failing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match result {
            Ok(_) => {
                failing.remove(&id);
                done.synced += 1;
            }
            Err(error) => {
                // Already recorded on the connection by `sync::run`.
                let failures = failing.get(&id).map_or(0, |record| record.failures) + 1;
                let wait = backoff(failures);
                tracing::warn!(connection = id, %error, failures, retry_in_s = wait.as_secs(), "automatic bank sync failed");
                failing.insert(
                    id,
                    Failing {
                        failures,
                        retry_at: Instant::now() + wait,
                    },
                );
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
    failing: Mutex<HashMap<i64, Failing>>,
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
        budget: Duration,
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
                let result = pass(&pool, &keyring, &provider, PAUSE, budget, &worker.failing).await;
                let finished = jiff::Timestamp::now().to_string();
                worker.update(|state| {
                    state.running = false;
                    state.last_run_at = Some(finished);
                    if let Ok(done) = result {
                        state.last_synced = done.synced;
                        state.last_failed = done.failed;
                        state.last_backed_off = done.backed_off;
                        state.last_deferred = done.deferred;
                    }
                });
                if let Err(error) = result {
                    tracing::error!(%error, "automatic bank sync could not read the connections");
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_connection_waits_longer_each_time_up_to_a_week() {
        assert_eq!(backoff(1), Duration::from_secs(3600));
        assert_eq!(backoff(2), Duration::from_secs(2 * 3600));
        assert_eq!(backoff(4), Duration::from_secs(8 * 3600));
        assert_eq!(backoff(9), BACKOFF_MAX);
        assert_eq!(backoff(u32::MAX), BACKOFF_MAX);
    }
}
