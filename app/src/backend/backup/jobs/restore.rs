//! `restore`: a backup into the live database, while the server runs. The
//! backup is checked first (integrity, schema history, no migration this
//! build does not know, and Tally's own schema object for object); then the
//! current database is saved as a backup of its own (kept until retention
//! would remove it like any other) once the restore holds the write lock,
//! and replaced in the same transaction. The security state stays the live one (credentials,
//! standing, sessions, tokens, invitations, calendar feeds, identities at a
//! provider, notification channels, the sign-in and mail settings and
//! their list of changes); the result says what of the backup's was
//! dropped and what was kept live. Cancelling is possible until the
//! replacing starts.

use serde_json::Value;

use super::Backups;
use crate::backend::backup::{self, BackupError, LiveRestoreError};
use crate::backend::operations::messages::{Message, RestoreMetadata, RestoreResponse};
use crate::backend::operations::{JobContext, Status};

fn phase(name: &str, backup_file: &str) -> Value {
    RestoreMetadata {
        backup_file: backup_file.to_owned(),
        phase: name.to_owned(),
    }
    .to_json()
}

fn refused(message: impl Into<String>) -> Status {
    Status::new(Status::FAILED_PRECONDITION, message)
}

pub async fn run(
    context: &JobContext,
    backups: &Backups,
    backup_file: &str,
) -> Result<Value, Status> {
    if !backup::is_backup_name(backup_file) {
        return Err(Status::new(
            Status::INVALID_ARGUMENT,
            format!("{backup_file:?} is not a backup name (expected bills-<timestamp>.db)"),
        ));
    }
    let source = backups.dir.join(backup_file);
    if !source.is_file() {
        return Err(refused(format!("there is no backup named {backup_file:?}")));
    }
    context.report(phase("checking", backup_file), 0).await;
    backup::verify(&source, 1)
        .await
        .map_err(|error| refused(error.to_string()))?;
    // Tally's own schema at a version this build knows, object for object:
    // nothing of the file runs otherwise.
    let schema = backup::known_schema(&source)
        .await
        .map_err(|error| refused(error.to_string()))?;
    context.checkpoint()?;

    // The save is taken once the restore holds the write lock, so a write
    // made meanwhile is in the save or lands on the restored data; no
    // progress is written while the lock is held (that write would wait).
    context.report(phase("saving", backup_file), 5).await;
    let cancelled = || context.is_cancelled();
    let (progress, _) = tokio::sync::watch::channel(backup::Copied::default());
    // No retention now: it could remove the very backup being restored.
    let save = backup::create_observed(
        &backups.pool,
        &backups.dir,
        usize::MAX,
        &progress,
        &cancelled,
    );
    let restored = backup::restore_live(&backups.pool, &source, &schema, save).await;
    let ((saved, _), restored) = match restored {
        Ok(done) => done,
        Err(LiveRestoreError::NotSaved(BackupError::Cancelled)) => return Err(Status::cancelled()),
        Err(LiveRestoreError::NotSaved(error)) => {
            tracing::error!(%error, "restore: saving the current database failed");
            return Err(refused(format!(
                "the current database could not be saved first, so nothing was restored: {error}"
            )));
        }
        Err(LiveRestoreError::Failed(error)) => {
            tracing::error!(%error, backup = backup_file, "restore failed; the database is unchanged");
            return Err(Status::new(
                Status::INTERNAL,
                format!("the restore failed and changed nothing: {error}"),
            ));
        }
    };
    tracing::info!(backup = backup_file, saved_as = %saved.name, "backup restored into the live database");
    // A backup taken while a personal import was being copied holds its
    // first batches and their ranges: they go now, as they would at start.
    crate::backend::personal_data::service::drop_unfinished(&backups.pool, "restore").await;
    Ok(RestoreResponse {
        backup_file: backup_file.to_owned(),
        saved_as: saved.name,
        tables: restored.tables,
        rows: restored.rows,
        schema_version: schema.version,
        pending_migrations: i64::try_from(schema.pending).unwrap_or(i64::MAX),
        // What was not taken from the backup (`backup::live_restore`).
        sessions_ended: restored.security.sessions_ended,
        tokens_revoked: restored.security.tokens_revoked,
        invitations_revoked: restored.security.invitations_revoked,
        accounts_kept: restored.security.accounts_kept,
        calendar_feeds_revoked: restored.security.calendar_feeds_revoked,
        identities_unlinked: restored.security.identities_unlinked,
        channels_removed: restored.security.channels_removed,
        kept_live: restored.security.kept_live,
    }
    .to_json())
}
