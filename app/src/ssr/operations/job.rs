//! A job: the work behind one operation kind, with its parameters, and the
//! one place that dispatches a kind to its work (`kinds::…::run`). A job
//! reports progress through its [`JobContext`], watches the context's
//! cancellation token at its safe points, and ends with the response
//! message's fields or a status.

use std::time::Duration;

use serde_json::{Map, Value};

use super::context::{JobContext, Resources};
use super::kinds;
use super::messages::{self, Message};
use super::proto_json;
use super::record::{Outcome, Record};
use crate::domain::bank::sync_window::SyncReason;
use crate::domain::operation_kind::OperationKind;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    Backup,
    /// The newest backup when `backup_file` is `None`.
    RestoreCheck {
        backup_file: Option<String>,
    },
    /// A backup into the live database (the current one saved first).
    Restore {
        backup_file: String,
    },
    ReencryptSecrets,
    Sleep {
        duration: Duration,
        fail: bool,
    },
    /// One connection: the seed sync of a new connection, or a routine one.
    BankSync {
        connection: i64,
        reason: SyncReason,
    },
    /// Every connection of the owner, in turn.
    BankSyncAll {
        connections: Vec<i64>,
    },
    /// One connection's whole seed window, again.
    BankBackfill {
        connection: i64,
    },
    /// The daily reminders.
    NotificationsRun,
    /// A statement import's preview.
    StatementPreview {
        import: i64,
    },
    /// A previewed statement import's commit.
    StatementImport {
        import: i64,
    },
}

impl Job {
    pub fn kind(&self) -> OperationKind {
        match self {
            Self::Backup => OperationKind::Backup,
            Self::RestoreCheck { .. } => OperationKind::RestoreCheck,
            Self::Restore { .. } => OperationKind::Restore,
            Self::ReencryptSecrets => OperationKind::ReencryptSecrets,
            Self::Sleep { .. } => OperationKind::Sleep,
            Self::BankSync { .. } => OperationKind::BankSync,
            Self::BankSyncAll { .. } => OperationKind::BankSyncAll,
            Self::BankBackfill { .. } => OperationKind::BankBackfill,
            Self::NotificationsRun => OperationKind::NotificationsRun,
            Self::StatementPreview { .. } => OperationKind::StatementPreview,
            Self::StatementImport { .. } => OperationKind::StatementImport,
        }
    }

    /// The metadata an operation starts with: its parameters, no progress.
    pub fn initial_metadata(&self) -> Value {
        match self {
            Self::Backup | Self::ReencryptSecrets | Self::NotificationsRun => {
                Value::Object(Map::new())
            }
            Self::RestoreCheck { backup_file } => messages::RestoreCheckMetadata {
                backup_file: backup_file.clone().unwrap_or_default(),
                ..Default::default()
            }
            .to_json(),
            Self::Restore { backup_file } => messages::RestoreMetadata {
                backup_file: backup_file.clone(),
                ..Default::default()
            }
            .to_json(),
            Self::Sleep { duration, fail } => messages::SleepMetadata {
                duration: *duration,
                fail: *fail,
            }
            .to_json(),
            Self::BankSync { connection, reason } => {
                kinds::bank_sync::parameters(&[*connection], *reason).to_json()
            }
            Self::BankSyncAll { connections } => {
                kinds::bank_sync::parameters(connections, SyncReason::Routine).to_json()
            }
            Self::BankBackfill { connection } => {
                kinds::bank_sync::parameters(&[*connection], SyncReason::Backfill).to_json()
            }
            Self::StatementPreview { import } | Self::StatementImport { import } => {
                kinds::statements::parameters(*import).to_json()
            }
        }
    }

    /// The job an unfinished record stands for, read back from its metadata.
    pub fn from_record(record: &Record) -> Option<Self> {
        let fields = record.metadata_fields();
        match record.kind()? {
            OperationKind::Backup => Some(Self::Backup),
            OperationKind::ReencryptSecrets => Some(Self::ReencryptSecrets),
            OperationKind::NotificationsRun => Some(Self::NotificationsRun),
            OperationKind::RestoreCheck => Some(Self::RestoreCheck {
                backup_file: fields
                    .get("backupFile")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            }),
            OperationKind::Restore => Some(Self::Restore {
                backup_file: fields.get("backupFile").and_then(Value::as_str)?.to_owned(),
            }),
            OperationKind::Sleep => Some(Self::Sleep {
                duration: fields
                    .get("duration")
                    .and_then(Value::as_str)
                    .and_then(|text| proto_json::parse_duration(text).ok())?,
                fail: fields.get("fail").and_then(Value::as_bool).unwrap_or(false),
            }),
            OperationKind::BankSync => Some(Self::BankSync {
                connection: *bank_connections(&fields).first()?,
                reason: fields
                    .get("reason")
                    .and_then(Value::as_str)
                    .and_then(kinds::bank_sync::parse_reason)?,
            }),
            OperationKind::BankSyncAll => Some(Self::BankSyncAll {
                connections: bank_connections(&fields),
            }),
            OperationKind::BankBackfill => Some(Self::BankBackfill {
                connection: *bank_connections(&fields).first()?,
            }),
            OperationKind::StatementPreview => Some(Self::StatementPreview {
                import: kinds::statements::import_of(&fields)?,
            }),
            OperationKind::StatementImport => Some(Self::StatementImport {
                import: kinds::statements::import_of(&fields)?,
            }),
        }
    }

    pub async fn run(&self, context: &JobContext, resources: &Resources) -> Outcome {
        let result = match self {
            Self::Backup => kinds::backup::run(context, resources).await,
            Self::RestoreCheck { backup_file } => {
                kinds::restore_check::run(context, resources, backup_file.as_deref()).await
            }
            Self::Restore { backup_file } => {
                kinds::restore::run(context, resources, backup_file).await
            }
            Self::ReencryptSecrets => kinds::reencrypt_secrets::run(context, resources).await,
            Self::NotificationsRun => {
                kinds::notifications_run::run(context, resources, context.id()).await
            }
            Self::Sleep { duration, fail } => kinds::sleep::run(context, *duration, *fail).await,
            Self::BankSync { connection, reason } => {
                kinds::bank_sync::run(context, resources, &[*connection], *reason).await
            }
            Self::BankSyncAll { connections } => {
                kinds::bank_sync::run(context, resources, connections, SyncReason::Routine).await
            }
            Self::BankBackfill { connection } => {
                kinds::bank_sync::run(context, resources, &[*connection], SyncReason::Backfill)
                    .await
            }
            Self::StatementPreview { import } => {
                kinds::statements::preview(context, resources, *import).await
            }
            Self::StatementImport { import } => {
                kinds::statements::commit(context, resources, *import).await
            }
        };
        match result {
            Ok(response) => Outcome::Response(response),
            Err(status) => Outcome::Error(status),
        }
    }
}

/// The connection ids a bank sync's metadata names (int64 as strings).
fn bank_connections(fields: &Map<String, Value>) -> Vec<i64> {
    fields
        .get("connectionIds")
        .and_then(Value::as_array)
        .map(|ids| {
            ids.iter()
                .filter_map(|id| id.as_str().and_then(|text| text.parse().ok()))
                .collect()
        })
        .unwrap_or_default()
}
