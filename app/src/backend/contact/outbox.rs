//! The CRM outbox: a background task that posts stored submissions whose
//! `crm_state` is `pending` and due. The queue *is* the tables, so pending
//! posts survive a restart. A failure is retried with exponential backoff
//! until `max_attempts`, then marked `failed` (an admin can re-send it).
//! When the CRM says its credits are exhausted, posting pauses for the
//! cool-down while the site keeps accepting and storing.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::SqlitePool;
use tokio::sync::Notify;

use super::crm::{Crm, Outgoing, Posted};
use super::store;
use super::Kind;
use crate::backend::write_gate::WriteGate;

/// How the outbox behaves.
#[derive(Clone, Debug)]
pub struct OutboxSettings {
    /// Attempts before a post is marked `failed`.
    pub max_attempts: i64,
    /// The pause after "credits exhausted".
    pub cooldown: Duration,
    /// The first retry delay; each further one doubles, up to an hour.
    pub retry_base: Duration,
}

pub use crate::contract::contact::CrmHealth;

pub struct Outbox {
    pool: SqlitePool,
    gate: Arc<WriteGate>,
    crm: Option<Crm>,
    settings: OutboxSettings,
    wake: Notify,
    health: Mutex<CrmHealth>,
    paused_until: Mutex<Option<tokio::time::Instant>>,
}

const BATCH: i64 = 20;
const IDLE: Duration = Duration::from_secs(60);
const MAX_RETRY: Duration = Duration::from_secs(3600);

fn now_text() -> String {
    jiff::Timestamp::now().to_string()
}

impl Outbox {
    pub fn new(
        pool: SqlitePool,
        gate: Arc<WriteGate>,
        crm: Option<Crm>,
        settings: OutboxSettings,
    ) -> Arc<Self> {
        let health = CrmHealth {
            configured: crm.is_some(),
            ..CrmHealth::default()
        };
        Arc::new(Self {
            pool,
            gate,
            crm,
            settings,
            wake: Notify::new(),
            health: Mutex::new(health),
            paused_until: Mutex::new(None),
        })
    }

    pub fn is_configured(&self) -> bool {
        self.crm.is_some()
    }

    /// A new submission is waiting: post it now (unless paused).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    pub fn health(&self) -> CrmHealth {
        self.health
            .lock()
            .map(|health| health.clone())
            .unwrap_or_default()
    }

    /// Runs until the process ends. Does nothing without a CRM.
    pub async fn run(self: Arc<Self>) {
        let Some(crm) = &self.crm else { return };
        // Ends with the database: the server closes the pool on shutdown.
        while !self.pool.is_closed() {
            if let Some(until) = self.pause() {
                tokio::time::sleep_until(until).await;
                self.resume();
                continue;
            }
            let worked = match self.drain_once(crm).await {
                Ok(worked) => worked,
                Err(error) => {
                    tracing::error!(%error, "CRM outbox could not read its queue");
                    false
                }
            };
            if worked {
                continue;
            }
            let wait = self.next_due_in().await.unwrap_or(IDLE).min(IDLE);
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(wait) => {}
            }
        }
    }

    fn pause(&self) -> Option<tokio::time::Instant> {
        self.paused_until.lock().ok().and_then(|until| *until)
    }

    fn resume(&self) {
        if let Ok(mut until) = self.paused_until.lock() {
            *until = None;
        }
        if let Ok(mut health) = self.health.lock() {
            health.paused_until = None;
        }
        tracing::info!("CRM cool-down over; posting again");
    }

    /// Posts every due submission once; true when there was any.
    async fn drain_once(&self, crm: &Crm) -> Result<bool, sqlx::Error> {
        let mut worked = false;
        for kind in Kind::ALL {
            for outgoing in self.due(kind).await? {
                worked = true;
                let posted = match kind {
                    Kind::Lead => crm.post_lead(&outgoing).await,
                    Kind::Support => crm.post_support(&outgoing).await,
                };
                if self.record(kind, &outgoing, posted).await? {
                    return Ok(true);
                }
            }
        }
        Ok(worked)
    }

    async fn due(&self, kind: Kind) -> Result<Vec<Outgoing>, sqlx::Error> {
        store::due(&self.pool, kind, BATCH).await
    }

    /// Seconds until the earliest pending post is due.
    async fn next_due_in(&self) -> Option<Duration> {
        let mut soonest: Option<f64> = None;
        for kind in Kind::ALL {
            let seconds = store::seconds_until_due(&self.pool, kind)
                .await
                .ok()
                .flatten();
            soonest = match (soonest, seconds) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        soonest.map(|seconds| Duration::from_secs_f64(seconds.max(0.0) + 0.05))
    }

    /// Writes the outcome; true when posting must pause (credits exhausted).
    async fn record(
        &self,
        kind: Kind,
        outgoing: &Outgoing,
        posted: Posted,
    ) -> Result<bool, sqlx::Error> {
        let table = kind.table();
        let _turn = self.gate.enter().await;
        match posted {
            Posted::Sent => {
                store::mark_sent(&self.pool, kind, outgoing.id).await?;
                if let Ok(mut health) = self.health.lock() {
                    health.last_sent_at = Some(now_text());
                }
                Ok(false)
            }
            Posted::Exhausted(message) => {
                let cooldown = self.settings.cooldown;
                store::postpone(&self.pool, kind, outgoing.id, &message, cooldown).await?;
                let until = jiff::Timestamp::now()
                    .checked_add(jiff::SignedDuration::try_from(cooldown).unwrap_or_default())
                    .map(|at| at.to_string())
                    .ok();
                tracing::warn!(%message, cooldown = ?cooldown, "CRM credits exhausted; pausing CRM sync, submissions are still stored");
                if let Ok(mut paused) = self.paused_until.lock() {
                    *paused = Some(tokio::time::Instant::now() + cooldown);
                }
                if let Ok(mut health) = self.health.lock() {
                    health.paused_until = until;
                    health.last_error = Some(message);
                }
                Ok(true)
            }
            Posted::Failed(message) => {
                let attempts = outgoing.crm_attempts + 1;
                let give_up = attempts >= self.settings.max_attempts;
                let delay = self
                    .settings
                    .retry_base
                    .saturating_mul(1_u32 << attempts.clamp(0, 20))
                    .min(MAX_RETRY);
                let attempt = store::FailedAttempt {
                    attempts,
                    message: &message,
                    give_up,
                    retry_in: delay,
                };
                store::record_failure(&self.pool, kind, outgoing.id, &attempt).await?;
                tracing::warn!(table, id = outgoing.id, attempts, give_up, %message, "CRM post failed");
                if let Ok(mut health) = self.health.lock() {
                    health.last_error = Some(message);
                }
                Ok(false)
            }
        }
    }
}
