//! Actual Budget's budget file (`db.sqlite`, alone or inside the zip that
//! Actual's "Export data" writes; Actual 26.x, docs/formats/other_apps.md
//! §3a): its schedules as bills. Transactions come in through Actual's CSV
//! export and the statement import instead.
//!
//! The file is opened from a scratch copy through the one opener of files
//! strangers wrote (`backend::untrusted_sqlite`), and only its plain tables
//! are read: never a view or a generated column, which a crafted file
//! could make compute anything.

use std::io::{Cursor, Read as _, Write as _};

use rusqlite::Connection;
use serde::Deserialize;

use super::{Mapped, Read};
use crate::backend::untrusted_sqlite::{self, UntrustedError};
use crate::domain::bill::BillForm;
use crate::domain::date::Date;
use crate::domain::money::Currency;

/// The largest budget file read, unpacked (a budget with years of
/// transactions is a few tens of MB).
const MAX_UNPACKED: u64 = 64 * 1024 * 1024;
/// Schedules read, at most.
const MAX_SCHEDULES: i64 = 5_000;
/// The tables read; each must be a table.
const TABLES: [&str; 5] = [
    "schedules",
    "rules",
    "schedules_next_date",
    "payees",
    "payee_mapping",
];

/// One schedule as the file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub name: String,
    pub payee: Option<String>,
    pub completed: bool,
    /// The rule's `conditions`, JSON.
    pub conditions: String,
    /// The next date, `YYYYMMDD`.
    pub next: Option<i64>,
}

#[derive(Deserialize)]
struct Condition {
    field: String,
    #[serde(default)]
    value: serde_json::Value,
}

#[derive(Deserialize)]
struct Recurrence {
    start: String,
    #[serde(default)]
    interval: Option<i64>,
    frequency: String,
    #[serde(default)]
    patterns: Vec<serde_json::Value>,
}

fn day_of(number: i64) -> Option<Date> {
    let year = i32::try_from(number / 10_000).ok()?;
    let month = u8::try_from(number / 100 % 100).ok()?;
    let day = u8::try_from(number % 100).ok()?;
    Date::new(year, month, day)
}

fn cadence(frequency: &str, every: i64) -> Option<(&'static str, i64)> {
    let found = match (frequency, every) {
        ("weekly", 1) => ("weekly", 1),
        ("weekly", 2) => ("biweekly", 1),
        ("monthly", 1) => ("monthly", 1),
        ("monthly", 3) => ("quarterly", 1),
        ("yearly", 1) => ("yearly", 1),
        ("daily", days) => ("custom_days", days),
        ("weekly", weeks) => ("custom_days", weeks.checked_mul(7)?),
        ("monthly", months) => ("custom_months", months),
        ("yearly", years) => ("custom_months", years.checked_mul(12)?),
        _ => return None,
    };
    (1..=366).contains(&found.1).then_some(found)
}

/// The schedules as bills (pure); `own` is the person's currency (Actual
/// writes none).
pub fn bills(schedules: &[Schedule], own: &str) -> Read {
    let digits = Currency::parse(own).map_or(2, |currency| currency.digits());
    let mut read = Read::default();
    for (index, schedule) in schedules.iter().enumerate() {
        let name = match (
            schedule.name.trim(),
            schedule.payee.as_deref().map(str::trim),
        ) {
            ("", Some(payee)) if !payee.is_empty() => payee.to_owned(),
            ("", _) => "Unnamed schedule".to_owned(),
            (name, _) => name.to_owned(),
        };
        if schedule.completed {
            read.not_mapped
                .push(format!("{name}: completed in Actual, so not imported"));
            continue;
        }
        let conditions: Vec<Condition> =
            serde_json::from_str(&schedule.conditions).unwrap_or_default();
        let value = |field: &str| {
            conditions
                .iter()
                .find(|condition| condition.field == field)
                .map(|condition| &condition.value)
        };
        let (amount_minor, range) = match value("amount") {
            Some(serde_json::Value::Number(number)) => (number.as_i64().map(i64::abs), None),
            Some(serde_json::Value::Object(bounds)) => {
                let low = bounds
                    .get("num1")
                    .and_then(serde_json::Value::as_i64)
                    .map(i64::abs);
                let high = bounds
                    .get("num2")
                    .and_then(serde_json::Value::as_i64)
                    .map(i64::abs);
                match (low, high) {
                    (Some(low), Some(high)) => {
                        (Some(low.max(high)), Some((low.min(high), low.max(high))))
                    }
                    _ => (None, None),
                }
            }
            _ => (None, None),
        };
        let Some(amount_minor) = amount_minor else {
            read.not_mapped.push(format!(
                "{name}: its amount is not a number Tally can read, so not imported"
            ));
            continue;
        };
        let recurrence =
            value("date").and_then(|date| serde_json::from_value::<Recurrence>(date.clone()).ok());
        let Some(recurrence) = recurrence else {
            read.not_mapped
                .push(format!("{name}: happens once, so not imported as a bill"));
            continue;
        };
        let Some((cadence, interval)) =
            cadence(&recurrence.frequency, recurrence.interval.unwrap_or(1))
        else {
            read.not_mapped.push(format!(
                "{name}: repeats {} every {}, which Tally cannot",
                recurrence.frequency,
                recurrence.interval.unwrap_or(1)
            ));
            continue;
        };
        if !recurrence.patterns.is_empty() {
            read.not_mapped.push(format!(
                "{name}: repeats on particular days in Actual; imported as {cadence}"
            ));
        }
        let next = schedule
            .next
            .and_then(day_of)
            .or_else(|| Date::parse(&recurrence.start).ok());
        let notes = match range {
            Some((low, high)) if low != high => format!(
                "Actual expected {} to {} {own}",
                crate::domain::money::minor_to_input(low, digits),
                crate::domain::money::minor_to_input(high, digits)
            ),
            _ => String::new(),
        };
        let form = BillForm {
            name: name.clone(),
            amount_minor,
            currency: own.to_owned(),
            cadence: cadence.to_owned(),
            cadence_interval: Some(interval),
            due_day: next.map_or(1, |day| i64::from(day.day())),
            anchor_date: next.map(|day| day.to_string()).unwrap_or_default(),
            category: "Other".into(),
            notes,
            autopay: false,
            subscription: false,
            debt: false,
            balance_minor: None,
            apr_basis_points: None,
            minimum_payment_minor: None,
            catalog_id: None,
        };
        read.rows.push(Mapped {
            line: index + 1,
            name,
            problems: Vec::new(),
            form,
        });
    }
    read
}

/// The SQLite database inside `bytes`: the file itself, or `db.sqlite` in
/// Actual's export zip, unpacked with a cap.
fn database(bytes: Vec<u8>) -> Result<Vec<u8>, String> {
    if bytes.starts_with(b"SQLite format 3\0") {
        return Ok(bytes);
    }
    if !bytes.starts_with(b"PK") {
        return Err(
            "the file is not Actual's budget file (db.sqlite, or the zip Actual exports)".into(),
        );
    }
    let mut archive = zip::ZipArchive::new(Cursor::new(&bytes))
        .map_err(|_| "the file is not Actual's budget export (a zip with db.sqlite)".to_owned())?;
    let mut entry = archive.by_name("db.sqlite").map_err(|_| {
        "the zip has no db.sqlite: export the budget from Actual's settings".to_owned()
    })?;
    let mut database = Vec::new();
    (&mut entry)
        .take(MAX_UNPACKED + 1)
        .read_to_end(&mut database)
        .map_err(|error| format!("the zip is damaged ({error})"))?;
    if database.len() as u64 > MAX_UNPACKED {
        return Err(format!(
            "db.sqlite unpacks to more than {} MB",
            MAX_UNPACKED / 1_000_000
        ));
    }
    Ok(database)
}

fn schedules(conn: &Connection) -> Result<Vec<Schedule>, String> {
    untrusted_sqlite::plain_tables(conn, &TABLES).map_err(|error| match error {
        UntrustedError::Missing(table) => {
            format!("the file is not Actual's budget file (it has no table {table})")
        }
        other => format!("the budget file cannot be read: {other}"),
    })?;
    let unreadable = |error: rusqlite::Error| {
        format!(
            "the budget file cannot be read: {}",
            UntrustedError::of(error)
        )
    };
    let mut statement = conn
        .prepare(
            "SELECT COALESCE(s.name, '') AS name,
                CASE WHEN json_valid(r.conditions) THEN
                    (SELECT p.name FROM json_each(r.conditions) AS c
                     JOIN payee_mapping m ON m.id = json_extract(c.value, '$.value')
                     JOIN payees p ON p.id = m.targetId
                     WHERE json_extract(c.value, '$.field') = 'description' LIMIT 1)
                END AS payee,
                COALESCE(s.completed, 0) AS completed, COALESCE(r.conditions, '[]') AS conditions,
                (SELECT CASE WHEN n.local_next_date_ts = n.base_next_date_ts
                             THEN n.local_next_date ELSE n.base_next_date END
                 FROM schedules_next_date n WHERE n.schedule_id = s.id AND COALESCE(n.tombstone, 0) = 0
                 LIMIT 1) AS next
         FROM schedules s
         JOIN rules r ON r.id = s.rule
         WHERE COALESCE(s.tombstone, 0) = 0 AND COALESCE(r.tombstone, 0) = 0
         ORDER BY s.name
         LIMIT ?1",
        )
        .map_err(unreadable)?;
    let rows = statement
        .query_map([MAX_SCHEDULES], |row| {
            Ok(Schedule {
                name: row.get(0)?,
                payee: row.get(1)?,
                completed: row.get::<_, i64>(2)? != 0,
                conditions: row.get(3)?,
                next: row.get(4)?,
            })
        })
        .map_err(unreadable)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(unreadable)
}

/// The database written to a scratch file (unpacking and writing are
/// work for a blocking thread).
async fn scratch_copy(bytes: Vec<u8>) -> Result<tempfile::NamedTempFile, String> {
    tokio::task::spawn_blocking(move || {
        let database = database(bytes)?;
        let mut scratch =
            tempfile::NamedTempFile::new().map_err(|error| format!("scratch file: {error}"))?;
        scratch
            .write_all(&database)
            .and_then(|()| scratch.flush())
            .map_err(|error| format!("scratch file: {error}"))?;
        Ok(scratch)
    })
    .await
    .map_err(|error| format!("reading the budget file stopped: {error}"))?
}

/// Reads the budget file's schedules as bills.
pub async fn read(bytes: &[u8], own: &str) -> Result<Read, String> {
    let scratch = scratch_copy(bytes.to_vec()).await?;
    let path = scratch.path().to_path_buf();
    let found = untrusted_sqlite::read(path, |conn| schedules(conn).map_err(Refused)).await;
    drop(scratch);
    Ok(bills(&found.map_err(|Refused(why)| why)?, own))
}

/// A refusal in words, for [`untrusted_sqlite::read`].
struct Refused(String);

impl From<UntrustedError> for Refused {
    fn from(error: UntrustedError) -> Self {
        Self(match error {
            UntrustedError::Unreadable => "the file is not a SQLite database Actual wrote".into(),
            other => format!("the budget file cannot be read: {other}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUDGET: &[u8] =
        include_bytes!("../../../../server/tests/fixtures/other_apps/actual_db.sqlite");

    #[tokio::test]
    async fn schedules_become_bills_with_their_next_date() {
        let read = read(BUDGET, "EUR").await.unwrap();
        assert_eq!(read.rows.len(), 3, "{read:?}");
        let by_name = |name: &str| &read.rows.iter().find(|row| row.name == name).unwrap().form;
        let netflix = by_name("Netflix");
        assert_eq!(
            (
                netflix.amount_minor,
                netflix.currency.as_str(),
                netflix.cadence.as_str()
            ),
            (1299, "EUR", "monthly")
        );
        assert_eq!(netflix.anchor_date, "2026-02-05");
        let domain = by_name("Domain renewal");
        assert_eq!(
            (domain.cadence.as_str(), domain.anchor_date.as_str()),
            ("yearly", "2027-01-20")
        );
        let gym = by_name("Gym");
        assert_eq!((gym.amount_minor, gym.cadence.as_str()), (3000, "weekly"));
        assert_eq!(gym.notes, "Actual expected 25.00 to 30.00 EUR");
        assert!(read.rows.iter().all(|row| row.form.validate().is_ok()));
    }

    #[tokio::test]
    async fn the_export_zip_holds_the_same_budget() {
        let mut buffer = Cursor::new(Vec::new());
        {
            let mut zip = zip::ZipWriter::new(&mut buffer);
            let options = zip::write::SimpleFileOptions::default();
            zip.start_file("metadata.json", options).unwrap();
            zip.write_all(b"{}").unwrap();
            zip.start_file("db.sqlite", options).unwrap();
            zip.write_all(BUDGET).unwrap();
            zip.finish().unwrap();
        }
        let read = read(&buffer.into_inner(), "USD").await.unwrap();
        assert_eq!(read.rows.len(), 3);
    }

    #[test]
    fn one_time_completed_and_odd_schedules_are_listed_not_imported() {
        let schedule = |name: &str, completed: bool, date: &str| Schedule {
            name: name.into(),
            payee: Some("Payee".into()),
            completed,
            conditions: format!(
                r#"[{{"field":"date","value":{date}}},{{"field":"amount","value":-500}}]"#
            ),
            next: None,
        };
        let read = bills(
            &[
                schedule("Once", false, r#""2026-05-01""#),
                schedule(
                    "Done",
                    true,
                    r#"{"start":"2026-01-01","frequency":"monthly"}"#,
                ),
                schedule(
                    "Hourly",
                    false,
                    r#"{"start":"2026-01-01","frequency":"hourly"}"#,
                ),
                schedule(
                    "",
                    false,
                    r#"{"start":"2026-01-31","frequency":"monthly","interval":2,"patterns":[{"type":"day","value":-1}]}"#,
                ),
            ],
            "USD",
        );
        assert_eq!(read.rows.len(), 1);
        let payee = &read.rows[0].form;
        assert_eq!(
            (
                payee.name.as_str(),
                payee.cadence.as_str(),
                payee.cadence_interval
            ),
            ("Payee", "custom_months", Some(2))
        );
        assert_eq!(payee.anchor_date, "2026-01-31");
        let notes = read.not_mapped.join("\n");
        for expected in [
            "Once: happens once",
            "Done: completed",
            "Hourly: repeats hourly",
            "Payee: repeats on particular days",
        ] {
            assert!(notes.contains(expected), "{expected} in {notes}");
        }
    }

    #[tokio::test]
    async fn a_file_that_is_not_an_actual_budget_is_refused() {
        assert!(read(b"Account,Date\n", "USD")
            .await
            .unwrap_err()
            .contains("not Actual's budget"));
        let (_dir, pool) = crate::backend::db::migrated_for_test().await;
        pool.close().await;
        let tally = std::fs::read(_dir.path().join("t.db")).unwrap();
        assert!(read(&tally, "USD").await.unwrap_err().contains("no table"));
    }
}
