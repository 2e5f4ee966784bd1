//! Bank sync as the routes and server functions call it: the switch an
//! administrator turns, connecting and reconnecting (claim, then the seed
//! sync as an operation), and starting syncs within the per-user limit.

use std::sync::Arc;
use std::time::Duration;

use sqlx::SqlitePool;

use super::jobs::BankSyncs;
use super::simplefin::Provider;
use super::sync_limit::SyncLimit;
use super::worker::{self, Worker};
use super::{connections, store, sync, BankError, BankSettings};
use crate::backend::operations::Engine;
use crate::backend::outbound::Outbound;
use crate::backend::secrets::{KeySource, Keyring};
use crate::backend::settings::{self, Scope};
use crate::contract::bank::{
    BankAccount, BankConnections, BankSyncStatus, ConnectBank, Connected, UpdateBankSync,
};
use crate::contract::operations::Operation;
use crate::domain::bank::sync_window::SyncReason;
use crate::domain::bank::sync_window::{LOOKBACK_CAP_DAYS, SEED_DAYS};

/// The instance setting an administrator's choice is kept in.
const ENABLED_KEY: &str = "bank_sync_enabled";

/// Bank sync as its use cases need it, assembled once at start-up: the
/// database, the key that seals access URLs, the operations engine and the
/// feature's jobs, the provider's client, the sync limit, the automatic
/// sync's worker and the switch's starting value.
pub struct Bank {
    pool: SqlitePool,
    keyring: Arc<Keyring>,
    operations: Arc<Engine>,
    syncs: BankSyncs,
    pub provider: Provider,
    pub sync_limit: Arc<SyncLimit>,
    pub enabled_by_default: bool,
    pub worker: Arc<Worker>,
    /// Whether the built-in demo bank can be connected.
    pub demo: bool,
}

impl Bank {
    /// The feature, its operation kinds registered with `operations`.
    /// Needs the runtime (the sync limit forgets idle users on a timer).
    /// The provider is called through `outbound`, the one guard.
    pub fn new(
        settings: &BankSettings,
        outbound: Outbound,
        pool: SqlitePool,
        keyring: Arc<Keyring>,
        operations: Arc<Engine>,
    ) -> Self {
        let provider = Provider::new(settings.timeout, settings.allow_http).with_outbound(outbound);
        let syncs = BankSyncs::new(pool.clone(), Arc::clone(&keyring), provider.clone());
        syncs.register(&operations);
        Self {
            pool,
            keyring,
            operations,
            syncs,
            provider,
            sync_limit: super::sync_limit::sync_limit().spawn_pruning(),
            enabled_by_default: settings.enabled,
            worker: Arc::new(Worker::default()),
            demo: settings.demo,
        }
    }

    /// Starts the automatic sync (`budget`: what one user's connections may
    /// spend of a pass).
    pub fn spawn_worker(&self, budget: Duration) {
        self.worker.spawn(
            self.pool.clone(),
            Arc::clone(&self.keyring),
            self.provider.clone(),
            self.enabled_by_default,
            budget,
        );
    }

    /// Whether bank sync is on: the administrator's choice, or
    /// `BANK_SYNC_ENABLED` until one is made.
    pub async fn enabled(&self) -> Result<bool, sqlx::Error> {
        enabled(&self.pool, self.enabled_by_default).await
    }

    pub async fn set_enabled(&self, enabled: bool) -> Result<(), BankError> {
        Ok(settings::set_flag(&self.pool, Scope::Instance, ENABLED_KEY, enabled).await?)
    }

    /// `Disabled` (403) while bank sync is off.
    pub async fn require_enabled(&self) -> Result<(), BankError> {
        if self.enabled().await? {
            Ok(())
        } else {
            Err(BankError::Disabled)
        }
    }

    /// Counts a request that starts syncs (a sync, a sync of all, a
    /// backfill, a connect or a reconnect, the demo bank's too), whether or
    /// not it then succeeds; 429 with the wait over the limit.
    pub fn admit_sync(&self, user_id: i64) -> Result<(), BankError> {
        self.sync_limit
            .check(&user_id)
            .map_err(|wait| BankError::TooManySyncs {
                retry_after: wait.max(Duration::from_secs(1)),
            })
    }
}

/// Whether bank sync is on: the stored choice, or `default` until one is
/// made.
pub async fn enabled(pool: &SqlitePool, default: bool) -> Result<bool, sqlx::Error> {
    settings::get_flag(pool, Scope::Instance, ENABLED_KEY, default).await
}

/// The user's connections with their accounts, the windows the page
/// states, and whether the demo bank is offered (what REST's
/// `GET /api/bank/connections` and the page's server function answer).
pub async fn overview(bank: &Bank, user_id: i64) -> Result<BankConnections, BankError> {
    bank.require_enabled().await?;
    Ok(BankConnections {
        connections: store::connections(&bank.pool, user_id).await?,
        seed_days: SEED_DAYS,
        lookback_cap_days: LOOKBACK_CAP_DAYS,
        demo_bank: bank.demo,
    })
}

/// How long a connect may spend reading the new connection's accounts,
/// from the request's start: the request's own limit is 30 s.
const ACCOUNTS_BY: Duration = Duration::from_secs(25);

/// Claims the setup token on a new connection (or, with `reconnect`, on
/// that connection), reads its accounts and balances, and starts its seed
/// sync. Counts against the per-user sync limit.
pub async fn connect(
    bank: &Bank,
    user_id: i64,
    request: ConnectBank,
    reconnect: Option<i64>,
) -> Result<Connected, BankError> {
    let started = tokio::time::Instant::now();
    bank.require_enabled().await?;
    bank.admit_sync(user_id)?;
    let id = if bank.demo && request.setup_token.trim() == super::demo::SETUP_TOKEN {
        connections::connect_demo(&bank.pool, &bank.keyring, user_id, reconnect).await?
    } else {
        connections::claim(
            &bank.pool,
            &bank.keyring,
            &bank.provider,
            user_id,
            &request.setup_token,
            reconnect,
        )
        .await?
    };
    // The answer carries the accounts (balances, no transactions) when the
    // provider gives them in time; the seed sync writes them anyway.
    let now = crate::backend::clock::now().as_second();
    let read = sync::balances(&bank.pool, &bank.keyring, &bank.provider, id, now);
    match tokio::time::timeout_at(started + ACCOUNTS_BY, read).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => {
            tracing::warn!(connection = id, %error, "reading a new connection's accounts failed; the seed sync will");
        }
        Err(_) => {
            tracing::warn!(
                connection = id,
                "reading a new connection's accounts took too long; the seed sync will"
            );
        }
    }
    let operation = start(bank, user_id, &[id], SyncReason::Seed).await?;
    Ok(Connected {
        connection: store::connection_of(&bank.pool, user_id, id).await?,
        operation,
    })
}

/// Stops syncing one of the user's connections; its history stays.
pub async fn disconnect(bank: &Bank, user_id: i64, id: i64) -> Result<(), BankError> {
    bank.require_enabled().await?;
    connections::disconnect(&bank.pool, &bank.keyring, user_id, id).await?;
    Ok(())
}

/// Switches one of the user's accounts in or out of syncing.
pub async fn set_monitored(
    bank: &Bank,
    user_id: i64,
    id: i64,
    monitored: bool,
) -> Result<BankAccount, BankError> {
    bank.require_enabled().await?;
    store::set_monitored(&bank.pool, user_id, id, monitored).await
}

/// Starts a sync of one connection (`Routine` or `Backfill`), within the
/// limit.
pub async fn sync_one(
    bank: &Bank,
    user_id: i64,
    id: i64,
    reason: SyncReason,
) -> Result<Operation, BankError> {
    bank.require_enabled().await?;
    bank.admit_sync(user_id)?;
    connections::check_syncable(&bank.pool, user_id, id).await?;
    start(bank, user_id, &[id], reason).await
}

/// Starts a sync of every connection of the user, within the limit.
pub async fn sync_all(bank: &Bank, user_id: i64) -> Result<Operation, BankError> {
    bank.require_enabled().await?;
    bank.admit_sync(user_id)?;
    let ids = connections::syncable(&bank.pool, user_id).await?;
    let job = bank.syncs.all(ids);
    let record = bank.operations.start(Some(user_id), job).await?;
    Ok(record.to_operation())
}

async fn start(
    bank: &Bank,
    user_id: i64,
    ids: &[i64],
    reason: SyncReason,
) -> Result<Operation, BankError> {
    let record = match ids {
        [id] => {
            bank.operations
                .start(Some(user_id), bank.syncs.one(*id, reason))
                .await?
        }
        ids => {
            bank.operations
                .start(Some(user_id), bank.syncs.all(ids.to_vec()))
                .await?
        }
    };
    Ok(record.to_operation())
}

/// Admin → Bank Sync: the switch, the interval, the windows, the worker,
/// the key source and every connection's last result.
pub async fn status(bank: &Bank) -> Result<BankSyncStatus, BankError> {
    let pool = &bank.pool;
    let connections = super::store::connections::health(pool).await?;
    Ok(BankSyncStatus {
        enabled: bank.enabled().await?,
        interval_hours: worker::interval_hours(pool).await?,
        seed_days: SEED_DAYS,
        lookback_cap_days: LOOKBACK_CAP_DAYS,
        worker: bank.worker.state(),
        key_source: match bank.keyring.source() {
            KeySource::EnvironmentKey => "TOKEN_ENCRYPTION_KEY",
            KeySource::DatabaseKey => "database key",
        }
        .to_owned(),
        connections,
    })
}

/// Starts the automatic sync now (while bank sync is on).
pub async fn run_now(bank: &Bank) -> Result<BankSyncStatus, BankError> {
    bank.require_enabled().await?;
    bank.worker.run_now();
    status(bank).await
}

/// Turns bank sync on or off and sets the automatic sync's interval.
pub async fn update(bank: &Bank, request: UpdateBankSync) -> Result<BankSyncStatus, BankError> {
    if !(1..=worker::MAX_INTERVAL_HOURS).contains(&request.interval_hours) {
        return Err(BankError::field(
            "intervalHours",
            format!("choose 1 to {} hours", worker::MAX_INTERVAL_HOURS),
        ));
    }
    bank.set_enabled(request.enabled).await?;
    worker::set_interval_hours(&bank.pool, request.interval_hours).await?;
    bank.worker.reschedule();
    status(bank).await
}
