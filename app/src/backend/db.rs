//! The SQLite database: one file at `DATA_DIR/db/bills.db`, in WAL mode with
//! synchronous writes, so every acknowledged write survives a crash.

use std::path::{Path, PathBuf};
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection, SqlitePool};

/// How long a connection waits for a lock held by another writer.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the health probe may take before the database counts as down.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// A transaction that writes. `BEGIN IMMEDIATE` takes the write lock at
/// the start, waiting up to the busy timeout for another writer. A plain
/// (deferred) `BEGIN` that reads first fails at once with "database is
/// locked" when it comes to write after another connection committed in
/// between: its snapshot is stale, and no waiting can fix that. A bank sync
/// failed that way beside a session touch in a full test run.
pub async fn write(
    pool: &SqlitePool,
) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, sqlx::Error> {
    pool.begin_with("BEGIN IMMEDIATE").await
}

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("cannot create the database directory {path}: {source}")]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot open the database {path}: {source}")]
    Open { path: PathBuf, source: sqlx::Error },
    #[error("cannot look at the database file {path}: {source}")]
    Stat {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the database probe failed: {0}")]
    Probe(#[source] sqlx::Error),
    #[error("the database probe timed out after {0:?}")]
    ProbeTimeout(Duration),
}

fn connect_options(path: &Path) -> SqliteConnectOptions {
    SqliteConnectOptions::new()
        .filename(path)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        .busy_timeout(BUSY_TIMEOUT)
        .log_statements(tracing::log::LevelFilter::Trace)
}

/// Opens (creating if needed) the database file and its directory.
///
/// Only this first open may create the file. The pool opens further
/// connections later, on demand; had they `create_if_missing`, a database
/// file that vanished (an unmounted volume, a file moved away) would be
/// silently replaced by an empty one and written to.
pub async fn connect(path: &Path) -> Result<SqlitePool, DbError> {
    if let Some(dir) = path.parent() {
        tokio::fs::create_dir_all(dir)
            .await
            .map_err(|source| DbError::CreateDir {
                path: dir.to_path_buf(),
                source,
            })?;
    }
    let open_error = |source| DbError::Open {
        path: path.to_path_buf(),
        source,
    };
    let first = connect_options(path)
        .create_if_missing(true)
        .connect()
        .await
        .map_err(open_error)?;
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(connect_options(path).create_if_missing(false))
        .await
        .map_err(open_error);
    // The pool holds its own connection now; closing the first is tidy-up.
    let _ = first.close().await;
    pool
}

/// Opens an existing database read-only, for commands that only look
/// (`tally migrate --status`) and so may run beside a server.
pub async fn open_read_only(path: &Path) -> Result<SqlitePool, DbError> {
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(
            SqliteConnectOptions::new()
                .filename(path)
                .read_only(true)
                .create_if_missing(false)
                .busy_timeout(BUSY_TIMEOUT),
        )
        .await
        .map_err(|source| DbError::Open {
            path: path.to_path_buf(),
            source,
        })
}

/// The health probe. A pooled connection keeps working on a file that was
/// deleted or replaced under it, so the probe also opens the file afresh
/// (never creating it) and reads its schema: that is what fails when the
/// volume is gone or the file is damaged.
pub async fn probe(pool: &SqlitePool, path: &Path) -> Result<(), DbError> {
    let check = async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM sqlite_schema")
            .fetch_one(pool)
            .await
            .map_err(DbError::Probe)?;
        let mut fresh = connect_options(path)
            .create_if_missing(false)
            .connect()
            .await
            .map_err(DbError::Probe)?;
        let read = sqlx::query_scalar::<_, i64>("SELECT count(*) FROM sqlite_schema")
            .fetch_one(&mut fresh)
            .await
            .map_err(DbError::Probe);
        // Closing is best effort; the probe's answer is the read above.
        let _ = fresh.close().await;
        read.map(|_| ())
    };
    tokio::time::timeout(PROBE_TIMEOUT, check)
        .await
        .map_err(|_| DbError::ProbeTimeout(PROBE_TIMEOUT))?
}

/// A fresh, migrated database in a temporary directory, for unit tests.
#[cfg(test)]
pub async fn migrated_for_test() -> (tempfile::TempDir, SqlitePool) {
    let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("temporary directory: {error}"));
    let pool = connect(&dir.path().join("t.db"))
        .await
        .unwrap_or_else(|error| panic!("test database: {error}"));
    crate::backend::migrate::Migrator::default()
        .run(&pool)
        .await
        .unwrap_or_else(|error| panic!("migrations: {error}"));
    (dir, pool)
}

/// The version of the SQLite library Tally runs on (`sqlite_version()` of
/// an in-memory database), for `tally --version`.
pub async fn sqlite_version() -> Result<String, sqlx::Error> {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect("sqlite::memory:").await?;
    let version = sqlx::query_scalar("SELECT sqlite_version()")
        .fetch_one(&mut conn)
        .await;
    let _ = conn.close().await;
    version
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hardening III, finding 10: Tally opens SQLite files strangers
    /// wrote, so the bundled library is 3.50 or newer, and sqlx and the
    /// reader of supplied files (rusqlite) are one library.
    #[tokio::test]
    async fn the_bundled_sqlite_is_3_50_or_newer_and_one_library() {
        let version = sqlite_version().await.unwrap();
        let parts: Vec<u32> = version
            .split('.')
            .map(|part| part.parse().unwrap())
            .collect();
        assert!(parts[0] == 3 && parts[1] >= 50, "SQLite {version}");
        assert_eq!(rusqlite::version(), version);
    }

    #[tokio::test]
    async fn a_writing_transaction_survives_a_commit_between_its_read_and_its_write() {
        let dir = tempfile::tempdir().unwrap();
        let pool = connect(&dir.path().join("bills.db")).await.unwrap();
        sqlx::raw_sql("CREATE TABLE t (x INTEGER)")
            .execute(&pool)
            .await
            .unwrap();
        let insert = |pool: SqlitePool| async move {
            sqlx::query("INSERT INTO t VALUES (1)").execute(&pool).await
        };

        // Why: a deferred transaction that read before another connection
        // committed cannot write at all.
        let mut deferred = pool.begin().await.unwrap();
        sqlx::query("SELECT count(*) FROM t")
            .fetch_one(&mut *deferred)
            .await
            .unwrap();
        insert(pool.clone()).await.unwrap();
        let refused = sqlx::query("INSERT INTO t VALUES (2)")
            .execute(&mut *deferred)
            .await
            .unwrap_err();
        assert!(refused.to_string().contains("locked"), "{refused}");
        drop(deferred);

        // A writing transaction holds the lock from its start: the other
        // writer waits for it instead, and both succeed.
        let mut tx = write(&pool).await.unwrap();
        sqlx::query("SELECT count(*) FROM t")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        let other = tokio::spawn(insert(pool.clone()));
        tokio::time::sleep(Duration::from_millis(50)).await;
        sqlx::query("INSERT INTO t VALUES (2)")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        other.await.unwrap().unwrap();
        let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM t")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(rows, 3);
    }

    #[tokio::test]
    async fn a_vanished_file_is_never_recreated_empty_by_the_pool() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db").join("bills.db");
        let pool = connect(&path).await.unwrap();
        assert!(path.is_file(), "the first open creates the file");
        std::fs::rename(&path, dir.path().join("moved.db")).unwrap();
        // Make the pool open more connections than it has.
        let mut held = Vec::new();
        for _ in 0..4 {
            if let Ok(conn) = pool.acquire().await {
                held.push(conn);
            }
        }
        assert!(
            !path.exists(),
            "a new pooled connection created an empty database"
        );
        drop(held);
        pool.close().await;
    }

    #[tokio::test]
    async fn creates_the_file_in_wal_mode_with_foreign_keys() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db").join("bills.db");
        let pool = connect(&path).await.unwrap();
        assert!(path.is_file());
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(fk, 1);
        let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(sync, 2, "FULL");
        probe(&pool, &path).await.unwrap();
    }

    #[tokio::test]
    async fn probe_fails_when_the_file_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bills.db");
        let pool = connect(&path).await.unwrap();
        std::fs::rename(&path, dir.path().join("moved.db")).unwrap();
        assert!(matches!(probe(&pool, &path).await, Err(DbError::Probe(_))));
        assert!(!path.exists(), "the probe must never create the file");
    }
}
