//! Whether a file is a Tally database of a schema version this build
//! knows, and exactly that schema: its history must be a run of this
//! build's migrations from the first, and every table, index, trigger and
//! view in it must be the one those migrations make, statement for
//! statement. So a restore runs only statements Tally itself wrote; a
//! file carrying a trigger, view or table of its own (a planted trigger
//! that makes someone an administrator on every insert, say) is refused
//! before anything of it is run.

use std::path::Path;
use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::SqliteConnection;

use super::BackupError;
use crate::backend::migrate::{registry, Migrator, Version};
use crate::backend::untrusted_sqlite::{self, UntrustedError};

/// One object of a schema as `sqlite_schema` holds it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SchemaObject {
    /// `table`, `index`, `trigger` or `view`.
    pub kind: String,
    pub name: String,
    pub sql: String,
}

/// A file's schema, proven to be Tally's own at `version`.
#[derive(Clone, Debug)]
pub struct KnownSchema {
    pub version: String,
    /// This build's migrations the file has not applied (they run at the
    /// next start).
    pub pending: usize,
    /// In the order they can be created: tables, indexes, triggers, views.
    pub objects: Vec<SchemaObject>,
}

impl From<UntrustedError> for BackupError {
    fn from(error: UntrustedError) -> Self {
        refused(format!("it cannot be read ({error})"))
    }
}

fn refused(why: String) -> BackupError {
    BackupError::UnknownSchema(format!(
        "not a Tally database of a known schema version: {why}"
    ))
}

/// A schema's objects, in creation order.
const OBJECTS: &str = "SELECT type, name, sql FROM sqlite_schema
     WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
     ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'trigger' THEN 2 ELSE 3 END, rowid";

/// The objects of the database on `conn`, in creation order.
async fn objects(conn: &mut SqliteConnection) -> Result<Vec<SchemaObject>, sqlx::Error> {
    let rows: Vec<(String, String, String)> = sqlx::query_as(OBJECTS).fetch_all(&mut *conn).await?;
    Ok(rows
        .into_iter()
        .map(|(kind, name, sql)| SchemaObject { kind, name, sql })
        .collect())
}

/// The objects Tally's migrations up to `last` make, built in a scratch
/// database in memory. On a thread of its own with its own small runtime:
/// the migrator's future is not `Send`, and a restore runs in a job that
/// must be.
async fn reference_objects(last: Version) -> Result<Vec<SchemaObject>, BackupError> {
    let built = tokio::task::spawn_blocking(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| {
                BackupError::CheckFailed(format!("building schema {last}: {error}"))
            })?;
        runtime.block_on(async move {
            let options = SqliteConnectOptions::from_str("sqlite::memory:")
                .map_err(BackupError::Copy)?
                .foreign_keys(true);
            // One connection that lives as long as the pool.
            let reference = SqlitePoolOptions::new()
                .max_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_with(options)
                .await
                .map_err(BackupError::Copy)?;
            let built = async {
                Migrator::up_to(last)
                    .run(&reference)
                    .await
                    .map_err(|error| {
                        BackupError::CheckFailed(format!("building schema {last}: {error}"))
                    })?;
                let mut conn = reference.acquire().await.map_err(BackupError::Copy)?;
                objects(&mut conn).await.map_err(BackupError::Copy)
            }
            .await;
            reference.close().await;
            built
        })
    })
    .await;
    built.map_err(|error| BackupError::CheckFailed(format!("building schema {last}: {error}")))?
}

/// Opens `path` read-only and checks it is Tally's schema at a version this
/// build knows; the schema, to be created from.
pub async fn known_schema(path: &Path) -> Result<KnownSchema, BackupError> {
    // The file is a stranger's until proven Tally's: read through the one
    // opener of supplied files (defensive, no views or triggers, bounded).
    let found = untrusted_sqlite::read(path.to_path_buf(), |conn| {
        let unreadable = |error: rusqlite::Error| match UntrustedError::of(error) {
            UntrustedError::Unreadable => refused("it has no schema history".into()),
            other => refused(format!("it cannot be read ({other})")),
        };
        let applied = conn
            .prepare("SELECT version FROM schema_migrations ORDER BY version")
            .and_then(|mut statement| {
                statement
                    .query_map([], |row| row.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(unreadable)?;
        let objects = conn
            .prepare(OBJECTS)
            .and_then(|mut statement| {
                statement
                    .query_map([], |row| {
                        Ok(SchemaObject {
                            kind: row.get(0)?,
                            name: row.get(1)?,
                            sql: row.get(2)?,
                        })
                    })?
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|error| {
                refused(format!("it cannot be read ({})", UntrustedError::of(error)))
            })?;
        Ok::<_, BackupError>((applied, objects))
    })
    .await;
    let (applied, found) = found?;

    // The history must be this build's first migrations, in order.
    let all = registry::all();
    if let Some(newer) = applied.iter().find(|version| {
        !all.iter()
            .any(|known| known.version.to_string() == **version)
    }) {
        return Err(BackupError::UnknownSchema(format!(
            "the backup has migration {newer}, which this version of Tally does not know; restore it with the version that made it"
        )));
    }
    if applied.is_empty() || applied.len() > all.len() {
        return Err(refused(format!(
            "its history has {} migrations",
            applied.len()
        )));
    }
    let mut sorted = applied.clone();
    sorted.sort();
    for (have, known) in sorted.iter().zip(&all) {
        if *have != known.version.to_string() {
            return Err(refused(format!(
                "its history has {have} where this version of Tally has {}",
                known.version
            )));
        }
    }
    let last = all[applied.len() - 1].version;

    let expected = reference_objects(last).await?;

    let mut have = found.clone();
    have.sort();
    let mut want = expected;
    want.sort();
    if let Some(extra) = have.iter().find(|object| !want.contains(object)) {
        return Err(refused(format!(
            "its {} {:?} is not the one Tally's schema {last} has",
            extra.kind, extra.name
        )));
    }
    if let Some(missing) = want.iter().find(|object| !have.contains(object)) {
        return Err(refused(format!(
            "it lacks the {} {:?} of Tally's schema {last}",
            missing.kind, missing.name
        )));
    }
    Ok(KnownSchema {
        version: last.to_string(),
        pending: all.len() - applied.len(),
        objects: found,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::SqlitePool;
    use sqlx::{ConnectOptions, Connection};

    async fn tally_database(path: &Path) -> SqlitePool {
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(
                SqliteConnectOptions::new()
                    .filename(path)
                    .create_if_missing(true)
                    .foreign_keys(true),
            )
            .await
            .unwrap();
        Migrator::default().run(&pool).await.unwrap();
        pool
    }

    #[tokio::test]
    async fn tallys_own_schema_is_known_and_anything_added_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bills.db");
        let pool = tally_database(&path).await;
        pool.close().await;
        let known = known_schema(&path).await.unwrap();
        let latest = registry::all().last().unwrap().version.to_string();
        assert_eq!(known.version, latest);
        assert!(known.objects.iter().any(|object| object.name == "users"));

        let planted = dir.path().join("planted.db");
        std::fs::copy(&path, &planted).unwrap();
        let mut conn = SqliteConnectOptions::new()
            .filename(&planted)
            .connect()
            .await
            .unwrap();
        sqlx::raw_sql(
            "CREATE TRIGGER promote AFTER INSERT ON sessions
             BEGIN UPDATE users SET role = 'admin'; END",
        )
        .execute(&mut conn)
        .await
        .unwrap();
        conn.close().await.unwrap();
        let error = known_schema(&planted).await.unwrap_err().to_string();
        assert!(error.contains("promote"), "{error}");
    }

    #[tokio::test]
    async fn a_changed_table_or_a_foreign_history_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bills.db");
        let pool = tally_database(&path).await;
        sqlx::raw_sql("ALTER TABLE bills ADD COLUMN extra TEXT")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
        let error = known_schema(&path).await.unwrap_err().to_string();
        assert!(error.contains("\"bills\""), "{error}");

        let other = dir.path().join("other.db");
        let mut conn = SqliteConnectOptions::new()
            .filename(&other)
            .create_if_missing(true)
            .connect()
            .await
            .unwrap();
        sqlx::raw_sql(
            "CREATE TABLE schema_migrations (version TEXT PRIMARY KEY);
             INSERT INTO schema_migrations VALUES ('v0.91'), ('v0.93');",
        )
        .execute(&mut conn)
        .await
        .unwrap();
        conn.close().await.unwrap();
        let error = known_schema(&other).await.unwrap_err().to_string();
        assert!(error.contains("v0.93"), "{error}");
    }
}
