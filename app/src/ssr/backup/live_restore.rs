//! Restoring a backup into the running server's database: every table,
//! index, trigger and view of the live database is replaced by the
//! backup's, in one `BEGIN IMMEDIATE` transaction on one pool connection,
//! so other connections see the old database or the restored one, never a
//! mix, and a failure changes nothing. The operations still running (the
//! restore's own among them) are carried over; the ones the backup caught
//! running are ended as aborted, since nothing runs them any more.

use std::path::Path;

use sqlx::pool::PoolConnection;
use sqlx::sqlite::SqliteQueryResult;
use sqlx::{Executor, Sqlite, SqliteConnection, SqlitePool};

use super::BackupError;

const SOURCE: &str = "restore_source";

/// What a live restore replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveRestored {
    pub tables: i64,
    pub rows: i64,
}

/// Runs `sql` (one statement or several) through `Executor::execute`, whose
/// boxed future is `Send`: awaiting `RawSql::execute`'s generic one here
/// trips rustc's higher-ranked lifetime check when a job or a server
/// function must be `Send`.
async fn run_sql(conn: &mut SqliteConnection, sql: &str) -> Result<SqliteQueryResult, sqlx::Error> {
    conn.execute(sqlx::raw_sql(sql)).await
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Replaces the live database's contents with `source`'s (already checked
/// by the caller).
pub async fn restore_live(pool: &SqlitePool, source: &Path) -> Result<LiveRestored, BackupError> {
    let mut conn = pool.acquire().await.map_err(BackupError::Copy)?;
    run_sql(&mut conn, "PRAGMA foreign_keys = OFF")
        .await
        .map_err(BackupError::Copy)?;
    let attached = sqlx::query(&format!("ATTACH DATABASE ? AS {SOURCE}"))
        .bind(source.to_string_lossy().into_owned())
        .execute(&mut *conn)
        .await;
    let result = match attached {
        Ok(_) => {
            let result = replace_all(&mut conn).await;
            if result.is_err() {
                let _ = run_sql(&mut conn, "ROLLBACK").await;
            }
            let _ = run_sql(&mut conn, &format!("DETACH DATABASE {SOURCE}")).await;
            result
        }
        Err(error) => Err(error),
    };
    // The connection goes back to the pool as every other is: enforcing
    // foreign keys.
    let restored = run_sql(&mut conn, "PRAGMA foreign_keys = ON").await;
    let result = result.map_err(BackupError::Copy)?;
    restored.map_err(BackupError::Copy)?;
    let broken: Vec<(String,)> = sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check()")
        .fetch_all(&mut *conn)
        .await
        .map_err(BackupError::Copy)?;
    if !broken.is_empty() {
        tracing::warn!(
            rows = broken.len(),
            "the restored backup has rows whose references are missing"
        );
    }
    Ok(result)
}

async fn replace_all(conn: &mut PoolConnection<Sqlite>) -> Result<LiveRestored, sqlx::Error> {
    run_sql(conn, "BEGIN IMMEDIATE").await?;
    run_sql(
        conn,
        "CREATE TEMP TABLE restore_running AS SELECT * FROM main.operations WHERE done = 0",
    )
    .await?;

    // Out with the live objects: views and triggers, then tables (their
    // indexes go with them).
    let live: Vec<(String, String)> = sqlx::query_as(
        "SELECT type, name FROM main.sqlite_schema
         WHERE name NOT LIKE 'sqlite_%' AND type IN ('view', 'trigger', 'table')
         ORDER BY CASE type WHEN 'view' THEN 0 WHEN 'trigger' THEN 1 ELSE 2 END",
    )
    .fetch_all(&mut **conn)
    .await?;
    for (kind, name) in &live {
        let kind = match kind.as_str() {
            "view" => "VIEW",
            "trigger" => "TRIGGER",
            _ => "TABLE",
        };
        run_sql(
            conn,
            &format!("DROP {kind} IF EXISTS main.{}", quoted(name)),
        )
        .await?;
    }

    // In with the backup's: tables and their rows, then the rest.
    let objects: Vec<(String, String, String)> = sqlx::query_as(&format!(
        "SELECT type, name, sql FROM {SOURCE}.sqlite_schema
         WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
         ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'trigger' THEN 2 ELSE 3 END, rowid"
    ))
    .fetch_all(&mut **conn)
    .await?;
    let mut restored = LiveRestored { tables: 0, rows: 0 };
    for (kind, name, sql) in &objects {
        run_sql(conn, sql).await?;
        if kind == "table" {
            let columns = copy_columns(conn, name).await?;
            let copied = run_sql(
                conn,
                &format!(
                    "INSERT INTO main.{table} ({columns}) SELECT {columns} FROM {SOURCE}.{table}",
                    table = quoted(name),
                ),
            )
            .await?;
            restored.tables += 1;
            restored.rows += i64::try_from(copied.rows_affected()).unwrap_or(i64::MAX);
        }
    }
    let has_sequence: bool = sqlx::query_scalar(&format!(
        "SELECT count(*) > 0 FROM {SOURCE}.sqlite_schema WHERE name = 'sqlite_sequence'"
    ))
    .fetch_one(&mut **conn)
    .await?;
    if has_sequence {
        run_sql(
            conn,
            &format!(
                "DELETE FROM main.sqlite_sequence;
             INSERT INTO main.sqlite_sequence SELECT * FROM {SOURCE}.sqlite_sequence;"
            ),
        )
        .await?;
    }
    carry_over_running(conn).await?;
    run_sql(conn, "DROP TABLE temp.restore_running; COMMIT").await?;
    Ok(restored)
}

/// The stored (not generated) columns of the backup's `table`, quoted and
/// joined.
async fn copy_columns(
    conn: &mut PoolConnection<Sqlite>,
    table: &str,
) -> Result<String, sqlx::Error> {
    let names: Vec<String> =
        sqlx::query_scalar("SELECT name FROM pragma_table_xinfo(?, ?) WHERE hidden = 0")
            .bind(table)
            .bind(SOURCE)
            .fetch_all(&mut **conn)
            .await?;
    Ok(names
        .iter()
        .map(|name| quoted(name))
        .collect::<Vec<_>>()
        .join(", "))
}

/// The operations running now go back in (by the columns both schemas
/// have); the ones the backup caught running end as aborted.
async fn carry_over_running(conn: &mut PoolConnection<Sqlite>) -> Result<(), sqlx::Error> {
    run_sql(
        conn,
        "UPDATE main.operations
         SET done = 1, error_code = 10,
             error_message = 'stopped: the database was restored from a backup taken while it ran',
             ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE done = 0",
    )
    .await?;
    let common: Vec<String> = sqlx::query_scalar(
        "SELECT live.name FROM pragma_table_info('restore_running', 'temp') AS live
         JOIN pragma_table_info('operations', 'main') AS restored ON restored.name = live.name",
    )
    .fetch_all(&mut **conn)
    .await?;
    let columns = common
        .iter()
        .map(|name| quoted(name))
        .collect::<Vec<_>>()
        .join(", ");
    run_sql(conn, &format!(
        "INSERT OR REPLACE INTO main.operations ({columns}) SELECT {columns} FROM temp.restore_running"
    ))
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};

    async fn pool(path: &Path) -> SqlitePool {
        SqlitePoolOptions::new()
            .max_connections(2)
            .connect_with(
                SqliteConnectOptions::new()
                    .filename(path)
                    .create_if_missing(true)
                    .foreign_keys(true)
                    .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal),
            )
            .await
            .unwrap()
    }

    const SCHEMA: &str = "
        CREATE TABLE operations (id TEXT PRIMARY KEY, done INTEGER NOT NULL DEFAULT 0,
            error_code INTEGER, error_message TEXT, ended_at TEXT, updated_at TEXT);
        CREATE TABLE owners (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL);
        CREATE TABLE pets (id INTEGER PRIMARY KEY, owner INTEGER NOT NULL REFERENCES owners(id),
            name TEXT NOT NULL, loud TEXT GENERATED ALWAYS AS (upper(name)) VIRTUAL);
        CREATE INDEX pets_owner ON pets(owner);
        CREATE VIEW named AS SELECT name FROM pets;";

    #[tokio::test]
    async fn the_backup_replaces_everything_but_what_runs_now() {
        let dir = tempfile::tempdir().unwrap();
        let backup_path = dir.path().join("backup.db");
        let backup = pool(&backup_path).await;
        sqlx::raw_sql(SCHEMA).execute(&backup).await.unwrap();
        sqlx::raw_sql(
            "INSERT INTO owners (name) VALUES ('Ada');
             INSERT INTO pets (owner, name) VALUES (1, 'rex');
             INSERT INTO operations (id, done) VALUES ('caught-running', 0), ('old', 1);",
        )
        .execute(&backup)
        .await
        .unwrap();
        backup.close().await;

        let live = pool(&dir.path().join("live.db")).await;
        sqlx::raw_sql(SCHEMA).execute(&live).await.unwrap();
        sqlx::raw_sql(
            "CREATE TABLE only_live (x);
             INSERT INTO owners (name) VALUES ('Bob'), ('Cy');
             INSERT INTO pets (owner, name) VALUES (2, 'tom');
             INSERT INTO operations (id, done) VALUES ('the-restore', 0);",
        )
        .execute(&live)
        .await
        .unwrap();

        let restored = restore_live(&live, &backup_path).await.unwrap();
        assert_eq!(restored, LiveRestored { tables: 3, rows: 4 });

        let pets: Vec<(String, String)> = sqlx::query_as("SELECT name, loud FROM pets")
            .fetch_all(&live)
            .await
            .unwrap();
        assert_eq!(pets, [("rex".to_owned(), "REX".to_owned())]);
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .fetch_all(&live)
        .await
        .unwrap();
        assert_eq!(
            tables,
            ["named", "operations", "owners", "pets", "pets_owner"]
        );
        let operations: Vec<(String, i64, Option<i64>)> =
            sqlx::query_as("SELECT id, done, error_code FROM operations ORDER BY id")
                .fetch_all(&live)
                .await
                .unwrap();
        assert_eq!(
            operations,
            [
                ("caught-running".to_owned(), 1, Some(10)),
                ("old".to_owned(), 1, None),
                ("the-restore".to_owned(), 0, None),
            ]
        );
        // AUTOINCREMENT continues from the backup's sequence, and the
        // connection enforces foreign keys again.
        let next: i64 = sqlx::query_scalar("INSERT INTO owners (name) VALUES ('Dee') RETURNING id")
            .fetch_one(&live)
            .await
            .unwrap();
        assert_eq!(next, 2);
        for _ in 0..2 {
            let refused = sqlx::query("INSERT INTO pets (owner, name) VALUES (99, 'ghost')")
                .execute(&live)
                .await;
            assert!(
                refused.is_err(),
                "foreign keys are enforced after a restore"
            );
        }
    }

    #[tokio::test]
    async fn a_failed_restore_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let broken = dir.path().join("broken.db");
        let source = pool(&broken).await;
        // Not a Tally backup: no operations table to carry the running
        // ones over into, found only after everything was dropped.
        sqlx::raw_sql("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);")
            .execute(&source)
            .await
            .unwrap();
        source.close().await;

        let live = pool(&dir.path().join("live.db")).await;
        sqlx::raw_sql(SCHEMA).execute(&live).await.unwrap();
        sqlx::raw_sql("INSERT INTO owners (name) VALUES ('Bob')")
            .execute(&live)
            .await
            .unwrap();
        assert!(restore_live(&live, &broken).await.is_err());
        let owners: Vec<String> = sqlx::query_scalar("SELECT name FROM owners")
            .fetch_all(&live)
            .await
            .unwrap();
        assert_eq!(owners, ["Bob"]);
    }
}
