//! The schema as Admin → Backups shows it, and rolling back the latest
//! migration from there (confirmed by typing its version). Rolling back on
//! a running server leaves the database one migration behind this build:
//! it is the step before deploying the previous version, and a restart of
//! this one applies the migration again.

use sqlx::SqlitePool;

use super::{MigrateError, Migrator};
use crate::contract::admin::SchemaState;

/// The newest applied migration, whether it has a rollback definition, and
/// how many this build has that the database lacks.
pub async fn schema_state(pool: &SqlitePool) -> Result<SchemaState, MigrateError> {
    let migrations = super::registry::all();
    let status = Migrator::new(migrations.clone()).status(pool).await?;
    let latest = status.iter().rev().find(|m| m.applied_at.is_some());
    let pending = status.iter().filter(|m| m.applied_at.is_none()).count();
    Ok(SchemaState {
        latest: latest.map(|m| m.version.to_string()),
        description: latest.map(|m| m.description.to_owned()),
        can_roll_back: latest.is_some_and(|latest| {
            migrations
                .iter()
                .any(|m| m.version == latest.version && m.rollback.is_some())
        }),
        pending: u32::try_from(pending).unwrap_or(u32::MAX),
    })
}

/// Rolls back the newest applied migration when `confirm` names it.
pub async fn roll_back_latest(
    pool: &SqlitePool,
    confirm: &str,
) -> Result<SchemaState, MigrateError> {
    let state = schema_state(pool).await?;
    let Some(latest) = state.latest.as_deref() else {
        return Err(MigrateError::NothingApplied);
    };
    if confirm.trim() != latest {
        return Err(MigrateError::NotConfirmed(latest.to_owned()));
    }
    let version = Migrator::default().rollback_latest(pool).await?;
    tracing::warn!(%version, "migration rolled back from Admin");
    schema_state(pool).await
}
