//! A CSV import as people send it (the Data page, `/api/data/import…`):
//! at most [`MAX_IMPORT`] bytes of UTF-8, previewed row by row, then
//! written all or nothing, with bad rows named `rows[i].field` (i counts
//! data rows from 0).

use sqlx::SqlitePool;

use super::transfer::{self, ImportError};
use crate::contract::data::{ImportPreview, Imported, PreviewRow};
use crate::domain::contact::FieldViolation;
use crate::ssr::api_error::ApiError;

/// The largest file an import takes: 1 MiB.
pub const MAX_IMPORT: usize = 1024 * 1024;

/// The file's text: refused when it is too large or not UTF-8.
pub fn text_of(bytes: &[u8]) -> Result<&str, ApiError> {
    within_limit(bytes.len())?;
    std::str::from_utf8(bytes)
        .map_err(|_| ApiError::BadRequest("the file is not UTF-8 text".into()))
}

fn within_limit(bytes: usize) -> Result<(), ApiError> {
    if bytes > MAX_IMPORT {
        Err(ApiError::PayloadTooLarge { limit: MAX_IMPORT })
    } else {
        Ok(())
    }
}

/// Each row with its problems; nothing is written.
pub fn preview(text: &str) -> Result<ImportPreview, ApiError> {
    within_limit(text.len())?;
    let rows = transfer::read_csv(text).map_err(import_error)?;
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
    })
}

/// Every row, or none when any row is bad.
pub async fn import(pool: &SqlitePool, user: i64, text: &str) -> Result<Imported, ApiError> {
    within_limit(text.len())?;
    let imported = transfer::import(pool, user, text)
        .await
        .map_err(import_error)?;
    Ok(Imported { imported })
}

fn import_error(error: ImportError) -> ApiError {
    match error {
        ImportError::BadRows(_, rows) => ApiError::InvalidFields(
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
            ApiError::BadRequest(error.to_string())
        }
        ImportError::Bill(error) => error.into(),
    }
}
