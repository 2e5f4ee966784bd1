//! `bank_sync`, `bank_sync_all`, `bank_backfill`: bank syncs as operations,
//! with progress per account. One connection's failure ends a single sync
//! with the provider's failure in plain words (and changes no data); a
//! sync of all connections records it on that connection, goes on with the
//! others, and fails only when every connection failed. At most
//! `simplefin::JOBS_AT_ONCE` bank jobs run at once across the server; the
//! others wait in turn with `queued: true` in their metadata. All three
//! start again after a restart: ids are stable, so a second fetch
//! duplicates nothing.

use std::sync::Arc;

use serde_json::{Map, Value};
use sqlx::SqlitePool;
use tokio::sync::OwnedSemaphorePermit;

use super::simplefin::Provider;
use super::sync::{self, AccountSynced, SyncReport};
use super::BankError;
use crate::backend::operations::messages::{
    BankAccountSynced, BankSyncFailure, BankSyncMetadata, BankSyncResponse, Message,
};
use crate::backend::operations::{job, percent, Engine, Job, JobContext, Running, Status};
use crate::backend::secrets::Keyring;
use crate::domain::bank::sync_window::SyncReason;
use crate::domain::operation_kind::OperationKind;

/// What the bank syncs work with.
#[derive(Clone)]
pub struct BankSyncs {
    pool: SqlitePool,
    keyring: Arc<Keyring>,
    provider: Provider,
}

impl BankSyncs {
    pub fn new(pool: SqlitePool, keyring: Arc<Keyring>, provider: Provider) -> Self {
        Self {
            pool,
            keyring,
            provider,
        }
    }

    /// One connection: the seed sync of a new connection, a routine one,
    /// or its whole seed window again (a backfill).
    pub fn one(&self, connection: i64, reason: SyncReason) -> impl Job {
        let kind = match reason {
            SyncReason::Backfill => OperationKind::BankBackfill,
            SyncReason::Seed | SyncReason::Routine => OperationKind::BankSync,
        };
        BankSync {
            syncs: self.clone(),
            kind,
            connections: vec![connection],
            reason,
        }
    }

    /// Every connection of the owner, in turn.
    pub fn all(&self, connections: Vec<i64>) -> impl Job {
        BankSync {
            syncs: self.clone(),
            kind: OperationKind::BankSyncAll,
            connections,
            reason: SyncReason::Routine,
        }
    }

    pub fn register(&self, engine: &Engine) {
        for kind in [
            OperationKind::BankSync,
            OperationKind::BankSyncAll,
            OperationKind::BankBackfill,
        ] {
            let syncs = self.clone();
            engine.resume_with(kind, Box::new(move |fields| syncs.resumed(kind, fields)));
        }
    }

    /// The sync an unfinished operation's metadata names.
    fn resumed(&self, kind: OperationKind, fields: &Map<String, Value>) -> Option<Box<dyn Job>> {
        let connections = job::int64_list(fields, "connectionIds");
        let job: Box<dyn Job> = match kind {
            OperationKind::BankSyncAll => Box::new(self.all(connections)),
            OperationKind::BankBackfill => {
                Box::new(self.one(*connections.first()?, SyncReason::Backfill))
            }
            _ => {
                let reason = job::string_field(fields, "reason")?;
                Box::new(self.one(*connections.first()?, parse_reason(&reason)?))
            }
        };
        Some(job)
    }
}

struct BankSync {
    syncs: BankSyncs,
    kind: OperationKind,
    connections: Vec<i64>,
    reason: SyncReason,
}

impl Job for BankSync {
    fn kind(&self) -> OperationKind {
        self.kind
    }

    fn parameters(&self) -> Value {
        parameters(&self.connections, self.reason).to_json()
    }

    fn run<'a>(&'a self, context: &'a JobContext) -> Running<'a> {
        Box::pin(run(context, &self.syncs, &self.connections, self.reason))
    }
}

/// `google.rpc.Code.UNAVAILABLE`: the provider failed, try again later.
const UNAVAILABLE: i32 = 14;
/// `google.rpc.Code.NOT_FOUND`.
const NOT_FOUND: i32 = 5;

fn reason_name(reason: SyncReason) -> &'static str {
    match reason {
        SyncReason::Seed => "seed",
        SyncReason::Backfill => "backfill",
        SyncReason::Routine => "routine",
    }
}

fn parse_reason(name: &str) -> Option<SyncReason> {
    match name {
        "seed" => Some(SyncReason::Seed),
        "backfill" => Some(SyncReason::Backfill),
        "routine" => Some(SyncReason::Routine),
        _ => None,
    }
}

/// The metadata's parameters: which connections, why. Every progress
/// report repeats them, so an operation left unfinished by a restart can
/// be started again from its metadata.
fn parameters(connections: &[i64], reason: SyncReason) -> BankSyncMetadata {
    BankSyncMetadata {
        connection_ids: connections.to_vec(),
        reason: reason_name(reason).to_owned(),
        ..BankSyncMetadata::default()
    }
}

fn account_message(synced: &AccountSynced) -> BankAccountSynced {
    BankAccountSynced {
        account_id: synced.account_id,
        name: synced.name.clone(),
        added: synced.added,
        seen: synced.seen,
        pending: synced.pending,
        monitored: synced.monitored,
    }
}

fn status_of(error: &BankError) -> Status {
    match error {
        BankError::Provider(_) => {
            // In plain words, never with the provider's address.
            tracing::warn!(%error, "bank sync failed at the provider");
            Status::new(UNAVAILABLE, error.to_string())
        }
        BankError::NotFound(_) => Status::new(NOT_FOUND, error.to_string()),
        BankError::Disconnected | BankError::Disabled => {
            Status::new(Status::FAILED_PRECONDITION, error.to_string())
        }
        _ => {
            tracing::error!(%error, "bank sync failed");
            Status::new(Status::INTERNAL, error.to_string())
        }
    }
}

/// Waits for one of the server's bank-job places (`JOBS_AT_ONCE`): while
/// it waits, the metadata says `queued`; a cancel ends the wait.
async fn take_turn(
    context: &JobContext,
    syncs: &BankSyncs,
    connections: &[i64],
    reason: SyncReason,
) -> Result<OwnedSemaphorePermit, Status> {
    let jobs = std::sync::Arc::clone(syncs.provider.jobs());
    if let Ok(permit) = std::sync::Arc::clone(&jobs).try_acquire_owned() {
        return Ok(permit);
    }
    let queued = BankSyncMetadata {
        queued: true,
        ..parameters(connections, reason)
    };
    context.report(queued.to_json(), 0).await;
    let permit = tokio::select! {
        permit = jobs.acquire_owned() => permit
            .map_err(|_| Status::new(Status::INTERNAL, "the bank jobs' queue is closed"))?,
        () = context.cancelled() => return Err(Status::cancelled()),
    };
    context
        .report(parameters(connections, reason).to_json(), 0)
        .await;
    Ok(permit)
}

/// Syncs `connections` in turn (all of a user's, or one), once one of the
/// server's bank-job places is free.
async fn run(
    context: &JobContext,
    syncs: &BankSyncs,
    connections: &[i64],
    reason: SyncReason,
) -> Result<Value, Status> {
    let _turn = take_turn(context, syncs, connections, reason).await?;
    let mut done_accounts: Vec<BankAccountSynced> = Vec::new();
    let mut reports: Vec<SyncReport> = Vec::new();
    let mut failures: Vec<(i64, BankError)> = Vec::new();
    let total = connections.len().max(1);
    for (index, &connection) in connections.iter().enumerate() {
        context.checkpoint()?;
        let now = crate::backend::clock::now().as_second();
        let mut progressed: Vec<(usize, usize, AccountSynced)> = Vec::new();
        let result = sync::run(
            &syncs.pool,
            &syncs.keyring,
            &syncs.provider,
            connection,
            reason,
            now,
            |done, of, synced| progressed.push((done, of, synced.clone())),
        )
        .await;
        for (_, _, synced) in &progressed {
            done_accounts.push(account_message(synced));
        }
        match result {
            Ok(report) => reports.push(report),
            Err(error) => failures.push((connection, error)),
        }
        let progress = BankSyncMetadata {
            accounts: done_accounts.clone(),
            connections_done: i64::try_from(index + 1).unwrap_or(i64::MAX),
            connections_total: i64::try_from(total).unwrap_or(i64::MAX),
            ..parameters(connections, reason)
        };
        context
            .report(
                progress.to_json(),
                percent(
                    i64::try_from(index + 1).unwrap_or(0),
                    i64::try_from(total).unwrap_or(1),
                ),
            )
            .await;
    }
    if reports.is_empty() {
        if let Some((_, error)) = failures.first() {
            return Err(status_of(error));
        }
    }
    let added: i64 = reports
        .iter()
        .flat_map(|report| &report.accounts)
        .map(|account| account.added)
        .sum();
    let matched: i64 = reports.iter().map(|report| i64::from(report.matched)).sum();
    let provider_messages = reports
        .iter()
        .flat_map(|report| report.messages.iter().cloned())
        .collect();
    let failed_connections = failures
        .iter()
        .map(|(connection, error)| BankSyncFailure {
            connection_id: *connection,
            message: error.to_string(),
        })
        .collect();
    Ok(BankSyncResponse {
        accounts: done_accounts,
        transactions_added: added,
        transactions_matched: matched,
        provider_messages,
        failed_connections,
    }
    .to_json())
}
