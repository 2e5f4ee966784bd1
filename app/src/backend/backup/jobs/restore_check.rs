//! `restore_check`: proves a backup can be restored by replaying it into a
//! scratch database (`VACUUM INTO` from the backup, opened read-only),
//! checking the copy's integrity and counting its rows table by table. It
//! fails when the copy holds fewer than `RESTORE_MIN_ROWS` rows. The scratch
//! file is removed whatever happens; the live database is never touched.

use std::path::Path;

use serde_json::Value;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, SqliteConnection};

use super::Backups;
use crate::backend::backup;
use crate::backend::operations::messages::{Message, RestoreCheckMetadata, RestoreCheckResponse};
use crate::backend::operations::{percent, JobContext, Status};

pub async fn run(
    context: &JobContext,
    backups: &Backups,
    backup_file: Option<&str>,
) -> Result<Value, Status> {
    let name = match backup_file.filter(|name| !name.is_empty()) {
        Some(name) if backup::is_backup_name(name) => name.to_owned(),
        Some(name) => {
            return Err(Status::new(
                Status::INVALID_ARGUMENT,
                format!("{name:?} is not a backup name (expected bills-<timestamp>.db)"),
            ))
        }
        None => backup::list(&backups.dir)
            .map_err(|error| Status::new(Status::INTERNAL, error.to_string()))?
            .into_iter()
            .next()
            .map(|newest| newest.name)
            .ok_or_else(|| {
                Status::new(
                    Status::FAILED_PRECONDITION,
                    "there is no backup to check yet; take a backup first",
                )
            })?,
    };
    let source = backups.dir.join(&name);
    if !source.is_file() {
        return Err(Status::new(
            Status::FAILED_PRECONDITION,
            format!("there is no backup named {name:?}"),
        ));
    }
    let scratch = backups.dir.join(format!(
        ".restore-check-{}.db",
        uuid::Uuid::new_v4().simple()
    ));
    let result = check(context, backups, &name, &source, &scratch).await;
    for leftover in [scratch.clone(), scratch.with_extension("db-journal")] {
        let _ = std::fs::remove_file(leftover);
    }
    result
}

async fn open(path: &Path, read_only: bool) -> Result<SqliteConnection, Status> {
    SqliteConnectOptions::new()
        .filename(path)
        .read_only(read_only)
        .create_if_missing(!read_only)
        .connect()
        .await
        .map_err(|error| {
            Status::new(
                Status::FAILED_PRECONDITION,
                format!("cannot open the database: {error}"),
            )
        })
}

fn failed(error: sqlx::Error) -> Status {
    Status::new(
        Status::FAILED_PRECONDITION,
        format!("the backup could not be replayed: {error}"),
    )
}

async fn check(
    context: &JobContext,
    backups: &Backups,
    name: &str,
    source: &Path,
    scratch: &Path,
) -> Result<Value, Status> {
    let progress = |total: i64, checked: i64| {
        RestoreCheckMetadata {
            backup_file: name.to_owned(),
            tables_total: total,
            tables_checked: checked,
        }
        .to_json()
    };
    context.report(progress(0, 0), 0).await;
    let mut backup = open(source, true).await?;
    let replay = sqlx::query("VACUUM INTO ?")
        .bind(scratch.to_string_lossy().into_owned())
        .execute(&mut backup)
        .await;
    let _ = backup.close().await;
    replay.map_err(failed)?;
    context.checkpoint()?;

    let mut copy = open(scratch, false).await?;
    let integrity: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_all(&mut copy)
        .await
        .map_err(failed)?;
    if integrity != ["ok"] {
        return Err(Status::new(
            Status::FAILED_PRECONDITION,
            format!(
                "the replayed copy fails its integrity check: {}",
                integrity.join("; ")
            ),
        ));
    }
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(&mut copy)
    .await
    .map_err(failed)?;
    let total = i64::try_from(tables.len()).unwrap_or(i64::MAX);
    let mut table_rows = std::collections::BTreeMap::new();
    let mut total_rows = 0_i64;
    for (done, table) in tables.iter().enumerate() {
        context.checkpoint()?;
        let rows: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM \"{}\"",
            table.replace('"', "\"\"")
        )))
        .fetch_one(&mut copy)
        .await
        .map_err(failed)?;
        total_rows += rows;
        table_rows.insert(table.clone(), rows);
        let checked = i64::try_from(done + 1).unwrap_or(i64::MAX);
        context
            .report(progress(total, checked), percent(checked, total))
            .await;
    }
    let _ = copy.close().await;
    if total_rows < backups.settings.restore_min_rows {
        return Err(Status::new(
            Status::FAILED_PRECONDITION,
            format!(
                "the backup {name} holds {total_rows} rows, fewer than RESTORE_MIN_ROWS ({})",
                backups.settings.restore_min_rows
            ),
        ));
    }
    Ok(RestoreCheckResponse {
        backup_file: name.to_owned(),
        table_rows,
        total_rows,
        min_rows: backups.settings.restore_min_rows,
    }
    .to_json())
}
