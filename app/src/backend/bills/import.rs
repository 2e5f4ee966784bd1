//! A bill import as people send it (the Data page, `/api/data/import…`):
//! Tally's own CSV, or another app's export (`other_apps`: Wallos,
//! Firefly III, Actual's budget file), at most [`MAX_IMPORT`] bytes of
//! UTF-8 ([`MAX_BUDGET_FILE`] for Actual's database), previewed row by row
//! with what could not be mapped, then written all or nothing, with bad
//! rows named `rows[i].field` (i counts data rows from 0).

use sqlx::SqlitePool;

use super::import_error::BillImportError;
use super::transfer::{self, ImportError, ImportRow};
use crate::backend::other_apps::{self, Source};
use crate::contract::data::{ImportPreview, Imported, PreviewRow};
use crate::domain::validation::FieldViolation;

/// The largest text file an import takes: 1 MiB.
pub const MAX_IMPORT: usize = 1024 * 1024;
/// The largest Actual budget file (a SQLite database, or its zip).
pub const MAX_BUDGET_FILE: usize = 10 * 1024 * 1024;

/// The file's text: refused when it is too large or not UTF-8.
pub fn text_of(bytes: &[u8]) -> Result<&str, BillImportError> {
    within_limit(bytes.len())?;
    std::str::from_utf8(bytes).map_err(|_| BillImportError::NotText)
}

fn within_limit(bytes: usize) -> Result<(), BillImportError> {
    if bytes > MAX_IMPORT {
        Err(BillImportError::TooLarge { limit: MAX_IMPORT })
    } else {
        Ok(())
    }
}

/// The file's rows as bills, and what it holds that Tally did not take.
async fn rows(
    pool: &SqlitePool,
    user: i64,
    source: Source,
    file: &[u8],
) -> Result<(Vec<ImportRow>, Vec<String>), BillImportError> {
    if source == Source::Tally {
        let text = text_of(file)?;
        return Ok((transfer::read_csv(text).map_err(import_error)?, Vec::new()));
    }
    let (_, own) = crate::backend::preferences::locale_and_currency(pool, user).await?;
    let read = if source == Source::Actual {
        if file.len() > MAX_BUDGET_FILE {
            return Err(BillImportError::TooLarge {
                limit: MAX_BUDGET_FILE,
            });
        }
        other_apps::actual_budget::read(file, &own).await
    } else {
        other_apps::read(source, text_of(file)?, &own)
    };
    let read = read
        .map_err(|description| BillImportError::Field(FieldViolation::new("file", description)))?;
    let rows = read
        .rows
        .into_iter()
        .map(|row| ImportRow::checked(row.line, row.problems, row.form))
        .collect();
    Ok((rows, read.not_mapped))
}

/// `from=` on the wire as a source; unknown names are the caller's
/// mistake.
pub fn source(from: Option<&str>) -> Result<Source, BillImportError> {
    Source::parse(from.unwrap_or("")).ok_or_else(|| {
        BillImportError::Field(FieldViolation::new(
            "from",
            "use tally, wallos, firefly or actual",
        ))
    })
}

/// Each row with its problems; nothing is written.
pub async fn preview(
    pool: &SqlitePool,
    user: i64,
    source: Source,
    file: &[u8],
) -> Result<ImportPreview, BillImportError> {
    let (rows, not_mapped) = rows(pool, user, source, file).await?;
    let invalid = rows.iter().filter(|row| !row.problems.is_empty()).count();
    Ok(ImportPreview {
        valid: rows.len() - invalid,
        invalid,
        rows: rows
            .into_iter()
            .map(|row| PreviewRow {
                line: row.line,
                name: row.name,
                problems: row.problems,
            })
            .collect(),
        not_mapped,
    })
}

/// Every row, or none when any row is bad.
pub async fn import(
    pool: &SqlitePool,
    user: i64,
    source: Source,
    file: &[u8],
) -> Result<Imported, BillImportError> {
    let (rows, _) = rows(pool, user, source, file).await?;
    let imported = transfer::import(pool, user, rows)
        .await
        .map_err(import_error)?;
    Ok(Imported { imported })
}

fn import_error(error: ImportError) -> BillImportError {
    match error {
        ImportError::BadRows(_, rows) => BillImportError::Rows(
            rows.into_iter()
                .flat_map(|row| {
                    let index = row.line.saturating_sub(2);
                    row.problems.into_iter().map(move |problem| FieldViolation {
                        field: format!("rows[{index}].{}", problem.field),
                        description: format!("line {}: {}", row.line, problem.description),
                    })
                })
                .collect(),
        ),
        ImportError::Unreadable(_) | ImportError::TooManyRows => {
            BillImportError::Unreadable(error.to_string())
        }
        ImportError::Bill(error) => error.into(),
    }
}
