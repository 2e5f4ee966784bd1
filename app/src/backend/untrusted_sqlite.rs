//! The one way Tally opens a SQLite file a person supplied (another app's
//! budget file, a personal export, a backup sent to be checked): the file's
//! schema is the attacker's, and SQLite computes a view, a generated
//! column or a default with whatever that schema says. So the connection
//! is read-only, defensive (`SQLITE_DBCONFIG_DEFENSIVE`), trusts nothing
//! of the schema (`trusted_schema` off: no function with side effects in
//! it), runs no trigger and no view, loads no extension (rusqlite is built
//! without it), and is bounded: one value is at most [`MAX_VALUE_BYTES`],
//! a statement runs at most [`MAX_RUN`] before it is interrupted, and the
//! page cache is small. A reader then asks [`plain_tables`] for the tables
//! it reads, which refuses a view, a virtual table or a generated column
//! by name.
//!
//! rusqlite rather than sqlx for this: it wraps `sqlite3_db_config`,
//! `sqlite3_limit` and the progress handler safely, on the same bundled
//! SQLite (one `libsqlite3-sys`), so Tally needs no `unsafe` of its own.
//! Its calls block; [`read`] runs them on a blocking thread.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::config::DbConfig;
use rusqlite::limits::Limit;
use rusqlite::{Connection, OpenFlags};

/// The longest string or blob one value may be (a budget's longest rule
/// or note is a few KB; a personal export's longest note 2,000 chars).
pub const MAX_VALUE_BYTES: i32 = 1_000_000;
/// How long one statement may run before it is interrupted.
pub const MAX_RUN: Duration = Duration::from_secs(10);
/// The page cache, in KiB (SQLite's `cache_size` takes a negative KiB).
const CACHE_KIB: i64 = 8 * 1024;

/// Why a file cannot be read safely; the message is for the person (it
/// names a table, never SQLite's own words).
#[derive(Debug, thiserror::Error)]
pub enum UntrustedError {
    #[error("the file is not a SQLite database that can be read")]
    Unreadable,
    #[error("its {0} is not a plain table")]
    NotPlain(String),
    #[error("it has no table {0}")]
    Missing(String),
    #[error("reading it took too long or needed too much memory")]
    Exhausted,
    #[error("reading it stopped: {0}")]
    Stopped(String),
}

impl UntrustedError {
    /// A read error in the person's words: a limit that stopped a
    /// statement is `Exhausted`, anything else `Unreadable` (SQLite's text
    /// goes to the log).
    pub fn of(error: rusqlite::Error) -> Self {
        use rusqlite::ErrorCode::{OperationInterrupted, OutOfMemory, TooBig};
        match error.sqlite_error_code() {
            Some(OperationInterrupted | TooBig | OutOfMemory) => Self::Exhausted,
            _ => {
                tracing::info!(%error, "a supplied SQLite file could not be read");
                Self::Unreadable
            }
        }
    }
}

/// Opens `path` read-only with every guard on. The deadline of
/// [`MAX_RUN`] counts from here: a reader opens, reads and closes.
pub fn open(path: &Path) -> Result<Connection, UntrustedError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(UntrustedError::of)?;
    for (config, on) in [
        (DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true),
        (DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false),
        (DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false),
        (DbConfig::SQLITE_DBCONFIG_ENABLE_VIEW, false),
        (DbConfig::SQLITE_DBCONFIG_WRITABLE_SCHEMA, false),
    ] {
        conn.set_db_config(config, on).map_err(UntrustedError::of)?;
    }
    for (limit, value) in [
        (Limit::SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES),
        (Limit::SQLITE_LIMIT_SQL_LENGTH, 100_000),
        (Limit::SQLITE_LIMIT_COLUMN, 500),
        (Limit::SQLITE_LIMIT_EXPR_DEPTH, 100),
        (Limit::SQLITE_LIMIT_COMPOUND_SELECT, 10),
        (Limit::SQLITE_LIMIT_FUNCTION_ARG, 8),
        (Limit::SQLITE_LIMIT_ATTACHED, 0),
        (Limit::SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 1_000),
        (Limit::SQLITE_LIMIT_TRIGGER_DEPTH, 1),
        (Limit::SQLITE_LIMIT_WORKER_THREADS, 0),
    ] {
        conn.set_limit(limit, value).map_err(UntrustedError::of)?;
    }
    conn.pragma_update(None, "cache_size", -CACHE_KIB)
        .map_err(UntrustedError::of)?;
    conn.pragma_update(None, "temp_store", "FILE")
        .map_err(UntrustedError::of)?;
    let deadline = Instant::now() + MAX_RUN;
    conn.progress_handler(10_000, Some(move || Instant::now() > deadline))
        .map_err(UntrustedError::of)?;
    Ok(conn)
}

/// Refuses unless each of `names` is an ordinary table of the file: not a
/// view, not a virtual table, without a generated column.
pub fn plain_tables(conn: &Connection, names: &[&str]) -> Result<(), UntrustedError> {
    for name in names {
        let found: Option<(String, Option<String>)> = conn
            .query_row(
                "SELECT type, sql FROM sqlite_schema WHERE name = ?1",
                [name],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map(Some)
            .or_else(|error| match error {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                other => Err(UntrustedError::of(other)),
            })?;
        let Some((kind, sql)) = found else {
            return Err(UntrustedError::Missing((*name).to_owned()));
        };
        let virtual_table = sql.as_deref().is_some_and(|sql| {
            sql.trim_start()
                .to_ascii_uppercase()
                .starts_with("CREATE VIRTUAL")
        });
        if kind != "table" || virtual_table {
            return Err(UntrustedError::NotPlain((*name).to_owned()));
        }
        // `hidden` is 2 or 3 for a generated column (1 for a virtual
        // table's hidden one).
        let generated: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM pragma_table_xinfo(?1) WHERE hidden <> 0",
                [name],
                |row| row.get(0),
            )
            .map_err(UntrustedError::of)?;
        if generated > 0 {
            return Err(UntrustedError::NotPlain((*name).to_owned()));
        }
    }
    Ok(())
}

/// Opens `path` with [`open`] and runs `read` on it, on a blocking thread.
pub async fn read<T, E>(
    path: PathBuf,
    read: impl FnOnce(&Connection) -> Result<T, E> + Send + 'static,
) -> Result<T, E>
where
    T: Send + 'static,
    E: From<UntrustedError> + Send + 'static,
{
    tokio::task::spawn_blocking(move || {
        let conn = open(&path)?;
        let result = read(&conn);
        drop(conn);
        result
    })
    .await
    .map_err(|error| E::from(UntrustedError::Stopped(error.to_string())))?
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file as an attacker writes it, with the `sqlite3` shell's freedom.
    fn hostile(dir: &Path, sql: &str) -> PathBuf {
        let path = dir.join("hostile.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(sql).unwrap();
        drop(conn);
        path
    }

    #[test]
    fn a_generated_column_cannot_make_a_huge_value() {
        let dir = tempfile::tempdir().unwrap();
        let path = hostile(
            dir.path(),
            "CREATE TABLE schedules (id INTEGER, name TEXT,
                 bomb TEXT GENERATED ALWAYS AS (printf('%.*c', 400000000, 'x')) VIRTUAL);
             INSERT INTO schedules (id, name) VALUES (1, 'Rent');",
        );
        let conn = open(&path).unwrap();
        assert!(matches!(
            plain_tables(&conn, &["schedules"]),
            Err(UntrustedError::NotPlain(name)) if name == "schedules"
        ));
        // Even read on purpose, nothing past the length limit is built:
        // SQLite's printf stops at the limit (and answers NULL).
        let read = conn.query_row("SELECT bomb FROM schedules", [], |row| {
            row.get::<_, Option<String>>(0)
        });
        match read {
            Ok(value) => assert!(
                value.is_none_or(|text| text.len() <= MAX_VALUE_BYTES as usize),
                "bounded"
            ),
            Err(error) => assert!(matches!(
                UntrustedError::of(error),
                UntrustedError::Exhausted
            )),
        }
        // A value a query builds is bounded the same way.
        let built = conn.query_row("SELECT zeroblob(5000000)", [], |row| {
            row.get::<_, Vec<u8>>(0)
        });
        assert!(matches!(
            built.map_err(UntrustedError::of),
            Err(UntrustedError::Exhausted)
        ));
    }

    #[test]
    fn views_triggers_and_virtual_tables_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = hostile(
            dir.path(),
            "CREATE TABLE t (id INTEGER);
             CREATE VIEW rules AS SELECT printf('%.*c', 400000000, 'x') AS conditions;
             CREATE VIRTUAL TABLE payees USING fts5(name);",
        );
        let conn = open(&path).unwrap();
        assert!(matches!(
            plain_tables(&conn, &["rules"]),
            Err(UntrustedError::NotPlain(_))
        ));
        assert!(matches!(
            plain_tables(&conn, &["payees"]),
            Err(UntrustedError::NotPlain(_))
        ));
        assert!(matches!(
            plain_tables(&conn, &["schedules"]),
            Err(UntrustedError::Missing(_))
        ));
        plain_tables(&conn, &["t"]).unwrap();
        // Views are off on this connection altogether.
        assert!(conn
            .query_row("SELECT conditions FROM rules", [], |row| row
                .get::<_, String>(0))
            .is_err());
        // And it writes nothing.
        assert!(conn.execute("INSERT INTO t VALUES (1)", []).is_err());
    }

    #[test]
    fn a_query_that_runs_too_long_is_interrupted() {
        let dir = tempfile::tempdir().unwrap();
        let path = hostile(dir.path(), "CREATE TABLE t (id INTEGER);");
        let conn = open(&path).unwrap();
        let deadline = Instant::now() + Duration::from_millis(50);
        conn.progress_handler(1_000, Some(move || Instant::now() > deadline))
            .unwrap();
        let endless = conn.query_row(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n",
            [],
            |row| row.get::<_, i64>(0),
        );
        assert!(matches!(
            endless.map_err(UntrustedError::of),
            Err(UntrustedError::Exhausted)
        ));
    }

    #[test]
    fn a_file_that_is_not_sqlite_is_unreadable() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, b"name,amount\nRent,1200\n".repeat(20)).unwrap();
        let refused = open(&path).and_then(|conn| plain_tables(&conn, &["t"]));
        assert!(
            matches!(refused, Err(UntrustedError::Unreadable)),
            "{refused:?}"
        );
    }
}
