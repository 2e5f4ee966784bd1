//! Every SQL statement of personal exports. The live database is `main`
//! on a connection of its own (taken out of the pool, closed afterwards,
//! so no attachment or temporary table outlives it); the file is attached
//! as `export` or `import`.

use std::path::Path;

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

/// Adds the rows of the export file at `file` (of this build's schema) to
/// the person `user_id`, in one transaction: every row or none.
pub async fn copy_in(
    conn: &mut SqliteConnection,
    file: &Path,
    user_id: i64,
    sealed_marker: &str,
) -> Result<PersonalImported, PersonalDataError> {
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

    let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
    sqlx::query("PRAGMA defer_foreign_keys = ON")
        .execute(&mut *tx)
        .await?;
    for table in TABLES.iter().filter(|table| table.has_key()) {
        sqlx::query(sqlx::AssertSqlSafe(rules::shift_sql(table)))
            .execute(&mut *tx)
            .await?;
    }
    let (locale, currency, time_zone) = rules::usable_preferences(locale, currency, time_zone);
    sqlx::query(
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

    let mut imported = PersonalImported::default();
    for table in TABLES {
        let added = sqlx::query(sqlx::AssertSqlSafe(rules::import_sql(table)))
            .bind(user_id)
            .bind(sealed_marker)
            .execute(&mut *tx)
            .await
            .map_err(refused_rows)?
            .rows_affected();
        let added = i64::try_from(added).unwrap_or(i64::MAX);
        match table.name {
            "bills" => imported.bills = added,
            "payments" => imported.payments = added,
            "bill_months" => imported.bill_months = added,
            "bank_accounts" => imported.bank_accounts = added,
            "transactions" => imported.transactions = added,
            "merchant_rules"
            | "user_catalog_descriptors"
            | "subscription_recommendation_feedback" => {
                imported.subscription_choices += added;
            }
            _ => {}
        }
    }
    tx.commit().await.map_err(refused_rows)?;
    Ok(imported)
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
