//! The migration runner. Each migration runs in one `BEGIN IMMEDIATE`
//! transaction together with its `schema_migrations` row, so a failure leaves
//! the database exactly as it was before that migration.

pub mod admin;
mod migration;
pub mod registry;
mod steps;
mod version;

pub use migration::{DataStep, Migration, StepError, StepFuture};
pub use version::{Version, VersionError};

use sqlx::pool::PoolConnection;
use sqlx::{Connection, Executor, Sqlite, SqliteConnection, SqlitePool};

#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    #[error("migration {version} ({description}) failed and was rolled back: {source}")]
    Failed {
        version: Version,
        description: &'static str,
        #[source]
        source: StepError,
    },
    #[error(
        "migration {version} was changed after it was applied (recorded checksum {recorded}, this build has {expected}); \
         a shipped migration must never be edited"
    )]
    ChecksumMismatch {
        version: Version,
        recorded: String,
        expected: String,
    },
    #[error("the database has migration {0}, which this build of Tally does not know; run the newer version or restore a backup")]
    UnknownApplied(String),
    #[error("{count} migration(s) are pending ({first} first) and RUN_DB_MIGRATIONS is false; run `tally migrate` first")]
    Pending { count: usize, first: Version },
    #[error("nothing to roll back: no migration is applied")]
    NothingApplied,
    /// A rollback asked for without typing the latest migration's version.
    #[error("type {0} to roll it back")]
    NotConfirmed(String),
    #[error("the latest migration, {0}, has no rollback definition")]
    NoRollback(Version),
    #[error("rolling back {version} failed and changed nothing: {source}")]
    RollbackFailed {
        version: Version,
        #[source]
        source: sqlx::Error,
    },
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// One line of `tally migrate --status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigrationStatus {
    pub version: Version,
    pub description: &'static str,
    /// When it was applied (UTC, RFC 3339), or `None` while pending.
    pub applied_at: Option<String>,
}

struct AppliedRow {
    version: String,
    checksum: String,
    applied_at: String,
}

/// Runs a list of migrations (the registry's, or a test's own).
pub struct Migrator {
    migrations: Vec<Migration>,
}

impl Default for Migrator {
    fn default() -> Self {
        Self::new(registry::all())
    }
}

impl Migrator {
    pub fn new(migrations: Vec<Migration>) -> Self {
        Self { migrations }
    }

    /// Only the migrations up to and including `last` (fixtures build old
    /// databases with this).
    pub fn up_to(last: Version) -> Self {
        Self::new(
            registry::all()
                .into_iter()
                .filter(|m| m.version <= last)
                .collect(),
        )
    }

    async fn applied(conn: &mut PoolConnection<Sqlite>) -> Result<Vec<AppliedRow>, sqlx::Error> {
        // Read without writing when the table is there, so a status check
        // works on a read-only connection beside a running server.
        let exists: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations')",
        )
        .fetch_one(&mut **conn)
        .await?;
        if !exists {
            (&mut **conn)
                .execute(sqlx::raw_sql(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (
                version     TEXT PRIMARY KEY,
                description TEXT NOT NULL,
                checksum    TEXT NOT NULL,
                applied_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            )",
                ))
                .await?;
        }
        let rows: Vec<(String, String, String)> =
            sqlx::query_as("SELECT version, checksum, applied_at FROM schema_migrations")
                .fetch_all(&mut **conn)
                .await?;
        Ok(rows
            .into_iter()
            .map(|(version, checksum, applied_at)| AppliedRow {
                version,
                checksum,
                applied_at,
            })
            .collect())
    }

    /// Checks every applied migration against this build: each must be known
    /// and unchanged. Returns the pending ones.
    async fn verify(
        &self,
        conn: &mut PoolConnection<Sqlite>,
    ) -> Result<(Vec<&Migration>, Vec<AppliedRow>), MigrateError> {
        let applied = Self::applied(conn).await?;
        for row in &applied {
            let known = self
                .migrations
                .iter()
                .find(|m| m.version.to_string() == row.version)
                .ok_or_else(|| MigrateError::UnknownApplied(row.version.clone()))?;
            let expected = known.checksum();
            if expected != row.checksum {
                return Err(MigrateError::ChecksumMismatch {
                    version: known.version,
                    recorded: row.checksum.clone(),
                    expected,
                });
            }
        }
        let pending = self
            .migrations
            .iter()
            .filter(|m| {
                !applied
                    .iter()
                    .any(|row| row.version == m.version.to_string())
            })
            .collect();
        Ok((pending, applied))
    }

    /// Applied and pending migrations, in order.
    pub async fn status(&self, pool: &SqlitePool) -> Result<Vec<MigrationStatus>, MigrateError> {
        let mut conn = pool.acquire().await?;
        let (_, applied) = self.verify(&mut conn).await?;
        Ok(self
            .migrations
            .iter()
            .map(|m| MigrationStatus {
                version: m.version,
                description: m.description,
                applied_at: applied
                    .iter()
                    .find(|row| row.version == m.version.to_string())
                    .map(|row| row.applied_at.clone()),
            })
            .collect())
    }

    /// Fails when a migration is pending, without applying anything (for
    /// `RUN_DB_MIGRATIONS=false`).
    pub async fn ensure_current(&self, pool: &SqlitePool) -> Result<(), MigrateError> {
        let mut conn = pool.acquire().await?;
        let (pending, _) = self.verify(&mut conn).await?;
        match pending.first() {
            Some(first) => Err(MigrateError::Pending {
                count: pending.len(),
                first: first.version,
            }),
            None => Ok(()),
        }
    }

    /// Applies every pending migration in order; returns the versions applied.
    pub async fn run(&self, pool: &SqlitePool) -> Result<Vec<Version>, MigrateError> {
        let mut conn = pool.acquire().await?;
        let (pending, _) = self.verify(&mut conn).await?;
        let mut done = Vec::new();
        for migration in pending {
            let failed = |source: StepError| MigrateError::Failed {
                version: migration.version,
                description: migration.description,
                source,
            };
            sqlx::raw_sql("BEGIN IMMEDIATE").execute(&mut *conn).await?;
            match apply(&mut conn, migration).await {
                Ok(()) => {
                    sqlx::raw_sql("COMMIT").execute(&mut *conn).await?;
                    tracing::info!(version = %migration.version, description = migration.description, "migration applied");
                    done.push(migration.version);
                }
                Err(error) => {
                    // SQLite may already have rolled back (on SQLITE_FULL, for
                    // one); the migration's own error is the one to report.
                    if let Err(rollback) = sqlx::raw_sql("ROLLBACK").execute(&mut *conn).await {
                        tracing::warn!(%rollback, "rollback after a failed migration reported an error");
                    }
                    let error = failed(error);
                    record_failure(&mut conn, migration.version, &error).await;
                    return Err(error);
                }
            }
        }
        Ok(done)
    }

    /// Undoes the latest applied migration, when it has a rollback definition.
    pub async fn rollback_latest(&self, pool: &SqlitePool) -> Result<Version, MigrateError> {
        let mut conn = pool.acquire().await?;
        let (_, applied) = self.verify(&mut conn).await?;
        let latest = self
            .migrations
            .iter()
            .rev()
            .find(|m| {
                applied
                    .iter()
                    .any(|row| row.version == m.version.to_string())
            })
            .ok_or(MigrateError::NothingApplied)?;
        let rollback = latest
            .rollback
            .ok_or(MigrateError::NoRollback(latest.version))?;
        let failed = |source| MigrateError::RollbackFailed {
            version: latest.version,
            source,
        };
        let mut tx = conn.begin().await.map_err(failed)?;
        (&mut *tx)
            .execute(sqlx::raw_sql(rollback))
            .await
            .map_err(failed)?;
        sqlx::query("DELETE FROM schema_migrations WHERE version = ?")
            .bind(latest.version.to_string())
            .execute(&mut *tx)
            .await
            .map_err(failed)?;
        tx.commit().await.map_err(failed)?;
        tracing::info!(version = %latest.version, "migration rolled back");
        Ok(latest.version)
    }
}

/// Keeps a failed attempt for Admin Status, after its rollback and outside
/// its transaction. Best effort: a database from before v1.09 has no table
/// for it (the failure is in the logs either way), and a full disk may
/// refuse this write too.
async fn record_failure(conn: &mut PoolConnection<Sqlite>, version: Version, error: &MigrateError) {
    let message: String = error.to_string().chars().take(2000).collect();
    let recorded =
        sqlx::query("INSERT INTO schema_migration_failures (version, message) VALUES (?, ?)")
            .bind(version.to_string())
            .bind(message)
            .execute(&mut **conn)
            .await;
    if let Err(error) = recorded {
        tracing::warn!(%error, "the failed migration could not be recorded for Admin Status");
    }
}

async fn apply(conn: &mut SqliteConnection, migration: &Migration) -> Result<(), StepError> {
    sqlx::raw_sql(migration.sql).execute(&mut *conn).await?;
    if let Some((_, step)) = migration.step {
        step(&mut *conn).await?;
    }
    if !migration.after_sql.is_empty() {
        sqlx::raw_sql(migration.after_sql)
            .execute(&mut *conn)
            .await?;
    }
    let violations: Vec<(String,)> =
        sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check")
            .fetch_all(&mut *conn)
            .await?;
    if let Some((table,)) = violations.first() {
        return Err(StepError::Data(format!(
            "{} foreign key violation(s), first in table {table}",
            violations.len()
        )));
    }
    sqlx::query("INSERT INTO schema_migrations (version, description, checksum) VALUES (?, ?, ?)")
        .bind(migration.version.to_string())
        .bind(migration.description)
        .bind(migration.checksum())
        .execute(&mut *conn)
        .await?;
    Ok(())
}
