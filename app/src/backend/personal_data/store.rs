//! Every SQL statement of personal exports. The live database is `main`
//! on a connection of its own (taken out of the pool, closed afterwards,
//! so no attachment or temporary table outlives it); the file is attached
//! as `export` or `import`.

use std::path::Path;
use std::time::{Duration, Instant};

use sqlx::error::ErrorKind;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::{Connection, SqliteConnection, SqlitePool};

use super::form_rules::{Cell, FormRules, CHECKED};
use super::rules::{self, Table, APPLICATION_ID, TABLES, USER};
use super::PersonalDataError;
use crate::backend::migrate::Migrator;
use crate::backend::untrusted_sqlite::{self, UntrustedError};
use crate::contract::data::PersonalImported;

fn path_text(path: &Path) -> Result<&str, PersonalDataError> {
    path.to_str()
        .ok_or_else(|| PersonalDataError::Scratch(format!("{} is not UTF-8", path.display())))
}

/// Brings the database file at `path` to this build's schema, creating it
/// (and marking it as an export) when `create`. On a thread of its own with
/// its own small runtime: the migrator's future is not `Send`.
pub async fn migrate_file(path: &Path, create: bool) -> Result<(), PersonalDataError> {
    let options = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(create)
        .journal_mode(SqliteJournalMode::Delete)
        .foreign_keys(true);
    let done = tokio::task::spawn_blocking(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        runtime.block_on(async move {
            let pool = SqlitePoolOptions::new()
                .max_connections(1)
                .connect_with(options)
                .await?;
            let migrated = async {
                Migrator::default().run(&pool).await.map_err(|error| {
                    PersonalDataError::NotAnExport(format!(
                        "it cannot be brought to this version's schema: {error}"
                    ))
                })?;
                if create {
                    // A constant, not input: PRAGMA takes no parameters.
                    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
                        "PRAGMA application_id = {APPLICATION_ID}"
                    )))
                    .execute(&pool)
                    .await?;
                }
                Ok::<_, PersonalDataError>(())
            }
            .await;
            pool.close().await;
            migrated
        })
    })
    .await;
    done.map_err(|error| {
        PersonalDataError::Scratch(format!("migrating the file stopped: {error}"))
    })?
}

/// A connection to the live database of its own.
pub async fn live_connection(pool: &SqlitePool) -> Result<SqliteConnection, sqlx::Error> {
    Ok(pool.acquire().await?.detach())
}

/// Copies the person's rows into the export file at `export` (of this
/// build's schema, empty but for its seeds), in one read of the live
/// database.
pub async fn copy_out(
    conn: &mut SqliteConnection,
    export: &Path,
    user_id: i64,
) -> Result<(), PersonalDataError> {
    sqlx::query("ATTACH DATABASE ?1 AS export")
        .bind(path_text(export)?)
        .execute(&mut *conn)
        .await?;
    let mut tx = conn.begin().await?;
    // payments and transactions point at each other.
    sqlx::query("PRAGMA defer_foreign_keys = ON")
        .execute(&mut *tx)
        .await?;
    for table in std::iter::once(&USER).chain(TABLES) {
        // `rules` builds its SQL from the constant table list, never input.
        sqlx::query(sqlx::AssertSqlSafe(rules::export_sql(table)))
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The first rule of Tally's forms a row of the file at `file` breaks, in
/// words (`form_rules`), or `None`. Read through the opener of supplied
/// files, before anything is attached or written, so the copy's write
/// lock does not wait for it.
pub async fn form_refusal(file: &Path) -> Result<Option<String>, PersonalDataError> {
    untrusted_sqlite::read(
        file.to_path_buf(),
        |conn| -> Result<Option<String>, PersonalDataError> {
            for rules in CHECKED {
                let found = first_broken(conn, rules).map_err(UntrustedError::of)?;
                if found.is_some() {
                    return Ok(found);
                }
            }
            Ok(None)
        },
    )
    .await
}

fn cell(value: rusqlite::types::ValueRef<'_>) -> Cell<'_> {
    use rusqlite::types::ValueRef;
    match value {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(value) => Cell::Integer(value),
        ValueRef::Text(bytes) => std::str::from_utf8(bytes).map_or(Cell::Other, Cell::Text),
        ValueRef::Real(_) | ValueRef::Blob(_) => Cell::Other,
    }
}

/// The refusal for the first of `rules.table`'s rows that breaks them.
fn first_broken(
    conn: &rusqlite::Connection,
    rules: &FormRules,
) -> Result<Option<String>, rusqlite::Error> {
    let mut statement = conn.prepare(&rules.rows_sql())?;
    let mut rows = statement.query([])?;
    while let Some(row) = rows.next()? {
        let cells = (0..rules.columns.len())
            .map(|index| row.get_ref(index).map(cell))
            .collect::<Result<Vec<_>, _>>()?;
        if let Err(broken) = (rules.check)(&cells) {
            // Which column, for the log; the person reads the rule.
            tracing::info!(
                table = rules.table,
                field = %broken.field,
                "a personal import breaks a form's rule"
            );
            return Ok(Some(rules.refusal(&broken)));
        }
    }
    Ok(None)
}

/// A constraint the file's rows break is the file's fault, not the
/// server's.
fn refused_rows(error: sqlx::Error) -> PersonalDataError {
    if let sqlx::Error::Database(database) = &error {
        if matches!(
            database.kind(),
            ErrorKind::ForeignKeyViolation
                | ErrorKind::CheckViolation
                | ErrorKind::NotNullViolation
                | ErrorKind::UniqueViolation
        ) {
            // The constraint's own words name tables, columns and ids of
            // the live database: for the log, not for the person.
            tracing::info!(
                constraint = database.message(),
                "a personal import broke a constraint"
            );
            return PersonalDataError::NotAnExport(
                "its rows break Tally's rules, so nothing was imported".to_owned(),
            );
        }
    }
    error.into()
}

/// The file's account: its preferences (locale, currency, time zone).
async fn file_account(
    conn: &mut SqliteConnection,
) -> Result<(String, String, String), PersonalDataError> {
    let accounts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM import.users")
        .fetch_one(&mut *conn)
        .await?;
    if accounts != 1 {
        return Err(PersonalDataError::NotAnExport(format!(
            "it holds {accounts} accounts; a personal export holds one"
        )));
    }
    Ok(
        sqlx::query_as("SELECT locale, currency, time_zone FROM import.users")
            .fetch_one(&mut *conn)
            .await?,
    )
}

async fn refuse_odd_ids(
    conn: &mut SqliteConnection,
    table: &Table,
) -> Result<(), PersonalDataError> {
    let odd: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(rules::odd_ids_sql(table)))
        .fetch_one(&mut *conn)
        .await?;
    if odd > 0 {
        return Err(PersonalDataError::NotAnExport(format!(
            "{odd} of its {} have ids Tally never writes",
            table.name
        )));
    }
    Ok(())
}

/// The file's rows must point only at its own rows: a reference to an id
/// the file does not hold would, once moved, land on whatever live row has
/// that id, which may be anybody's. Checked before anything is written, on
/// the file alone (its own foreign keys too); the refusal names no id.
async fn refuse_stray_references(conn: &mut SqliteConnection) -> Result<(), PersonalDataError> {
    let stray = || PersonalDataError::NotAnExport("the file's rows do not fit together".to_owned());
    for (table, column, other) in rules::references() {
        let count: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(rules::stray_references_sql(
            table, column, other,
        )))
        .fetch_one(&mut *conn)
        .await?;
        if count > 0 {
            tracing::info!(
                table = table.name,
                column,
                count,
                "a personal import points outside its file"
            );
            return Err(stray());
        }
    }
    let broken = sqlx::query("PRAGMA import.foreign_key_check")
        .fetch_optional(&mut *conn)
        .await?;
    if broken.is_some() {
        return Err(stray());
    }
    Ok(())
}

/// The file's counts, by the table they were added to.
fn count(imported: &mut PersonalImported, table: &str, added: u64) {
    let added = i64::try_from(added).unwrap_or(i64::MAX);
    match table {
        "bills" => imported.bills += added,
        "payments" => imported.payments += added,
        "bill_months" => imported.bill_months += added,
        "bank_accounts" => imported.bank_accounts += added,
        "transactions" => imported.transactions += added,
        "merchant_rules" | "user_catalog_descriptors" | "subscription_recommendation_feedback" => {
            imported.subscription_choices += added;
        }
        _ => {}
    }
}

/// Refuses to go on when the import's ranges are not the `recorded` ones
/// it wrote: a backup was restored meanwhile (its rows and ranges are the
/// backup's now) or the account was removed (its rows went with it).
async fn still_ours(
    conn: &mut SqliteConnection,
    import: &str,
    recorded: usize,
) -> Result<(), PersonalDataError> {
    let found: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM main.personal_import_ranges WHERE import = ?1")
            .bind(import)
            .fetch_one(&mut *conn)
            .await?;
    if usize::try_from(found).ok() != Some(recorded) {
        return Err(PersonalDataError::Interrupted);
    }
    Ok(())
}

/// The id below the next batch of `table` from `high` down (`rules::
/// batch_floor_sql`).
async fn batch_floor(
    conn: &mut SqliteConnection,
    table: &Table,
    column: Option<&str>,
    high: i64,
    rows: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(rules::batch_floor_sql(table, column)))
        .bind(high)
        .bind(rows)
        .fetch_optional(&mut *conn)
        .await
}

/// How the copy shares the writer: `rows` a batch, and `between`, given
/// how long the batch held the write lock, run after each one (the pause
/// that lets other writers in; a test's own writes).
pub struct Pace<F> {
    pub rows: i64,
    pub between: F,
}

/// Adds the rows of the export file at `file` (of this build's schema) to
/// the person `user_id` as the import `import` (a key of its own): every
/// row or none. The checks read the file first; then each batched table
/// goes in from its highest id down, `pace.rows` rows a transaction, the
/// first of them taking the table's range of new ids (recorded in
/// `personal_import_ranges`, so another writer's rows land above it); the
/// last transaction adds the few rows that replace or keep the account's
/// own, its preferences, and deletes the ranges. When anything fails after
/// the first batch, the rows already in are deleted again.
pub async fn copy_in<F, Fut>(
    conn: &mut SqliteConnection,
    file: &Path,
    user_id: i64,
    sealed_marker: &str,
    import: &str,
    pace: &mut Pace<F>,
) -> Result<PersonalImported, PersonalDataError>
where
    F: FnMut(Duration) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    sqlx::query("ATTACH DATABASE ?1 AS import")
        .bind(path_text(file)?)
        .execute(&mut *conn)
        .await?;
    let (locale, currency, time_zone) = file_account(conn).await?;
    for table in TABLES.iter().filter(|table| table.has_key()) {
        refuse_odd_ids(conn, table).await?;
    }
    refuse_stray_references(conn).await?;
    sqlx::query("CREATE TEMP TABLE id_shift (name TEXT PRIMARY KEY, shift INTEGER NOT NULL)")
        .execute(&mut *conn)
        .await?;

    let mut imported = PersonalImported::default();
    let mut recorded = 0;
    let mut copied = copy_batches(
        conn,
        user_id,
        sealed_marker,
        import,
        pace,
        &mut recorded,
        &mut imported,
    )
    .await;
    if copied.is_ok() {
        let preferences = rules::usable_preferences(locale, currency, time_zone);
        copied = finish(
            conn,
            user_id,
            sealed_marker,
            import,
            recorded,
            preferences,
            &mut imported,
        )
        .await;
    }
    if let Err(error) = copied {
        if recorded > 0 {
            if let Err(cleanup) = drop_unfinished(conn, Some(import)).await {
                // The ranges stay; the next start removes their rows.
                tracing::warn!(%cleanup, "an unfinished personal import could not be removed");
            }
        }
        return Err(error);
    }
    Ok(imported)
}

/// One pass of batches over a table: its rows (`rules::batch_sql`), or,
/// once every table is in, a reference its rows were copied without
/// (`rules::links`).
#[derive(Clone, Copy)]
enum Pass {
    Rows(&'static Table),
    Link(&'static Table, &'static str, &'static str),
}

async fn copy_batches<F, Fut>(
    conn: &mut SqliteConnection,
    user_id: i64,
    sealed_marker: &str,
    import: &str,
    pace: &mut Pace<F>,
    recorded: &mut usize,
    imported: &mut PersonalImported,
) -> Result<(), PersonalDataError>
where
    F: FnMut(Duration) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let passes = TABLES
        .iter()
        .filter(|table| rules::batched(table))
        .map(Pass::Rows)
        .chain(rules::links().map(|(table, column, other)| Pass::Link(table, column, other)));
    for pass in passes {
        let (table, column) = match pass {
            Pass::Rows(table) => (table, None),
            Pass::Link(table, column, _) => (table, Some(column)),
        };
        let top: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(rules::top_id_sql(table)))
            .fetch_one(&mut *conn)
            .await?;
        let Some(mut high) = top else { continue };
        let mut first = true;
        loop {
            let floor = batch_floor(conn, table, column, high, pace.rows).await?;
            let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
            // Held from here: the wait for the lock is other writers' turn.
            let started = Instant::now();
            still_ours(&mut tx, import, *recorded).await?;
            let statement = match pass {
                Pass::Rows(table) => {
                    if first {
                        sqlx::query(sqlx::AssertSqlSafe(rules::shift_sql(table)))
                            .execute(&mut *tx)
                            .await?;
                        sqlx::query(sqlx::AssertSqlSafe(rules::range_sql(table)))
                            .bind(import)
                            .bind(user_id)
                            .execute(&mut *tx)
                            .await?;
                    }
                    sqlx::query(sqlx::AssertSqlSafe(rules::batch_sql(table)))
                        .bind(user_id)
                        .bind(sealed_marker)
                        .bind(high)
                        .bind(floor.unwrap_or(0))
                }
                Pass::Link(table, column, other) => {
                    sqlx::query(sqlx::AssertSqlSafe(rules::link_sql(table, column, other)))
                        .bind(high)
                        .bind(floor.unwrap_or(0))
                }
            };
            let changed = statement
                .execute(&mut *tx)
                .await
                .map_err(refused_rows)?
                .rows_affected();
            tx.commit().await.map_err(refused_rows)?;
            if let Pass::Rows(table) = pass {
                if first {
                    *recorded += 1;
                }
                count(imported, table.name, changed);
            }
            first = false;
            (pace.between)(started.elapsed()).await;
            match floor {
                Some(floor) => high = floor,
                None => break,
            }
        }
    }
    Ok(())
}

/// The import's last transaction: the account's preferences, the rows of
/// the tables not batched, and the end of its ranges.
async fn finish(
    conn: &mut SqliteConnection,
    user_id: i64,
    sealed_marker: &str,
    import: &str,
    recorded: usize,
    (locale, currency, time_zone): (Option<String>, Option<String>, Option<String>),
    imported: &mut PersonalImported,
) -> Result<(), PersonalDataError> {
    let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
    still_ours(&mut tx, import, recorded).await?;
    sqlx::query("PRAGMA defer_foreign_keys = ON")
        .execute(&mut *tx)
        .await?;
    for table in TABLES
        .iter()
        .filter(|table| table.has_key() && !rules::batched(table))
    {
        sqlx::query(sqlx::AssertSqlSafe(rules::shift_sql(table)))
            .execute(&mut *tx)
            .await?;
    }
    let account = sqlx::query(
        "UPDATE main.users SET locale = COALESCE(?2, locale), currency = COALESCE(?3, currency),
                time_zone = COALESCE(?4, time_zone),
                updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?1",
    )
    .bind(user_id)
    .bind(locale)
    .bind(currency)
    .bind(time_zone)
    .execute(&mut *tx)
    .await?;
    if account.rows_affected() == 0 {
        return Err(PersonalDataError::Interrupted);
    }
    for table in TABLES.iter().filter(|table| !rules::batched(table)) {
        let added = sqlx::query(sqlx::AssertSqlSafe(rules::import_sql(table)))
            .bind(user_id)
            .bind(sealed_marker)
            .execute(&mut *tx)
            .await
            .map_err(refused_rows)?
            .rows_affected();
        count(imported, table.name, added);
    }
    sqlx::query("DELETE FROM main.personal_import_ranges WHERE import = ?1")
        .bind(import)
        .execute(&mut *tx)
        .await?;
    tx.commit().await.map_err(refused_rows)?;
    Ok(())
}

/// Whether an import of `user`'s is being copied (has ranges).
pub async fn importing(pool: &SqlitePool, user: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM personal_import_ranges WHERE user_id = ?1) AS "running!: bool""#,
        user
    )
    .fetch_one(pool)
    .await
}

/// Rows an unfinished import's cleanup deletes a transaction.
const DROPPED_A_BATCH: i64 = 5_000;

/// Deletes what unfinished imports added (`import`'s, or every one's) and
/// their ranges, a batch of rows a transaction, the tables copied last
/// first. A range naming a table the import does not batch (a restored
/// backup may hold anything) is dropped without touching any table.
pub async fn drop_unfinished(
    conn: &mut SqliteConnection,
    import: Option<&str>,
) -> Result<u64, sqlx::Error> {
    // A backup restored live may be of a schema from before the ranges.
    let known: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM main.sqlite_schema
                        WHERE type = 'table' AND name = 'personal_import_ranges')",
    )
    .fetch_one(&mut *conn)
    .await?;
    if !known {
        return Ok(0);
    }
    let mut ranges: Vec<(String, i64, String, i64, i64)> = sqlx::query_as(
        "SELECT import, user_id, table_name, first_id, last_id FROM main.personal_import_ranges
         WHERE ?1 IS NULL OR import = ?1",
    )
    .bind(import)
    .fetch_all(&mut *conn)
    .await?;
    let place = |name: &str| TABLES.iter().position(|table| table.name == name);
    ranges.sort_by_key(|(_, _, table, _, _)| std::cmp::Reverse(place(table)));
    let mut dropped = 0;
    for (_, user_id, table, first, last) in &ranges {
        let Some(table) = TABLES
            .iter()
            .find(|known| known.name == table && rules::batched(known))
        else {
            tracing::warn!(table, "an import's range names a table it never copies");
            continue;
        };
        loop {
            let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
            let deleted = sqlx::query(sqlx::AssertSqlSafe(rules::staged_delete_sql(table.name)))
                .bind(user_id)
                .bind(first)
                .bind(last)
                .bind(DROPPED_A_BATCH)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            tx.commit().await?;
            dropped += deleted;
            if deleted < DROPPED_A_BATCH.unsigned_abs() {
                break;
            }
        }
    }
    sqlx::query("DELETE FROM main.personal_import_ranges WHERE ?1 IS NULL OR import = ?1")
        .bind(import)
        .execute(&mut *conn)
        .await?;
    Ok(dropped)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    async fn columns(pool: &SqlitePool, table: &str) -> BTreeSet<String> {
        sqlx::query_scalar("SELECT name FROM pragma_table_info(?1)")
            .bind(table)
            .fetch_all(pool)
            .await
            .unwrap()
            .into_iter()
            .collect()
    }

    #[tokio::test]
    async fn a_row_the_forms_refuse_is_found_in_the_file_before_anything_is_copied() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("export.sqlite");
        migrate_file(&path, true).await.unwrap();
        assert_eq!(form_refusal(&path).await.unwrap(), None, "an empty export");
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(
                SqliteConnectOptions::new()
                    .filename(&path)
                    .journal_mode(SqliteJournalMode::Delete),
            )
            .await
            .unwrap();
        // No schema check stops either: text sorts above every number,
        // and no column checks a date.
        sqlx::raw_sql(
            "INSERT INTO users (id, email) VALUES (1, 'ada@example.com');
             INSERT INTO bills (user_id, name, amount_cents, cadence, due_day, anchor_date)
             VALUES (1, 'Rent', 120000, 'monthly', 1, '2026-01-01');
             INSERT INTO payments (bill_id, user_id, amount_cents, paid_on)
             VALUES (1, 1, 'a lot', '2026-01-01');",
        )
        .execute(&pool)
        .await
        .unwrap();
        let why = form_refusal(&path).await.unwrap().unwrap();
        assert_eq!(
            why,
            "one of its payments breaks a rule of the payment form (Amount: it is not a whole number), so nothing was imported"
        );
        sqlx::raw_sql(
            "UPDATE payments SET amount_cents = 5000;
             UPDATE bills SET anchor_date = '2026-02-30';",
        )
        .execute(&pool)
        .await
        .unwrap();
        let why = form_refusal(&path).await.unwrap().unwrap();
        assert!(
            why.contains("bills") && why.contains("First due date"),
            "{why}"
        );
        sqlx::raw_sql("UPDATE bills SET anchor_date = '2026-02-28'")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
        assert_eq!(form_refusal(&path).await.unwrap(), None);
    }

    /// Ada (1) with three bills, a bank account, three transactions (one a
    /// refund of a payment) and five payments; Bo (2) with a bill; Cy (3)
    /// with nothing yet, who imports Ada's export (the same account would
    /// refuse it: its transactions' bank ids are taken).
    const TWO_PEOPLE: &str = "
        INSERT INTO users (id, email)
            VALUES (1, 'ada@example.com'), (2, 'bo@example.com'), (3, 'cy@example.com');
        INSERT INTO bills (id, user_id, name, amount_cents, cadence, due_day, anchor_date) VALUES
            (1, 1, 'Rent', 120000, 'monthly', 1, '2026-01-01'),
            (2, 1, 'Power', 8000, 'monthly', 5, '2026-01-05'),
            (3, 1, 'Phone', 4000, 'monthly', 9, '2026-01-09'),
            (4, 2, 'Bo''s rent', 90000, 'monthly', 1, '2026-01-01');
        INSERT INTO bank_connections (id, user_id, access_secret) VALUES (1, 1, 'sealed');
        INSERT INTO bank_accounts (id, connection_id, user_id, provider_account_id, name)
            VALUES (1, 1, 1, 'acc-1', 'Checking');
        INSERT INTO transactions
            (id, user_id, account_id, provider_transaction_id, posted_at, amount_cents, description, bill_id)
            VALUES (1, 1, 1, 't1', '2026-01-01', -120000, 'RENT', 1),
                   (2, 1, 1, 't2', '2026-01-05', -8000, 'POWER', 2),
                   (3, 1, 1, 't3', '2026-01-07', 8000, 'POWER REFUND', NULL);
        INSERT INTO payments (id, bill_id, user_id, amount_cents, paid_on, transaction_id) VALUES
            (1, 1, 1, 120000, '2026-01-01', 1), (2, 2, 1, 8000, '2026-01-05', 2),
            (3, 3, 1, 4000, '2026-01-09', NULL), (4, 1, 1, 120000, '2026-02-01', NULL),
            (5, 2, 1, 8000, '2026-02-05', NULL);
        UPDATE transactions SET returns_payment_id = 2 WHERE id = 3;
        INSERT INTO merchant_rules (user_id, bill_id, merchant) VALUES (1, 1, 'rent');";

    /// A live database with [`TWO_PEOPLE`] and Ada's export of it.
    async fn ada_and_her_export() -> (tempfile::TempDir, SqlitePool, std::path::PathBuf) {
        let (dir, pool) = crate::backend::db::migrated_for_test().await;
        sqlx::raw_sql(TWO_PEOPLE).execute(&pool).await.unwrap();
        let export = dir.path().join("ada.sqlite");
        migrate_file(&export, true).await.unwrap();
        let mut conn = live_connection(&pool).await.unwrap();
        copy_out(&mut conn, &export, 1).await.unwrap();
        conn.close().await.unwrap();
        (dir, pool, export)
    }

    async fn number(pool: &SqlitePool, sql: &'static str) -> i64 {
        sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
    }

    /// Bo adds a bill and pays it, as another person does meanwhile.
    async fn bo_writes(pool: &SqlitePool) {
        sqlx::raw_sql(
            "INSERT INTO bills (user_id, name, amount_cents, cadence, due_day, anchor_date)
             VALUES (2, 'Gym', 3000, 'monthly', 3, '2026-01-03');
             INSERT INTO payments (bill_id, user_id, amount_cents, paid_on)
             VALUES (last_insert_rowid(), 2, 3000, '2026-01-03');",
        )
        .execute(pool)
        .await
        .unwrap();
    }

    #[tokio::test]
    async fn an_import_goes_in_batches_with_another_persons_writes_between_them() {
        let (_dir, pool, export) = ada_and_her_export().await;
        let batches = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut pace = Pace {
            rows: 2,
            between: |_held| {
                let pool = pool.clone();
                let batches = batches.clone();
                async move {
                    batches.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    // Nobody else's import runs, and Ada's shows as running.
                    assert_eq!(
                        number(
                            &pool,
                            "SELECT COUNT(DISTINCT import) FROM personal_import_ranges"
                        )
                        .await,
                        1
                    );
                    assert!(importing(&pool, 3).await.unwrap());
                    assert!(!importing(&pool, 1).await.unwrap());
                    bo_writes(&pool).await;
                }
            },
        };
        let mut conn = live_connection(&pool).await.unwrap();
        let imported = copy_in(&mut conn, &export, 3, "marker", "import-1", &mut pace)
            .await
            .unwrap();
        conn.close().await.unwrap();
        assert_eq!(
            (
                imported.bills,
                imported.payments,
                imported.transactions,
                imported.bank_accounts
            ),
            (3, 5, 3, 1)
        );
        assert_eq!(imported.subscription_choices, 1);
        // Bills 2, connection 1, account 1, merchant rule 1, transactions 2,
        // payments 3, the refund's link 1.
        let batches = batches.load(std::sync::atomic::Ordering::SeqCst);
        assert_eq!(batches, 11);
        assert!(!importing(&pool, 3).await.unwrap());
        assert_eq!(
            number(&pool, "SELECT COUNT(*) FROM personal_import_ranges").await,
            0
        );
        assert_eq!(
            number(&pool, "SELECT COUNT(*) FROM bills WHERE user_id = 3").await,
            3
        );
        assert_eq!(
            number(&pool, "SELECT COUNT(*) FROM payments WHERE user_id = 3").await,
            5
        );
        assert_eq!(
            number(&pool, "SELECT COUNT(*) FROM payments WHERE user_id = 1").await,
            5
        );
        assert_eq!(
            number(&pool, "SELECT COUNT(*) FROM bills WHERE user_id = 2").await,
            1 + i64::try_from(batches).unwrap()
        );
        // Every reference stays within its owner's rows, and the copied
        // refund returns the copied payment, not the first one.
        for crossing in [
            "SELECT COUNT(*) FROM payments p JOIN bills b ON b.id = p.bill_id WHERE p.user_id <> b.user_id",
            "SELECT COUNT(*) FROM payments p JOIN transactions t ON t.id = p.transaction_id WHERE p.user_id <> t.user_id",
            "SELECT COUNT(*) FROM transactions t JOIN bills b ON b.id = t.bill_id WHERE t.user_id <> b.user_id",
            "SELECT COUNT(*) FROM transactions t JOIN bank_accounts a ON a.id = t.account_id WHERE t.user_id <> a.user_id",
        ] {
            assert_eq!(number(&pool, crossing).await, 0, "{crossing}");
        }
        let refunds: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT t.id, p.id FROM transactions t JOIN payments p ON p.id = t.returns_payment_id
             WHERE p.amount_cents = 8000 AND p.paid_on = '2026-01-05' ORDER BY t.id",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        assert_eq!(refunds.len(), 2, "{refunds:?}");
        assert_eq!(refunds[0], (3, 2));
        assert!(refunds[1].0 > 3 && refunds[1].1 > 5, "{refunds:?}");
        let broken: Vec<(String,)> =
            sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check()")
                .fetch_all(&pool)
                .await
                .unwrap();
        assert!(broken.is_empty(), "{broken:?}");
    }

    #[tokio::test]
    async fn an_import_stopped_half_way_is_removed_whole_and_nothing_else_is() {
        let (_dir, pool, export) = ada_and_her_export().await;
        let (stopped, stop) = tokio::sync::oneshot::channel::<()>();
        let mut stopped = Some(stopped);
        let mut batches = 0;
        let mut pace = Pace {
            rows: 2,
            between: |_held| {
                batches += 1;
                let pool = pool.clone();
                let stop_here = (batches == 4).then(|| stopped.take()).flatten();
                async move {
                    bo_writes(&pool).await;
                    if let Some(stopped) = stop_here {
                        // The process ends here, as in a crash.
                        let _ = stopped.send(());
                        std::future::pending::<()>().await;
                    }
                }
            },
        };
        let mut conn = live_connection(&pool).await.unwrap();
        tokio::select! {
            done = copy_in(&mut conn, &export, 3, "marker", "import-1", &mut pace) => {
                panic!("the import ran to its end: {done:?}")
            }
            _ = stop => {}
        }
        drop(conn);
        // Bills, the payee rule and the connection are in; their ranges too.
        assert_eq!(
            number(&pool, "SELECT COUNT(*) FROM bills WHERE user_id = 3").await,
            3
        );
        assert_eq!(
            number(&pool, "SELECT COUNT(*) FROM personal_import_ranges").await,
            3
        );
        assert!(importing(&pool, 3).await.unwrap());

        let mut conn = live_connection(&pool).await.unwrap();
        let dropped = drop_unfinished(&mut conn, None).await.unwrap();
        conn.close().await.unwrap();
        assert_eq!(dropped, 5);
        assert_eq!(
            number(&pool, "SELECT COUNT(*) FROM personal_import_ranges").await,
            0
        );
        for (sql, count) in [
            ("SELECT COUNT(*) FROM bills WHERE user_id = 3", 0),
            ("SELECT COUNT(*) FROM merchant_rules WHERE user_id = 3", 0),
            ("SELECT COUNT(*) FROM bank_connections WHERE user_id = 3", 0),
            ("SELECT COUNT(*) FROM bills WHERE user_id = 1", 3),
            ("SELECT COUNT(*) FROM bank_connections WHERE user_id = 1", 1),
            ("SELECT COUNT(*) FROM payments WHERE user_id = 1", 5),
            ("SELECT COUNT(*) FROM bills WHERE user_id = 2", 5),
            ("SELECT COUNT(*) FROM payments WHERE user_id = 2", 4),
        ] {
            assert_eq!(number(&pool, sql).await, count, "{sql}");
        }
    }

    #[tokio::test]
    async fn an_import_whose_ranges_went_stops_and_a_range_of_a_strange_table_is_only_dropped() {
        let (_dir, pool, export) = ada_and_her_export().await;
        let mut batches = 0;
        let mut pace = Pace {
            rows: 2,
            between: |_held| {
                batches += 1;
                let pool = pool.clone();
                let restore = batches == 2;
                async move {
                    if restore {
                        // As a live restore replaces the table.
                        sqlx::query("DELETE FROM personal_import_ranges")
                            .execute(&pool)
                            .await
                            .unwrap();
                    }
                }
            },
        };
        let mut conn = live_connection(&pool).await.unwrap();
        let refused = copy_in(&mut conn, &export, 3, "marker", "import-1", &mut pace).await;
        conn.close().await.unwrap();
        assert!(
            matches!(refused, Err(PersonalDataError::Interrupted)),
            "{refused:?}"
        );
        assert_eq!(
            number(
                &pool,
                "SELECT COUNT(*) FROM merchant_rules WHERE user_id = 3"
            )
            .await,
            0
        );

        // A restored backup may name anything: nothing is run from it.
        sqlx::query(
            "INSERT INTO personal_import_ranges (import, user_id, table_name, first_id, last_id)
             VALUES ('x', 3, 'users; DROP TABLE bills', 1, 9), ('x', 3, 'sessions', 1, 9)",
        )
        .execute(&pool)
        .await
        .unwrap();
        let mut conn = live_connection(&pool).await.unwrap();
        assert_eq!(drop_unfinished(&mut conn, None).await.unwrap(), 0);
        conn.close().await.unwrap();
        assert_eq!(
            number(&pool, "SELECT COUNT(*) FROM personal_import_ranges").await,
            0
        );
        assert!(number(&pool, "SELECT COUNT(*) FROM bills").await > 0);
    }

    #[tokio::test]
    async fn every_column_of_an_exported_table_is_declared() {
        let (_dir, pool) = crate::backend::db::migrated_for_test().await;
        for table in std::iter::once(&USER).chain(TABLES) {
            let declared: BTreeSet<String> = table
                .columns
                .iter()
                .map(|(name, _)| (*name).to_owned())
                .collect();
            assert_eq!(
                columns(&pool, table.name).await,
                declared,
                "decide for each new column of {} whether it leaves Tally (personal_data::rules)",
                table.name
            );
        }
    }

    #[tokio::test]
    async fn every_table_with_a_persons_rows_is_exported_or_left_out_on_purpose() {
        let (_dir, pool) = crate::backend::db::migrated_for_test().await;
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT m.name FROM sqlite_schema AS m
             WHERE m.type = 'table'
               AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) AS c WHERE c.name = 'user_id')",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        assert!(tables.len() > 10, "{tables:?}");
        for table in tables {
            let exported = TABLES.iter().any(|known| known.name == table);
            let left_out = rules::LEFT_OUT.iter().any(|(name, _)| *name == table);
            assert!(
                exported != left_out,
                "{table}: export it (personal_data::rules::TABLES) or say why not (LEFT_OUT)"
            );
        }
    }
}
