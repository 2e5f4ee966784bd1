//! Restoring a backup into the running server's database: every table,
//! index, trigger and view of the live database is replaced by the
//! backup's, in one `BEGIN IMMEDIATE` transaction on one pool connection,
//! so other connections see the old database or the restored one, never a
//! mix, and a failure changes nothing. The current database is saved after
//! that transaction took the write lock, so a write made while the restore
//! runs is in the save, or waits and lands on the restored data.
//!
//! What runs is Tally's own: the backup must be Tally's schema at a known
//! version (`known_schema`), its objects are created from those checked
//! statements, and its rows are read over a read-only connection of its own
//! and written here with bound values (no `ATTACH`, so nothing of the file
//! runs inside the live connection).
//!
//! Two things are not taken from the backup:
//! - the operations running now (the restore's own among them) are carried
//!   over; the ones the backup caught running end as aborted;
//! - the security state, which is the live one: for each account in both
//!   the live database and the backup (same id and email), its password,
//!   role, disabled state, second factors, sessions, pending sign-ins and
//!   API tokens are the live ones; the backup's sessions, tokens and unused
//!   invitations are all dropped, and the live unused invitations kept. So
//!   an older backup never revives a revoked token, an old password, a
//!   removed security key, an ended session or a disabled account, and the
//!   administrator who restores stays signed in.

use std::path::Path;

use sqlx::pool::PoolConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteQueryResult, SqliteRow};
use sqlx::{
    ConnectOptions, Connection, Executor, Row, Sqlite, SqliteConnection, SqlitePool, TypeInfo,
    ValueRef,
};

use super::known_schema::KnownSchema;
use super::BackupError;

/// What a live restore replaced, and what it reset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveRestored {
    pub tables: i64,
    pub rows: i64,
    pub security: SecurityReset,
}

/// The security state a restore did not take from the backup: what the
/// backup could still use that is not usable now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SecurityReset {
    /// The backup's sessions that ended since.
    pub sessions_ended: i64,
    /// The backup's live API tokens that were revoked since.
    pub tokens_revoked: i64,
    /// The backup's unused invitations that were withdrawn or used since.
    pub invitations_revoked: i64,
    /// Accounts in both whose credentials, standing, sessions and tokens
    /// are the live ones.
    pub accounts_kept: i64,
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

/// Column names quoted and joined with commas, for a column list.
fn quoted_list(names: &[String]) -> String {
    names
        .iter()
        .map(|name| quoted(name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn count(done: SqliteQueryResult) -> i64 {
    i64::try_from(done.rows_affected()).unwrap_or(i64::MAX)
}

/// Why a live restore did not happen; either way the live database is as
/// it was.
#[derive(Debug)]
pub enum LiveRestoreError {
    /// The current database could not be saved first.
    NotSaved(BackupError),
    /// The copy failed and was rolled back.
    Failed(BackupError),
}

/// Replaces the live database's contents with `source`'s, whose schema
/// `known_schema` showed to be Tally's own (`schema`).
///
/// `save_first` saves the current database (over other pool connections,
/// reading only) once this restore holds the write lock, so no write can
/// land between the save and the replacement: every write is in the save
/// or waits for the restore and lands after it.
pub async fn restore_live<S>(
    pool: &SqlitePool,
    source: &Path,
    schema: &KnownSchema,
    save_first: impl std::future::Future<Output = Result<S, BackupError>>,
) -> Result<(S, LiveRestored), LiveRestoreError> {
    let failed = |error| LiveRestoreError::Failed(BackupError::Copy(error));
    let mut backup = SqliteConnectOptions::new()
        .filename(source)
        .read_only(true)
        .connect()
        .await
        .map_err(failed)?;
    let mut conn = pool.acquire().await.map_err(failed)?;
    run_sql(&mut conn, "PRAGMA foreign_keys = OFF")
        .await
        .map_err(failed)?;
    let result = match run_sql(&mut conn, "BEGIN IMMEDIATE").await {
        Err(error) => Err(failed(error)),
        Ok(_) => match save_first.await {
            Err(error) => Err(LiveRestoreError::NotSaved(error)),
            Ok(saved) => replace_all(&mut conn, &mut backup, schema)
                .await
                .map(|restored| (saved, restored))
                .map_err(failed),
        },
    };
    if result.is_err() {
        let _ = run_sql(&mut conn, "ROLLBACK").await;
    }
    let _ = backup.close().await;
    // The connection goes back to the pool as every other is: enforcing
    // foreign keys.
    let restored = run_sql(&mut conn, "PRAGMA foreign_keys = ON").await;
    let result = result?;
    restored.map_err(failed)?;
    let broken: Vec<(String,)> = sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check()")
        .fetch_all(&mut *conn)
        .await
        .map_err(failed)?;
    if !broken.is_empty() {
        tracing::warn!(
            rows = broken.len(),
            "the restored backup has rows whose references are missing"
        );
    }
    Ok(result)
}

/// The live tables whose rows the restore keeps aside for the security
/// state (when the live schema has them).
const KEPT_ASIDE: [&str; 7] = [
    "users",
    "recovery_codes",
    "webauthn_credentials",
    "sessions",
    "pending_sign_ins",
    "api_tokens",
    "invitations",
];

async fn has_table(
    conn: &mut SqliteConnection,
    schema: &str,
    table: &str,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(&format!(
        "SELECT count(*) > 0 FROM {schema}.sqlite_schema WHERE type = 'table' AND name = ?"
    ))
    .bind(table)
    .fetch_one(&mut *conn)
    .await
}

async fn replace_all(
    conn: &mut PoolConnection<Sqlite>,
    backup: &mut SqliteConnection,
    schema: &KnownSchema,
) -> Result<LiveRestored, sqlx::Error> {
    run_sql(
        conn,
        "CREATE TEMP TABLE restore_running AS SELECT * FROM main.operations WHERE done = 0",
    )
    .await?;
    for table in KEPT_ASIDE {
        if has_table(conn, "main", table).await? {
            run_sql(
                conn,
                &format!("CREATE TEMP TABLE live_{table} AS SELECT * FROM main.{table}"),
            )
            .await?;
        }
    }

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

    // In with Tally's statements for the backup's version: tables first,
    // each filled from the backup, then indexes, triggers and views (so no
    // trigger fires on the copy).
    let mut restored = LiveRestored::default();
    for object in &schema.objects {
        run_sql(conn, &object.sql).await?;
        if object.kind == "table" {
            restored.rows += copy_rows(conn, backup, &object.name).await?;
            restored.tables += 1;
        }
    }
    let sequences: Vec<(String, i64)> = if has_table(backup, "main", "sqlite_sequence").await? {
        sqlx::query_as("SELECT name, seq FROM sqlite_sequence")
            .fetch_all(&mut *backup)
            .await?
    } else {
        Vec::new()
    };
    if has_table(conn, "main", "sqlite_sequence").await? {
        run_sql(conn, "DELETE FROM main.sqlite_sequence").await?;
        for (name, seq) in sequences {
            sqlx::query("INSERT INTO main.sqlite_sequence (name, seq) VALUES (?, ?)")
                .bind(name)
                .bind(seq)
                .execute(&mut **conn)
                .await?;
        }
    }
    carry_over_running(conn).await?;
    restored.security = reset_security(conn).await?;
    let mut cleanup = String::from("DROP TABLE temp.restore_running;");
    for table in KEPT_ASIDE {
        cleanup.push_str(&format!("DROP TABLE IF EXISTS temp.live_{table};"));
    }
    run_sql(conn, &format!("{cleanup} COMMIT")).await?;
    Ok(restored)
}

/// The stored (not generated) columns of `table` in the database on `conn`.
async fn stored_columns(
    conn: &mut SqliteConnection,
    schema: &str,
    table: &str,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT name FROM pragma_table_xinfo(?, ?) WHERE hidden = 0")
        .bind(table)
        .bind(schema)
        .fetch_all(&mut *conn)
        .await
}

/// One value as SQLite stored it.
enum Cell {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

fn cell(row: &SqliteRow, index: usize) -> Result<Cell, sqlx::Error> {
    let raw = row.try_get_raw(index)?;
    if raw.is_null() {
        return Ok(Cell::Null);
    }
    let kind = raw.type_info().name().to_owned();
    Ok(match kind.as_str() {
        "INTEGER" => Cell::Integer(row.try_get_unchecked(index)?),
        "REAL" => Cell::Real(row.try_get_unchecked(index)?),
        "BLOB" => Cell::Blob(row.try_get_unchecked(index)?),
        _ => Cell::Text(row.try_get_unchecked(index)?),
    })
}

/// Rows read from the backup at a time.
const BATCH: i64 = 500;

/// Copies every row of `table` from the backup into the live table of the
/// same (checked) definition, a batch at a time in rowid order (no table of
/// Tally's is `WITHOUT ROWID`); how many.
async fn copy_rows(
    conn: &mut PoolConnection<Sqlite>,
    backup: &mut SqliteConnection,
    table: &str,
) -> Result<i64, sqlx::Error> {
    let columns = stored_columns(backup, "main", table).await?;
    if columns.is_empty() {
        return Ok(0);
    }
    let list = quoted_list(&columns);
    let placeholders = vec!["?"; columns.len()].join(", ");
    let select = format!(
        "SELECT {list}, _rowid_ FROM main.{} WHERE _rowid_ > ? ORDER BY _rowid_ LIMIT {BATCH}",
        quoted(table)
    );
    let insert = format!(
        "INSERT INTO main.{} ({list}) VALUES ({placeholders})",
        quoted(table)
    );
    let mut copied = 0;
    let mut after = i64::MIN;
    loop {
        let rows = sqlx::query(&select)
            .bind(after)
            .fetch_all(&mut *backup)
            .await?;
        let Some(last) = rows.last() else {
            return Ok(copied);
        };
        after = last.try_get(columns.len())?;
        for row in &rows {
            let mut query = sqlx::query(&insert);
            for index in 0..columns.len() {
                query = match cell(row, index)? {
                    Cell::Null => query.bind(None::<i64>),
                    Cell::Integer(value) => query.bind(value),
                    Cell::Real(value) => query.bind(value),
                    Cell::Text(value) => query.bind(value),
                    Cell::Blob(value) => query.bind(value),
                };
            }
            query.execute(&mut **conn).await?;
            copied += 1;
        }
    }
}

/// The columns `table` has both live (kept aside in `temp.live_{table}`)
/// and restored, quoted and joined; empty when either lacks the table.
async fn common_columns(
    conn: &mut PoolConnection<Sqlite>,
    table: &str,
) -> Result<Vec<String>, sqlx::Error> {
    if !has_table(conn, "temp", &format!("live_{table}")).await?
        || !has_table(conn, "main", table).await?
    {
        return Ok(Vec::new());
    }
    let live = stored_columns(conn, "temp", &format!("live_{table}")).await?;
    let restored = stored_columns(conn, "main", table).await?;
    Ok(live
        .into_iter()
        .filter(|name| restored.contains(name))
        .collect())
}

/// The account columns a restore keeps from the live database.
const ACCOUNT_STATE: [&str; 7] = [
    "password_hash",
    "role",
    "disabled_at",
    "totp_secret",
    "totp_enabled",
    "webauthn_enabled",
    "webauthn_user_id",
];

async fn reset_security(conn: &mut PoolConnection<Sqlite>) -> Result<SecurityReset, sqlx::Error> {
    // The backup's own credentials go, whoever they were for; what was
    // usable in the backup is noted first, to count what did not survive.
    for (table, key, usable) in USABLE {
        if has_table(conn, "main", table).await? {
            run_sql(
                conn,
                &format!(
                    "CREATE TEMP TABLE restore_was_{table} AS
                     SELECT {key} AS key FROM main.{table} WHERE {usable}"
                ),
            )
            .await?;
        }
    }
    for (table, filter) in [
        ("sessions", ""),
        ("pending_sign_ins", ""),
        ("api_tokens", ""),
        ("invitations", " WHERE used_at IS NULL"),
    ] {
        if has_table(conn, "main", table).await? {
            run_sql(conn, &format!("DELETE FROM main.{table}{filter}")).await?;
        }
    }
    let reset = carry_live_security(conn).await?;
    // What the backup could use that is not usable now.
    let mut reset = reset;
    for (table, key, usable) in USABLE {
        if !has_table(conn, "temp", &format!("restore_was_{table}")).await? {
            continue;
        }
        let gone: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM temp.restore_was_{table}
             WHERE key NOT IN (SELECT {key} FROM main.{table} WHERE {usable})"
        ))
        .fetch_one(&mut **conn)
        .await?;
        match table {
            "sessions" => reset.sessions_ended = gone,
            "api_tokens" => reset.tokens_revoked = gone,
            _ => reset.invitations_revoked = gone,
        }
        run_sql(conn, &format!("DROP TABLE temp.restore_was_{table}")).await?;
    }
    Ok(reset)
}

/// The credentials a backup carries, by table: the key that names one, and
/// when it could still be used.
const USABLE: [(&str, &str, &str); 3] = [
    ("sessions", "id", "true"),
    ("api_tokens", "token_hash", "revoked_at IS NULL"),
    ("invitations", "token_hash", "used_at IS NULL"),
];

/// For each account in both: the live credentials, standing, sessions and
/// tokens; and the live unused invitations.
async fn carry_live_security(
    conn: &mut PoolConnection<Sqlite>,
) -> Result<SecurityReset, sqlx::Error> {
    let mut reset = SecurityReset::default();

    // Accounts in both: the live credentials, standing, sessions and tokens.
    let users = common_columns(conn, "users").await?;
    if !users.iter().any(|name| name == "email") {
        return Ok(reset);
    }
    run_sql(
        conn,
        "CREATE TEMP TABLE restore_both AS
         SELECT live.id FROM temp.live_users AS live
         JOIN main.users AS restored ON restored.id = live.id AND restored.email = live.email",
    )
    .await?;
    let kept: Vec<&str> = ACCOUNT_STATE
        .iter()
        .copied()
        .filter(|name| users.iter().any(|column| column == name))
        .collect();
    if !kept.is_empty() {
        let assignments = kept
            .iter()
            .map(|name| {
                format!(
                    "{column} = (SELECT live.{column} FROM temp.live_users AS live WHERE live.id = users.id)",
                    column = quoted(name)
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        reset.accounts_kept = count(
            run_sql(
                conn,
                &format!(
                    "UPDATE main.users SET {assignments} WHERE id IN (SELECT id FROM temp.restore_both)"
                ),
            )
            .await?,
        );
    }
    for table in [
        "recovery_codes",
        "webauthn_credentials",
        "sessions",
        "pending_sign_ins",
        "api_tokens",
    ] {
        let columns = common_columns(conn, table).await?;
        if !columns.iter().any(|name| name == "user_id") {
            continue;
        }
        let list = quoted_list(&columns);
        run_sql(
            conn,
            &format!(
                "DELETE FROM main.{table} WHERE user_id IN (SELECT id FROM temp.restore_both);
                 INSERT INTO main.{table} ({list})
                 SELECT {list} FROM temp.live_{table}
                 WHERE user_id IN (SELECT id FROM temp.restore_both);"
            ),
        )
        .await?;
    }
    // The live unused invitations stay open (who made one may be gone).
    let columns = common_columns(conn, "invitations").await?;
    if columns.iter().any(|name| name == "used_at") {
        let list = quoted_list(&columns);
        let chosen = columns
            .iter()
            .map(|name| match name.as_str() {
                "created_by" => {
                    "CASE WHEN created_by IN (SELECT id FROM temp.restore_both) THEN created_by END"
                        .to_owned()
                }
                other => quoted(other),
            })
            .collect::<Vec<_>>()
            .join(", ");
        run_sql(
            conn,
            &format!(
                "INSERT OR IGNORE INTO main.invitations ({list})
                 SELECT {chosen} FROM temp.live_invitations WHERE used_at IS NULL"
            ),
        )
        .await?;
    }
    run_sql(conn, "DROP TABLE temp.restore_both").await?;
    Ok(reset)
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
    let columns = quoted_list(&common);
    run_sql(conn, &format!(
        "INSERT OR REPLACE INTO main.operations ({columns}) SELECT {columns} FROM temp.restore_running"
    ))
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::backup::known_schema;
    use crate::backend::migrate::Migrator;
    use sqlx::sqlite::SqlitePoolOptions;

    async fn pool(path: &Path) -> SqlitePool {
        SqlitePoolOptions::new()
            .max_connections(4)
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

    async fn tally(path: &Path, data: &str) -> SqlitePool {
        let pool = pool(path).await;
        Migrator::default().run(&pool).await.unwrap();
        sqlx::raw_sql(data).execute(&pool).await.unwrap();
        pool
    }

    const ALICE: &str = "INSERT INTO users (id, email, password_hash, role)
        VALUES (1, 'alice@example.com', 'old-hash', 'admin');";

    fn bill(id: i64, name: &str) -> String {
        format!(
            "INSERT INTO bills (id, user_id, name, amount_cents, cadence, due_day, anchor_date)
             VALUES ({id}, 1, '{name}', 100, 'monthly', 1, '2026-01-01');"
        )
    }

    async fn names(pool: &SqlitePool, sql: &str) -> Vec<String> {
        sqlx::query_scalar(sql).fetch_all(pool).await.unwrap()
    }

    #[tokio::test]
    async fn the_backup_replaces_the_data_but_not_what_runs_now_nor_the_security_state() {
        let dir = tempfile::tempdir().unwrap();
        let backup_path = dir.path().join("backup.db");
        let backup = tally(
            &backup_path,
            &format!(
                "{ALICE}
                 INSERT INTO users (id, email, password_hash) VALUES (2, 'bob@example.com', 'bob-hash');
                 {}
                 INSERT INTO operations (id, owner_id, kind, metadata_type, done)
                     VALUES ('caught-running', 1, 'backup', 't', 0);
                 INSERT INTO api_tokens (user_id, name, token_hash, expires_at)
                     VALUES (1, 'old', printf('%064d', 1), '2999-01-01T00:00:00Z');
                 INSERT INTO webauthn_credentials (user_id, credential_id, name, passkey)
                     VALUES (1, 'lost-key', 'lost', '{{}}');",
                bill(1, "Rent"),
            ),
        )
        .await;
        backup.close().await;

        let live = tally(
            &dir.path().join("live.db"),
            &format!(
                "{ALICE}
                 UPDATE users SET password_hash = 'new-hash', role = 'user',
                     disabled_at = '2026-11-01T00:00:00Z' WHERE id = 1;
                 {}
                 INSERT INTO operations (id, owner_id, kind, metadata_type, done)
                     VALUES ('the-restore', 1, 'restore', 't', 0);
                 INSERT INTO webauthn_credentials (user_id, credential_id, name, passkey)
                     VALUES (1, 'new-key', 'new', '{{}}');
                 INSERT INTO api_tokens (user_id, name, token_hash, expires_at, revoked_at)
                     VALUES (1, 'revoked', printf('%064d', 1), '2999-01-01T00:00:00Z', '2026-11-02T00:00:00Z');
                 INSERT INTO api_tokens (user_id, name, token_hash, expires_at)
                     VALUES (1, 'live', printf('%064d', 2), '2999-01-01T00:00:00Z');",
                bill(2, "Gym"),
            ),
        )
        .await;

        let schema = known_schema(&backup_path).await.unwrap();
        let ((), restored) = restore_live(&live, &backup_path, &schema, async { Ok(()) })
            .await
            .unwrap();
        assert!(restored.tables > 10 && restored.rows >= 6, "{restored:?}");
        assert_eq!(restored.security.tokens_revoked, 1, "the backup's token");
        assert_eq!(restored.security.accounts_kept, 1, "alice is in both");

        assert_eq!(names(&live, "SELECT name FROM bills").await, ["Rent"]);
        let alice: (String, String, Option<String>) =
            sqlx::query_as("SELECT password_hash, role, disabled_at FROM users WHERE id = 1")
                .fetch_one(&live)
                .await
                .unwrap();
        assert_eq!(
            alice,
            (
                "new-hash".into(),
                "user".into(),
                Some("2026-11-01T00:00:00Z".into())
            ),
            "the live password, role and disabled state"
        );
        assert_eq!(
            names(&live, "SELECT email FROM users ORDER BY id").await,
            ["alice@example.com", "bob@example.com"]
        );
        assert_eq!(
            names(&live, "SELECT credential_id FROM webauthn_credentials").await,
            ["new-key"],
            "a key removed since the backup stays removed"
        );
        assert_eq!(
            names(
                &live,
                "SELECT name FROM api_tokens WHERE revoked_at IS NULL"
            )
            .await,
            ["live"],
            "a token revoked since the backup stays revoked; a live one stays live"
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
                ("the-restore".to_owned(), 0, None),
            ]
        );
        // The connection enforces foreign keys again.
        for _ in 0..2 {
            let refused = sqlx::query(
                "INSERT INTO bills (user_id, name, amount_cents, cadence, due_day, anchor_date)
                 VALUES (99, 'ghost', 1, 'monthly', 1, '2026-01-01')",
            )
            .execute(&live)
            .await;
            assert!(
                refused.is_err(),
                "foreign keys are enforced after a restore"
            );
        }
    }

    #[tokio::test]
    async fn a_file_that_is_not_tallys_schema_is_refused_before_anything_runs() {
        let dir = tempfile::tempdir().unwrap();
        let live = tally(
            &dir.path().join("live.db"),
            &format!("{ALICE}{}", bill(1, "Rent")),
        )
        .await;

        let foreign = dir.path().join("foreign.db");
        let source = pool(&foreign).await;
        sqlx::raw_sql("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);")
            .execute(&source)
            .await
            .unwrap();
        source.close().await;
        assert!(known_schema(&foreign).await.is_err());

        // Tally's schema with a trigger of its own.
        let planted = dir.path().join("planted.db");
        let source = tally(&planted, ALICE).await;
        sqlx::raw_sql(
            "CREATE TRIGGER promote AFTER INSERT ON sessions
             BEGIN UPDATE users SET role = 'admin'; END",
        )
        .execute(&source)
        .await
        .unwrap();
        source.close().await;
        let error = known_schema(&planted).await.unwrap_err().to_string();
        assert!(error.contains("promote"), "{error}");
        assert_eq!(names(&live, "SELECT name FROM bills").await, ["Rent"]);
        assert_eq!(
            names(
                &live,
                "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name = 'promote'"
            )
            .await,
            Vec::<String>::new()
        );
    }

    #[tokio::test]
    async fn a_write_made_while_the_current_database_is_saved_lands_on_the_restored_data() {
        let dir = tempfile::tempdir().unwrap();
        let backup_path = dir.path().join("backup.db");
        tally(&backup_path, &format!("{ALICE}{}", bill(1, "Gym")))
            .await
            .close()
            .await;
        let live = tally(
            &dir.path().join("live.db"),
            &format!("{ALICE}{}", bill(2, "Rent")),
        )
        .await;
        let schema = known_schema(&backup_path).await.unwrap();
        let saved_path = dir.path().join("saved.db");
        let save = async {
            // A person saves a bill just as the save starts: it waits for
            // the restore's write lock instead of slipping in between.
            let writer_pool = live.clone();
            let writer =
                tokio::spawn(
                    async move { sqlx::query(&bill(3, "During")).execute(&writer_pool).await },
                );
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            assert!(!writer.is_finished(), "the write waits for the restore");
            sqlx::query("VACUUM INTO ?")
                .bind(saved_path.to_string_lossy().into_owned())
                .execute(&live)
                .await
                .map_err(BackupError::Copy)?;
            Ok(writer)
        };
        let (writer, _) = restore_live(&live, &backup_path, &schema, save)
            .await
            .unwrap();
        writer.await.unwrap().unwrap();
        assert_eq!(
            names(&live, "SELECT name FROM bills ORDER BY id").await,
            ["Gym", "During"]
        );
        let saved = pool(&saved_path).await;
        assert_eq!(names(&saved, "SELECT name FROM bills").await, ["Rent"]);
    }

    #[tokio::test]
    async fn a_save_that_fails_restores_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let backup_path = dir.path().join("backup.db");
        tally(&backup_path, &format!("{ALICE}{}", bill(1, "Gym")))
            .await
            .close()
            .await;
        let live = tally(
            &dir.path().join("live.db"),
            &format!("{ALICE}{}", bill(2, "Rent")),
        )
        .await;
        let schema = known_schema(&backup_path).await.unwrap();
        let refused = restore_live(&live, &backup_path, &schema, async {
            Err::<(), _>(BackupError::Cancelled)
        })
        .await;
        assert!(matches!(
            refused,
            Err(LiveRestoreError::NotSaved(BackupError::Cancelled))
        ));
        assert_eq!(names(&live, "SELECT name FROM bills").await, ["Rent"]);
        let written = sqlx::query(&bill(3, "After")).execute(&live).await;
        assert!(written.is_ok(), "the write lock was let go");
    }
}
