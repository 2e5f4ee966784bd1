//! A job: the work behind one operation kind, with its parameters. A job
//! reports progress through its [`JobContext`], watches the context's
//! cancellation token at its safe points, and ends with the response
//! message's fields or a status.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};
use sqlx::SqlitePool;
use tokio_util::sync::CancellationToken;

use super::engine::Engine;
use super::kind::Kind;
use super::kinds;
use super::proto_json;
use super::record::{Outcome, Record, Status};
use crate::ssr::secrets::Keyring;

/// What the jobs work with.
pub struct Resources {
    pub pool: SqlitePool,
    pub backups_dir: PathBuf,
    pub backup_keep: usize,
    pub keyring: Arc<Keyring>,
    /// A restore check fails when the backup holds fewer rows.
    pub restore_min_rows: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    Backup,
    /// The newest backup when `backup_file` is `None`.
    RestoreCheck {
        backup_file: Option<String>,
    },
    ReencryptSecrets,
    Sleep {
        duration: Duration,
        fail: bool,
    },
}

impl Job {
    pub fn kind(&self) -> Kind {
        match self {
            Self::Backup => Kind::Backup,
            Self::RestoreCheck { .. } => Kind::RestoreCheck,
            Self::ReencryptSecrets => Kind::ReencryptSecrets,
            Self::Sleep { .. } => Kind::Sleep,
        }
    }

    /// The metadata an operation starts with: its parameters, no progress.
    pub fn initial_metadata(&self) -> Value {
        match self {
            Self::Backup | Self::ReencryptSecrets => Value::Object(Map::new()),
            Self::RestoreCheck { backup_file } => proto_json::Fields::new()
                .string("backupFile", backup_file.as_deref().unwrap_or(""))
                .build(),
            Self::Sleep { duration, fail } => proto_json::Fields::new()
                .message("duration", Value::String(proto_json::duration(*duration)))
                .bool("fail", *fail)
                .build(),
        }
    }

    /// The job an unfinished record stands for, read back from its metadata.
    pub fn from_record(record: &Record) -> Option<Self> {
        let fields = record.metadata_fields();
        match record.kind()? {
            Kind::Backup => Some(Self::Backup),
            Kind::ReencryptSecrets => Some(Self::ReencryptSecrets),
            Kind::RestoreCheck => Some(Self::RestoreCheck {
                backup_file: fields
                    .get("backupFile")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            }),
            Kind::Sleep => Some(Self::Sleep {
                duration: fields
                    .get("duration")
                    .and_then(Value::as_str)
                    .and_then(|text| proto_json::parse_duration(text).ok())?,
                fail: fields.get("fail").and_then(Value::as_bool).unwrap_or(false),
            }),
        }
    }

    pub async fn run(&self, context: &JobContext, resources: &Resources) -> Outcome {
        let result = match self {
            Self::Backup => kinds::backup::run(context, resources).await,
            Self::RestoreCheck { backup_file } => {
                kinds::restore_check::run(context, resources, backup_file.as_deref()).await
            }
            Self::ReencryptSecrets => kinds::reencrypt_secrets::run(context, resources).await,
            Self::Sleep { duration, fail } => kinds::sleep::run(context, *duration, *fail).await,
        };
        match result {
            Ok(response) => Outcome::Response(response),
            Err(status) => Outcome::Error(status),
        }
    }
}

/// A running job's line to its operation.
pub struct JobContext {
    engine: Arc<Engine>,
    id: String,
    cancel: CancellationToken,
}

impl JobContext {
    pub(super) fn new(engine: Arc<Engine>, id: String, cancel: CancellationToken) -> Self {
        Self { engine, id, cancel }
    }

    /// Resolves when a client asks to cancel.
    pub async fn cancelled(&self) {
        self.cancel.cancelled().await;
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// `Err(CANCELLED)` once cancellation was asked for: `?` at a safe point.
    pub fn checkpoint(&self) -> Result<(), Status> {
        if self.is_cancelled() {
            Err(Status::cancelled())
        } else {
            Ok(())
        }
    }

    /// Replaces the metadata with `fields` and the percentage done.
    pub async fn report(&self, fields: Value, percent: i64) {
        let mut metadata = match fields {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        metadata.insert("percentDone".to_owned(), Value::from(percent.clamp(0, 100)));
        if let Err(error) = self.engine.report(&self.id, &Value::Object(metadata)).await {
            tracing::warn!(operation = %self.id, %error, "could not record progress");
        }
    }
}

/// `part` of `whole` in percent.
pub fn percent(part: i64, whole: i64) -> i64 {
    if whole <= 0 {
        0
    } else {
        (part.saturating_mul(100) / whole).clamp(0, 100)
    }
}
