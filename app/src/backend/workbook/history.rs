//! Bills and payments from a spreadsheet of the person's own (issue 32):
//! the workbook's sheets, then a preview of one sheet read through their
//! column mapping (each row with its problems and whether the account has
//! it already), then the import of the rows they chose, in one
//! transaction. The workbook is sent with each step; nothing is kept.

use std::collections::HashSet;

use sqlx::SqlitePool;

use super::cells::{self, Sheet};
use super::mapping::{self, Kind, Planned, Row};
use super::{store, WorkbookError};
use crate::backend::bills::{self, NewPayment};
use crate::contract::data::Imported;
use crate::contract::history::{
    HistoryMapping, HistoryPreview, HistoryRow, HistorySheet, HistorySheets,
};
use crate::domain::validation::FieldViolation;

/// Rows shown per sheet before the person maps its columns.
const SAMPLE_ROWS: usize = 3;

async fn read(bytes: Vec<u8>) -> Result<Vec<Sheet>, WorkbookError> {
    tokio::task::spawn_blocking(move || cells::read(&bytes))
        .await
        .map_err(|error| {
            WorkbookError::Unreadable(format!("reading the workbook stopped: {error}"))
        })?
        .map_err(WorkbookError::Unreadable)
}

/// A column's heading: the first row's text, else its letter.
fn heading(sheet: &Sheet, column: usize) -> String {
    let text = sheet
        .rows
        .first()
        .and_then(|row| row.get(column))
        .map(cells::Cell::text)
        .unwrap_or_default();
    if text.is_empty() {
        let letter = u8::try_from(column % 26).map_or('?', |offset| char::from(b'A' + offset));
        match column / 26 {
            0 => format!("Column {letter}"),
            n => format!(
                "Column {}{letter}",
                char::from(b'A' + u8::try_from(n - 1).unwrap_or(0))
            ),
        }
    } else {
        text
    }
}

/// The workbook's sheets with their headings and first rows.
pub async fn sheets(bytes: Vec<u8>) -> Result<HistorySheets, WorkbookError> {
    let sheets = read(bytes).await?;
    Ok(HistorySheets {
        sheets: sheets
            .iter()
            .map(|sheet| {
                let width = sheet.rows.first().map_or(0, Vec::len);
                HistorySheet {
                    name: sheet.name.clone(),
                    columns: (0..width).map(|column| heading(sheet, column)).collect(),
                    rows: sheet.rows.len().saturating_sub(1),
                    sample: sheet
                        .rows
                        .iter()
                        .skip(1)
                        .take(SAMPLE_ROWS)
                        .map(|row| row.iter().map(cells::Cell::text).collect())
                        .collect(),
                }
            })
            .collect(),
    })
}

/// The sheet's rows read through the mapping.
async fn planned(
    pool: &SqlitePool,
    user_id: i64,
    bytes: Vec<u8>,
    mapping: &HistoryMapping,
) -> Result<(Kind, Vec<Row>), WorkbookError> {
    let kind = Kind::parse(&mapping.kind).ok_or_else(|| WorkbookError::Invalid {
        field: "kind",
        description: "use bills or payments".into(),
    })?;
    let sheets = read(bytes).await?;
    let sheet = sheets
        .iter()
        .find(|sheet| sheet.name == mapping.sheet)
        .ok_or_else(|| WorkbookError::Invalid {
            field: "sheet",
            description: format!("the workbook has no sheet named {:?}", mapping.sheet),
        })?;
    let width = sheet.rows.first().map_or(0, Vec::len);
    let problems = mapping::check(mapping, kind, width);
    if !problems.is_empty() {
        return Err(WorkbookError::Problems(problems));
    }
    let (_, currency) = crate::backend::preferences::locale_and_currency(pool, user_id).await?;
    let existing = store::existing(pool, user_id).await?;
    Ok((
        kind,
        mapping::rows(sheet, mapping, kind, &currency, &existing),
    ))
}

/// Every row of the mapped sheet; nothing is written.
pub async fn preview(
    pool: &SqlitePool,
    user_id: i64,
    bytes: Vec<u8>,
    mapping: &HistoryMapping,
) -> Result<HistoryPreview, WorkbookError> {
    let (kind, rows) = planned(pool, user_id, bytes, mapping).await?;
    let ready = rows.iter().filter(|row| row.import_by_default()).count();
    Ok(HistoryPreview {
        kind: match kind {
            Kind::Bills => "bills",
            Kind::Payments => "payments",
        }
        .into(),
        ready,
        rows: rows
            .into_iter()
            .map(|row| HistoryRow {
                import: row.import_by_default(),
                line: row.line,
                summary: row.summary,
                problems: row.problems,
                duplicate: row.duplicate,
            })
            .collect(),
    })
}

/// The chosen rows (`rows=`, else the preview's choice), all or none: a
/// chosen row with a problem refuses the import, naming
/// `rows[line].field`.
pub async fn import(
    pool: &SqlitePool,
    user_id: i64,
    bytes: Vec<u8>,
    mapping: &HistoryMapping,
) -> Result<Imported, WorkbookError> {
    let chosen = mapping::chosen_lines(mapping.rows.as_deref())
        .map_err(|problem| WorkbookError::Problems(vec![problem]))?;
    let (_, rows) = planned(pool, user_id, bytes, mapping).await?;
    if let Some(lines) = &chosen {
        let known: HashSet<usize> = rows.iter().map(|row| row.line).collect();
        if let Some(line) = lines.iter().find(|line| !known.contains(line)) {
            return Err(WorkbookError::Invalid {
                field: "rows",
                description: format!("the sheet has no row {line} to import"),
            });
        }
    }
    let taken: Vec<&Row> = rows
        .iter()
        .filter(|row| {
            chosen.as_ref().map_or_else(
                || row.import_by_default(),
                |lines| lines.contains(&row.line),
            )
        })
        .collect();
    let problems: Vec<FieldViolation> = taken
        .iter()
        .flat_map(|row| {
            row.problems.iter().map(move |problem| FieldViolation {
                field: format!("rows[{}].{}", row.line, problem.field),
                description: format!("row {}: {}", row.line, problem.description),
            })
        })
        .collect();
    if !problems.is_empty() {
        return Err(WorkbookError::Problems(problems));
    }
    let today = bills::today_for(pool, user_id).await?;
    let mut tx = crate::backend::db::write(pool).await?;
    for row in &taken {
        match &row.planned {
            Planned::Bill(form) => {
                let valid = form.validate().map_err(WorkbookError::Problems)?;
                bills::create_in(&mut tx, user_id, &valid, today).await?;
            }
            Planned::Payment(payment) => {
                let new = NewPayment {
                    amount_minor: payment.amount_minor,
                    paid_on: payment.paid_on,
                    method: "spreadsheet".into(),
                    for_occurrence: None,
                };
                bills::record_payment_in(&mut tx, user_id, payment.bill_id, &new).await?;
            }
            Planned::Nothing => {}
        }
    }
    tx.commit().await?;
    Ok(Imported {
        imported: taken.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_without_a_heading_are_named_by_their_letter() {
        let sheet = Sheet {
            name: "S".into(),
            rows: vec![vec![cells::Cell::Text("Name".into()), cells::Cell::Empty]],
        };
        assert_eq!(heading(&sheet, 0), "Name");
        assert_eq!(heading(&sheet, 1), "Column B");
        assert_eq!(heading(&sheet, 27), "Column AB");
    }
}
