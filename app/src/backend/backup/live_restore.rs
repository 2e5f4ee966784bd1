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
//!   administrator who restores stays signed in. The rest of what decides
//!   who gets in, or where a person's data goes, is the live one too, table
//!   for table: calendar feeds, identities at a provider, notification
//!   channels (with their delivery log) and push subscriptions are the live
//!   rows of the accounts in both, the backup's all dropped; the sign-in
//!   settings (single sign-on, open registration), the mail server and the
//!   list of their changes are the live ones. So a revoked feed, an
//!   unlinked identity, a removed channel or a rotated secret stays as it
//!   is now, and no setting changes back under the list that records it.

use std::path::Path;

use sqlx::pool::PoolConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteQueryResult, SqliteRow};
use sqlx::{
    ConnectOptions, Connection, Executor, Row, Sqlite, SqliteConnection, SqlitePool, TypeInfo,
    ValueRef,
};

use super::known_schema::KnownSchema;
use super::BackupError;
use crate::backend::auth::invitations::OPEN_REGISTRATION;

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
    /// The backup's calendar feeds whose address does not answer now
    /// (revoked or replaced since).
    pub calendar_feeds_revoked: i64,
    /// The backup's links to an identity at a provider that are not there
    /// now (unlinked, or dropped with a previous issuer).
    pub identities_unlinked: i64,
    /// The backup's notification channels that are not there now.
    pub channels_removed: i64,
    /// What was taken from the live database instead of the backup, as
    /// codes (`accounts`, `sessions`, `api_tokens`, `invitations`,
    /// `calendar_feeds`, `identities`, `notification_channels`,
    /// `sign_in_settings`, `mail_settings`, `settings_changes`), each once,
    /// in that order; an area the backup's schema lacks is not listed.
    pub kept_live: Vec<String>,
}

/// Notes that `area` was taken from the live database (once).
fn note_kept(reset: &mut SecurityReset, area: &str) {
    if !reset.kept_live.iter().any(|kept| kept == area) {
        reset.kept_live.push(area.to_owned());
    }
}

/// Runs `sql` (one statement or several) through `Executor::execute`, whose
/// boxed future is `Send`: awaiting `RawSql::execute`'s generic one here
/// trips rustc's higher-ranked lifetime check when a job or a server
/// function must be `Send`. `sql` is built from Tally's own table names
/// and the backup's schema once checked against this build's.
async fn run_sql(conn: &mut SqliteConnection, sql: &str) -> Result<SqliteQueryResult, sqlx::Error> {
    conn.execute(sqlx::raw_sql(sqlx::AssertSqlSafe(sql))).await
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
const KEPT_ASIDE: [&str; 16] = [
    "users",
    "recovery_codes",
    "webauthn_credentials",
    "sessions",
    "pending_sign_ins",
    "api_tokens",
    "invitations",
    "calendar_feeds",
    "oidc_identities",
    "notification_channels",
    "notification_deliveries",
    "push_subscriptions",
    "oidc_settings",
    "mail_settings",
    "settings_changes",
    "settings",
];

/// Whether `schema` (`main` or `temp`, never input) has the table `table`.
async fn has_table(
    conn: &mut SqliteConnection,
    schema: &str,
    table: &str,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT count(*) > 0 FROM {schema}.sqlite_schema WHERE type = 'table' AND name = ?"
    )))
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
    // Names of the checked schema, quoted; the values are bound.
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
        let rows = sqlx::query(sqlx::AssertSqlSafe(select.as_str()))
            .bind(after)
            .fetch_all(&mut *backup)
            .await?;
        let Some(last) = rows.last() else {
            return Ok(copied);
        };
        after = last.try_get(columns.len())?;
        for row in &rows {
            let mut query = sqlx::query(sqlx::AssertSqlSafe(insert.as_str()));
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
        let gone: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM temp.restore_was_{table}
             WHERE key NOT IN (SELECT {key} FROM main.{table} WHERE {usable})"
        )))
        .fetch_one(&mut **conn)
        .await?;
        match table {
            "sessions" => reset.sessions_ended = gone,
            "api_tokens" => reset.tokens_revoked = gone,
            "invitations" => reset.invitations_revoked = gone,
            "calendar_feeds" => reset.calendar_feeds_revoked = gone,
            "oidc_identities" => reset.identities_unlinked = gone,
            "notification_channels" => reset.channels_removed = gone,
            _ => {}
        }
        run_sql(conn, &format!("DROP TABLE temp.restore_was_{table}")).await?;
    }
    Ok(reset)
}

/// The credentials a backup carries, by table: the key that names one, and
/// when it could still be used. An identity is the account's link to a
/// subject at an issuer, and a channel the account's own (ids are reused
/// once the newest is removed, the time it was made is not), so their keys
/// say whose.
const USABLE: [(&str, &str, &str); 6] = [
    ("sessions", "id", "true"),
    ("api_tokens", "token_hash", "revoked_at IS NULL"),
    ("invitations", "token_hash", "used_at IS NULL"),
    ("calendar_feeds", "token_hash", "true"),
    (
        "oidc_identities",
        "json_array(user_id, issuer, subject)",
        "true",
    ),
    (
        "notification_channels",
        "json_array(user_id, id, created_at)",
        "true",
    ),
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
        note_kept(&mut reset, "accounts");
    }
    for (table, area) in [
        ("recovery_codes", "accounts"),
        ("webauthn_credentials", "accounts"),
        ("sessions", "sessions"),
        ("pending_sign_ins", "sessions"),
        ("api_tokens", "api_tokens"),
    ] {
        let columns = common_columns(conn, table).await?;
        if !columns.iter().any(|name| name == "user_id") {
            continue;
        }
        note_kept(&mut reset, area);
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
        let chosen = nulled_unless_kept(&columns, "created_by");
        run_sql(
            conn,
            &format!(
                "INSERT OR IGNORE INTO main.invitations ({list})
                 SELECT {chosen} FROM temp.live_invitations WHERE used_at IS NULL"
            ),
        )
        .await?;
        note_kept(&mut reset, "invitations");
    }
    carry_live_rows(conn, &mut reset).await?;
    carry_live_settings(conn, &mut reset).await?;
    run_sql(conn, "DROP TABLE temp.restore_both").await?;
    Ok(reset)
}

/// `columns` quoted and joined for a `SELECT` from a live table, with
/// `account` (a reference to an account that may be gone) kept only when
/// it names an account in both, as `ON DELETE SET NULL` would leave it.
fn nulled_unless_kept(columns: &[String], account: &str) -> String {
    columns
        .iter()
        .map(|name| {
            if name == account {
                format!(
                    "CASE WHEN {column} IN (SELECT id FROM temp.restore_both) THEN {column} END",
                    column = quoted(name)
                )
            } else {
                quoted(name)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A person's own tables whose live rows replace the backup's wholesale:
/// the area each is listed under, and which of its live rows go back in
/// besides being of an account in both. A delivery goes with its channel
/// (so what a kept channel sent since the backup is not sent again), after
/// the channels it references, and only with a channel of its own owner.
const LIVE_ROWS: [(&str, &str, &str); 5] = [
    ("calendar_feeds", "calendar_feeds", "true"),
    ("oidc_identities", "identities", "true"),
    ("notification_channels", "notification_channels", "true"),
    (
        "notification_deliveries",
        "notification_channels",
        "(channel_id, user_id) IN (SELECT id, user_id FROM main.notification_channels)",
    ),
    ("push_subscriptions", "notification_channels", "true"),
];

/// For the accounts in both, the live feeds, identities, channels and push
/// subscriptions; the backup's all go, whoever they were for, as its
/// tokens do: a feed's address and a channel's secret are credentials of
/// their own, and an identity is a way in, perhaps at an issuer the live
/// settings no longer trust. An account only in the backup comes back
/// without them. Foreign keys are off here, so nothing cascades: each
/// table is emptied and filled explicitly.
async fn carry_live_rows(
    conn: &mut PoolConnection<Sqlite>,
    reset: &mut SecurityReset,
) -> Result<(), sqlx::Error> {
    for (table, area, also) in LIVE_ROWS {
        if !has_table(conn, "main", table).await? {
            continue;
        }
        run_sql(conn, &format!("DELETE FROM main.{table}")).await?;
        let columns = common_columns(conn, table).await?;
        if !columns.iter().any(|name| name == "user_id") {
            continue;
        }
        let list = quoted_list(&columns);
        run_sql(
            conn,
            &format!(
                "INSERT INTO main.{table} ({list})
                 SELECT {list} FROM temp.live_{table}
                 WHERE user_id IN (SELECT id FROM temp.restore_both) AND ({also})"
            ),
        )
        .await?;
        note_kept(reset, area);
    }
    Ok(())
}

/// The instance's tables whose live rows replace the backup's wholesale,
/// with the area each is listed under and its reference to an account
/// (kept only for an account in both).
const LIVE_TABLES: [(&str, &str, &str); 3] = [
    ("oidc_settings", "sign_in_settings", ""),
    ("mail_settings", "mail_settings", ""),
    ("settings_changes", "settings_changes", "changed_by"),
];

/// The sign-in settings (single sign-on, whether email and password sign
/// in, open registration), the mail server and the list of their changes
/// are the live ones: a provider, a mail server or open registration
/// switched off since the backup stays off, and the list still tells what
/// is in force. `OR IGNORE`: a backup older than the settings' present
/// shape (v1.16) takes only a live row that fits it; one that does not is
/// left out, so single sign-on is off until it is entered again, never the
/// backup's.
async fn carry_live_settings(
    conn: &mut PoolConnection<Sqlite>,
    reset: &mut SecurityReset,
) -> Result<(), sqlx::Error> {
    for (table, area, account) in LIVE_TABLES {
        if !has_table(conn, "main", table).await? {
            continue;
        }
        run_sql(conn, &format!("DELETE FROM main.{table}")).await?;
        let columns = common_columns(conn, table).await?;
        if columns.is_empty() {
            continue;
        }
        let list = quoted_list(&columns);
        let chosen = nulled_unless_kept(&columns, account);
        run_sql(
            conn,
            &format!(
                "INSERT OR IGNORE INTO main.{table} ({list}) SELECT {chosen} FROM temp.live_{table}"
            ),
        )
        .await?;
        note_kept(reset, area);
    }
    // Open registration is a row of the instance's settings; the rest of
    // that table (each person's own settings among them) is the backup's.
    // Its id is left to the table: the live row's may be another key's in
    // the backup.
    if has_table(conn, "main", "settings").await?
        && has_table(conn, "temp", "live_settings").await?
    {
        sqlx::query("DELETE FROM main.settings WHERE user_id IS NULL AND key = ?")
            .bind(OPEN_REGISTRATION)
            .execute(&mut **conn)
            .await?;
        sqlx::query(
            "INSERT INTO main.settings (user_id, key, value, updated_at)
             SELECT user_id, key, value, updated_at FROM temp.live_settings
             WHERE user_id IS NULL AND key = ?",
        )
        .bind(OPEN_REGISTRATION)
        .execute(&mut **conn)
        .await?;
        note_kept(reset, "sign_in_settings");
    }
    Ok(())
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
        sqlx::raw_sql(sqlx::AssertSqlSafe(data))
            .execute(&pool)
            .await
            .unwrap();
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

    async fn names(pool: &SqlitePool, sql: &'static str) -> Vec<String> {
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

    /// Hardening III, finding 8: feeds, identities, channels and the
    /// sign-in and mail settings changed since the backup stay as they are
    /// now, and the result says so.
    #[tokio::test]
    async fn a_revoked_feed_an_unlinked_identity_a_removed_channel_and_changed_settings_stay_so() {
        let dir = tempfile::tempdir().unwrap();
        let backup_path = dir.path().join("backup.db");
        tally(
            &backup_path,
            &format!(
                "{ALICE}
                 INSERT INTO users (id, email, password_hash) VALUES (2, 'bob@example.com', 'bob-hash');
                 INSERT INTO users (id, email, password_hash) VALUES (3, 'carol@example.com', 'carol-hash');
                 INSERT INTO calendar_feeds (user_id, token_hash) VALUES
                     (1, 'alice-feed-before'), (2, 'bob-feed'), (3, 'carol-feed');
                 INSERT INTO oidc_identities (user_id, issuer, subject)
                     VALUES (1, 'https://old-idp.example', 'alice-sub');
                 INSERT INTO notification_channels (id, user_id, kind, name, events, secret, created_at)
                     VALUES (1, 1, 'ntfy', 'removed later', 'due_soon', 'sealed-1', '2026-01-01T00:00:00.000Z'),
                            (2, 1, 'webhook', 'kept', 'due_soon', 'sealed-before', '2026-01-02T00:00:00.000Z'),
                            (3, 3, 'ntfy', 'carol''s', 'due_soon', NULL, '2026-01-03T00:00:00.000Z');
                 INSERT INTO notification_deliveries
                         (user_id, channel_id, event, subject, subject_id, occurrence, line)
                     VALUES (1, 1, 'due_soon', 'bill', 1, '2026-02-01', 'Rent'),
                            (3, 3, 'due_soon', 'bill', 1, '2026-02-01', 'Rent');
                 INSERT INTO oidc_settings (id, issuer_url, client_id, client_secret, link_by_email)
                     VALUES (1, 'https://old-idp.example', 'old-client', 'sealed', 1);
                 INSERT INTO mail_settings (id, host, port, from_address)
                     VALUES (1, 'smtp.old.example', 25, 'old@example.com');
                 INSERT INTO settings (user_id, key, value) VALUES (NULL, 'open_registration', 'true');
                 INSERT INTO settings_changes (changed_by, changed_by_email, area, fields)
                     VALUES (1, 'alice@example.com', 'mail', 'host');"
            ),
        )
        .await
        .close()
        .await;

        // Since the backup: Alice's feed was replaced, Bob's revoked; Alice
        // unlinked her identity, removed a channel and rotated the other's
        // secret; the provider, the mail server and open registration
        // changed. Id 3 is someone else now, and Erin is new.
        let live = tally(
            &dir.path().join("live.db"),
            &format!(
                "{ALICE}
                 INSERT INTO users (id, email, password_hash) VALUES (2, 'bob@example.com', 'bob-hash');
                 INSERT INTO users (id, email, password_hash) VALUES (3, 'dave@example.com', 'dave-hash');
                 INSERT INTO users (id, email, password_hash) VALUES (4, 'erin@example.com', 'erin-hash');
                 INSERT INTO calendar_feeds (user_id, token_hash) VALUES
                     (1, 'alice-feed-now'), (3, 'dave-feed'), (4, 'erin-feed');
                 INSERT INTO oidc_identities (user_id, issuer, subject)
                     VALUES (3, 'https://new-idp.example', 'dave-sub');
                 INSERT INTO notification_channels (id, user_id, kind, name, events, secret, created_at)
                     VALUES (2, 1, 'webhook', 'kept', 'due_soon', 'sealed-rotated', '2026-01-02T00:00:00.000Z'),
                            (4, 3, 'ntfy', 'dave''s', 'due_soon', NULL, '2026-05-01T00:00:00.000Z');
                 INSERT INTO notification_deliveries
                         (user_id, channel_id, event, subject, subject_id, occurrence, line, status)
                     VALUES (1, 2, 'due_soon', 'bill', 1, '2026-03-01', 'Rent', 'sent'),
                            (3, 4, 'due_soon', 'bill', 1, '2026-03-01', 'Rent', 'sent');
                 INSERT INTO oidc_settings (id, issuer_url, client_id, client_secret, link_by_email)
                     VALUES (1, 'https://new-idp.example', 'new-client', 'sealed-new', 0);
                 INSERT INTO mail_settings (id, host, port, from_address)
                     VALUES (1, 'smtp.new.example', 587, 'new@example.com');
                 INSERT INTO settings (user_id, key, value) VALUES (NULL, 'open_registration', 'false');
                 INSERT INTO settings_changes (changed_by, changed_by_email, area, fields)
                     VALUES (1, 'alice@example.com', 'mail', 'host'),
                            (1, 'alice@example.com', 'sign-in', 'issuerUrl,clientId,clientSecret,linkByEmail'),
                            (4, 'erin@example.com', 'sign-in', 'localLoginEnabled');"
            ),
        )
        .await;

        let schema = known_schema(&backup_path).await.unwrap();
        let ((), restored) = restore_live(&live, &backup_path, &schema, async { Ok(()) })
            .await
            .unwrap();
        let security = &restored.security;
        assert_eq!(
            security.calendar_feeds_revoked, 3,
            "Alice's replaced, Bob's revoked, Carol's: {security:?}"
        );
        assert_eq!(security.identities_unlinked, 1, "{security:?}");
        assert_eq!(
            security.channels_removed, 2,
            "Alice's removed one and Carol's: {security:?}"
        );
        assert_eq!(
            security.kept_live,
            [
                "accounts",
                "sessions",
                "api_tokens",
                "invitations",
                "calendar_feeds",
                "identities",
                "notification_channels",
                "sign_in_settings",
                "mail_settings",
                "settings_changes",
            ]
        );

        let feeds: Vec<(i64, String)> =
            sqlx::query_as("SELECT user_id, token_hash FROM calendar_feeds ORDER BY user_id")
                .fetch_all(&live)
                .await
                .unwrap();
        assert_eq!(
            feeds,
            [(1, "alice-feed-now".to_owned())],
            "the live feed of an account in both, nobody else's"
        );
        assert_eq!(
            names(&live, "SELECT subject FROM oidc_identities").await,
            Vec::<String>::new(),
            "an unlinked identity stays unlinked; Dave's is not Carol's"
        );
        let channels: Vec<(i64, i64, Option<String>)> =
            sqlx::query_as("SELECT id, user_id, secret FROM notification_channels ORDER BY id")
                .fetch_all(&live)
                .await
                .unwrap();
        assert_eq!(
            channels,
            [(2, 1, Some("sealed-rotated".to_owned()))],
            "a removed channel stays removed, a rotated secret stays rotated"
        );
        let deliveries: Vec<(i64, String)> = sqlx::query_as(
            "SELECT channel_id, occurrence FROM notification_deliveries ORDER BY id",
        )
        .fetch_all(&live)
        .await
        .unwrap();
        assert_eq!(
            deliveries,
            [(2, "2026-03-01".to_owned())],
            "a kept channel keeps its own delivery log"
        );
        let sign_in: (Option<String>, Option<String>, Option<i64>) = sqlx::query_as(
            "SELECT issuer_url, client_id, link_by_email FROM oidc_settings WHERE id = 1",
        )
        .fetch_one(&live)
        .await
        .unwrap();
        assert_eq!(
            sign_in,
            (
                Some("https://new-idp.example".to_owned()),
                Some("new-client".to_owned()),
                Some(0)
            ),
            "the live sign-in settings"
        );
        assert_eq!(
            names(&live, "SELECT host FROM mail_settings").await,
            ["smtp.new.example"]
        );
        assert_eq!(
            names(
                &live,
                "SELECT value FROM settings WHERE user_id IS NULL AND key = 'open_registration'"
            )
            .await,
            ["false"],
            "registration closed since stays closed"
        );
        let changes: Vec<(Option<i64>, String, String)> = sqlx::query_as(
            "SELECT changed_by, changed_by_email, area FROM settings_changes ORDER BY id",
        )
        .fetch_all(&live)
        .await
        .unwrap();
        assert_eq!(
            changes,
            [
                (Some(1), "alice@example.com".to_owned(), "mail".to_owned()),
                (
                    Some(1),
                    "alice@example.com".to_owned(),
                    "sign-in".to_owned()
                ),
                (None, "erin@example.com".to_owned(), "sign-in".to_owned()),
            ],
            "the live list, still saying who when the account is gone"
        );
        let broken: Vec<(String,)> =
            sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check()")
                .fetch_all(&live)
                .await
                .unwrap();
        assert!(broken.is_empty(), "every reference holds: {broken:?}");
    }

    #[tokio::test]
    async fn settings_cleared_since_the_backup_do_not_come_back() {
        let dir = tempfile::tempdir().unwrap();
        let backup_path = dir.path().join("backup.db");
        tally(
            &backup_path,
            &format!(
                "{ALICE}
                 INSERT INTO oidc_settings (id, issuer_url, client_id, client_secret, link_by_email)
                     VALUES (1, 'https://old-idp.example', 'old-client', 'sealed', 1);
                 INSERT INTO mail_settings (id, host, port, from_address)
                     VALUES (1, 'smtp.old.example', 25, 'old@example.com');
                 INSERT INTO settings (user_id, key, value) VALUES (NULL, 'open_registration', 'true');
                 INSERT INTO settings (user_id, key, value) VALUES (1, 'geolocation_enabled', 'true');"
            ),
        )
        .await
        .close()
        .await;
        let live = tally(&dir.path().join("live.db"), ALICE).await;

        let schema = known_schema(&backup_path).await.unwrap();
        let ((), restored) = restore_live(&live, &backup_path, &schema, async { Ok(()) })
            .await
            .unwrap();
        assert!(
            restored
                .security
                .kept_live
                .iter()
                .any(|area| area == "sign_in_settings"),
            "{restored:?}"
        );
        assert_eq!(
            names(&live, "SELECT issuer_url FROM oidc_settings").await,
            Vec::<String>::new(),
            "single sign-on cleared since stays cleared"
        );
        assert_eq!(
            names(&live, "SELECT host FROM mail_settings").await,
            Vec::<String>::new()
        );
        assert_eq!(
            names(&live, "SELECT key FROM settings ORDER BY key").await,
            ["geolocation_enabled"],
            "open registration is the live one (unset); a person's own settings are the backup's"
        );
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
            let writer = tokio::spawn(async move {
                sqlx::query(sqlx::AssertSqlSafe(bill(3, "During")))
                    .execute(&writer_pool)
                    .await
            });
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
        let written = sqlx::query(sqlx::AssertSqlSafe(bill(3, "After")))
            .execute(&live)
            .await;
        assert!(written.is_ok(), "the write lock was let go");
    }
}
