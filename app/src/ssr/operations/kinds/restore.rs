//! `restore`: a backup into the live database, while the server runs. The
//! backup is checked first (integrity, schema history, no migration this
//! build does not know, and Tally's own schema object for object); then the
//! current database is saved as a backup of its own (kept until retention
//! would remove it like any other), and only then replaced, in one
//! transaction. The security state stays the live one (credentials,
//! standing, sessions, tokens, invitations); the result says what of the
//! backup's was dropped. Cancelling is possible until the
//! replacing starts.

use serde_json::Value;

use super::super::context::{percent, JobContext, Resources};
use super::super::proto_json::Fields;
use super::super::record::Status;
use crate::ssr::backup::{self, BackupError};

fn phase(name: &str, backup_file: &str) -> Value {
    Fields::new()
        .string("backupFile", backup_file)
        .string("phase", name)
        .build()
}

fn refused(message: impl Into<String>) -> Status {
    Status::new(Status::FAILED_PRECONDITION, message)
}

pub async fn run(
    context: &JobContext,
    resources: &Resources,
    backup_file: &str,
) -> Result<Value, Status> {
    if !backup::is_backup_name(backup_file) {
        return Err(Status::new(
            Status::INVALID_ARGUMENT,
            format!("{backup_file:?} is not a backup name (expected bills-<timestamp>.db)"),
        ));
    }
    let source = resources.backups_dir.join(backup_file);
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

    context.report(phase("saving", backup_file), 5).await;
    // No retention now: it could remove the very backup being restored.
    let saved = super::backup::take_reporting(context, resources, usize::MAX, |copied| {
        (
            phase("saving", backup_file),
            5 + percent(copied.pages, copied.total) / 2,
        )
    })
    .await;
    let (saved, _) = match saved {
        Ok(saved) => saved,
        Err(BackupError::Cancelled) => return Err(Status::cancelled()),
        Err(error) => {
            tracing::error!(%error, "restore: saving the current database failed");
            return Err(refused(format!(
                "the current database could not be saved first, so nothing was restored: {error}"
            )));
        }
    };
    context.checkpoint()?;

    context.report(phase("restoring", backup_file), 60).await;
    let restored = backup::restore_live(&resources.pool, &source, &schema)
        .await
        .map_err(|error| {
            tracing::error!(%error, backup = backup_file, "restore failed; the database is unchanged");
            Status::new(
                Status::INTERNAL,
                format!("the restore failed and changed nothing: {error}"),
            )
        })?;
    tracing::info!(backup = backup_file, saved_as = %saved.name, "backup restored into the live database");
    Ok(Fields::new()
        .string("backupFile", backup_file)
        .string("savedAs", &saved.name)
        .int64("tables", restored.tables)
        .int64("rows", restored.rows)
        // What was not taken from the backup (`backup::live_restore`).
        .int64("sessionsEnded", restored.security.sessions_ended)
        .int64("tokensRevoked", restored.security.tokens_revoked)
        .int64("invitationsRevoked", restored.security.invitations_revoked)
        .int64("accountsKept", restored.security.accounts_kept)
        .string("schemaVersion", &schema.version)
        .int64(
            "pendingMigrations",
            i64::try_from(schema.pending).unwrap_or(i64::MAX),
        )
        .build())
}
