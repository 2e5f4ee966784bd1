use std::path::Path;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

use super::BackupError;

/// What a checked copy holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub tables: i64,
    pub rows: i64,
}

/// Opens a database copy read-only and checks it: `PRAGMA integrity_check`
/// must answer `ok`, it must hold the schema history, and at least
/// `min_tables` tables. Counts the rows of every table.
pub async fn verify(path: &Path, min_tables: i64) -> Result<Verified, BackupError> {
    let failed = |why: String| BackupError::CheckFailed(why);
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .connect()
        .await
        .map_err(|e| failed(format!("cannot open the copy: {e}")))?;
    let result = async {
        let integrity: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_all(&mut conn)
            .await
            .map_err(|e| failed(format!("integrity check could not run: {e}")))?;
        if integrity != ["ok"] {
            return Err(failed(format!("integrity check: {}", integrity.join("; "))));
        }
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .fetch_all(&mut conn)
        .await
        .map_err(|e| failed(e.to_string()))?;
        if !tables.iter().any(|t| t == "schema_migrations") {
            return Err(failed("the copy has no schema_migrations table".into()));
        }
        let count = tables.len() as i64;
        if count < min_tables.max(1) {
            return Err(failed(format!("the copy has {count} tables, expected at least {min_tables}")));
        }
        let mut rows = 0;
        for table in &tables {
            let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT count(*) FROM \"{}\"", table.replace('"', "\"\""))))
                .fetch_one(&mut conn)
                .await
                .map_err(|e| failed(e.to_string()))?;
            rows += n;
        }
        Ok(Verified { tables: count, rows })
    }
    .await;
    let _ = conn.close().await;
    result
}
