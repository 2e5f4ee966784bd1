//! `tally ops restore-check FILE`: replays a backup into a scratch
//! database (a copy in a temporary directory, opened and checked there; the
//! file given is never opened for writing) and counts the rows of every
//! table. Fails below `RESTORE_MIN_ROWS` rows in all; at the default 0 it
//! warns that an empty snapshot would pass.

use std::path::{Path, PathBuf};

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

use super::OpsError;

pub struct Replayed {
    /// (table, rows), by table name.
    pub tables: Vec<(String, i64)>,
    pub total: i64,
}

pub async fn run(file: &Path, min_rows: i64) -> Result<Replayed, OpsError> {
    if !file.is_file() {
        return Err(OpsError::Usage(format!(
            "{}: no such backup file",
            file.display()
        )));
    }
    let scratch = tempfile::tempdir().map_err(|source| OpsError::Io {
        path: std::env::temp_dir(),
        source,
    })?;
    let copy: PathBuf = scratch.path().join("replay.db");
    std::fs::copy(file, &copy).map_err(|source| OpsError::Io {
        path: file.to_path_buf(),
        source,
    })?;
    app::backend::backup::verify(&copy, 1)
        .await
        .map_err(|error| {
            OpsError::Failed(format!("{} does not replay: {error}", file.display()))
        })?;
    let mut conn = SqliteConnectOptions::new()
        .filename(&copy)
        .read_only(true)
        .connect()
        .await
        .map_err(|error| OpsError::Failed(format!("cannot open the replay: {error}")))?;
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(&mut conn)
    .await
    .map_err(|error| OpsError::Failed(error.to_string()))?;
    let mut tables = Vec::new();
    for name in names {
        let rows: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM \"{}\"",
            name.replace('"', "\"\"")
        )))
        .fetch_one(&mut conn)
        .await
        .map_err(|error| OpsError::Failed(error.to_string()))?;
        tables.push((name, rows));
    }
    let _ = conn.close().await;
    let total = tables.iter().map(|(_, rows)| rows).sum();
    if total < min_rows {
        return Err(OpsError::Failed(format!(
            "{} holds {total} rows in all, fewer than RESTORE_MIN_ROWS={min_rows}",
            file.display()
        )));
    }
    Ok(Replayed { tables, total })
}
