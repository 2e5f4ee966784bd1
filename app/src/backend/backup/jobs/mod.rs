//! The backup feature's operation kinds: `backup`, `restore_check` and
//! `restore`, and how the first two are taken back up after a restart.

mod restore;
mod restore_check;
mod take;

use std::path::PathBuf;

use serde_json::Value;
use sqlx::SqlitePool;

use super::BackupSettings;
use crate::backend::operations::messages::{Message, RestoreCheckMetadata, RestoreMetadata};
use crate::backend::operations::{job, Engine, Job, JobContext, Running};
use crate::domain::operation_kind::OperationKind;

/// What the backup jobs work with: the live database, `DATA_DIR/backups`
/// and the retention and restore-check settings.
#[derive(Clone)]
pub struct Backups {
    pool: SqlitePool,
    dir: PathBuf,
    settings: BackupSettings,
}

impl Backups {
    pub fn new(pool: SqlitePool, dir: PathBuf, settings: BackupSettings) -> Self {
        Self {
            pool,
            dir,
            settings,
        }
    }

    /// Whether `name` is a backup file in `DATA_DIR/backups`.
    pub fn has(&self, name: &str) -> bool {
        self.dir.join(name).is_file()
    }

    /// A backup kept to the newest `BACKUP_KEEP`.
    pub fn backup(&self) -> impl Job {
        TakeBackup(self.clone())
    }

    /// A restore check of `backup_file`, or of the newest backup.
    pub fn restore_check(&self, backup_file: Option<String>) -> impl Job {
        RestoreCheck {
            backups: self.clone(),
            backup_file,
        }
    }

    /// A backup into the live database (the current one saved first).
    pub fn restore(&self, backup_file: String) -> impl Job {
        Restore {
            backups: self.clone(),
            backup_file,
        }
    }

    /// A backup and a restore check start again after a restart: a backup
    /// is a new copy and a check only reads. A restore does not: whether it
    /// replaced the database before the restart is for a person to look
    /// at, not to do twice.
    pub fn register(&self, engine: &Engine) {
        let backups = self.clone();
        engine.resume_with(
            OperationKind::Backup,
            Box::new(move |_| Some(Box::new(backups.backup()))),
        );
        let backups = self.clone();
        engine.resume_with(
            OperationKind::RestoreCheck,
            Box::new(move |fields| {
                Some(Box::new(
                    backups.restore_check(job::string_field(fields, "backupFile")),
                ))
            }),
        );
    }
}

struct TakeBackup(Backups);

impl Job for TakeBackup {
    fn kind(&self) -> OperationKind {
        OperationKind::Backup
    }

    fn parameters(&self) -> Value {
        Value::Object(serde_json::Map::new())
    }

    fn run<'a>(&'a self, context: &'a JobContext) -> Running<'a> {
        Box::pin(take::run(context, &self.0))
    }
}

struct RestoreCheck {
    backups: Backups,
    /// The newest backup when `None`.
    backup_file: Option<String>,
}

impl Job for RestoreCheck {
    fn kind(&self) -> OperationKind {
        OperationKind::RestoreCheck
    }

    fn parameters(&self) -> Value {
        RestoreCheckMetadata {
            backup_file: self.backup_file.clone().unwrap_or_default(),
            ..Default::default()
        }
        .to_json()
    }

    fn run<'a>(&'a self, context: &'a JobContext) -> Running<'a> {
        Box::pin(restore_check::run(
            context,
            &self.backups,
            self.backup_file.as_deref(),
        ))
    }
}

struct Restore {
    backups: Backups,
    backup_file: String,
}

impl Job for Restore {
    fn kind(&self) -> OperationKind {
        OperationKind::Restore
    }

    fn parameters(&self) -> Value {
        RestoreMetadata {
            backup_file: self.backup_file.clone(),
            ..Default::default()
        }
        .to_json()
    }

    fn run<'a>(&'a self, context: &'a JobContext) -> Running<'a> {
        Box::pin(restore::run(context, &self.backups, &self.backup_file))
    }
}
