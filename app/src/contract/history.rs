//! `/api/data/history/…`: bills and payments from a spreadsheet (Excel
//! `.xlsx`) of the person's own making. Through the API the workbook is
//! sent with each step (nothing is kept between them): its sheets, then a
//! preview of one sheet read through the person's column mapping, then the
//! import of the rows they chose. The Data page's forms send it once and
//! name the kept workbook instead ([`KeptWorkbook`]).

use serde::{Deserialize, Serialize};

use crate::domain::validation::FieldViolation;

/// `POST /api/data/history/sheets`: the workbook's sheets, to choose one
/// and say which column is which.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct HistorySheets {
    pub sheets: Vec<HistorySheet>,
}

/// The Data page's workbook form: the workbook, kept for its preview and
/// import as `id`, and its sheets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptWorkbook {
    pub id: String,
    pub sheets: HistorySheets,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct HistorySheet {
    pub name: String,
    /// The first row's cells as text, each column's heading ("Column C"
    /// where the first row is empty there).
    pub columns: Vec<String>,
    /// Rows under the heading.
    pub rows: usize,
    /// The first rows under the heading, as text.
    pub sample: Vec<Vec<String>>,
}

/// The query of a preview and an import: the sheet, what its rows are,
/// which column (counted from 0) holds each field, and the person's
/// decisions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::IntoParams))]
#[serde(rename_all = "camelCase")]
pub struct HistoryMapping {
    pub sheet: String,
    /// `bills` or `payments`.
    pub kind: String,
    /// Bills: the bill's name (required). Payments: not used.
    pub name: Option<usize>,
    /// Payments: the bill's name, matched to a bill of the account
    /// (required).
    pub bill: Option<usize>,
    /// The amount (required).
    pub amount: Option<usize>,
    /// Bills: the first due date; payments: the day paid (required).
    pub date: Option<usize>,
    /// Bills: how often (monthly when left out).
    pub cadence: Option<usize>,
    pub category: Option<usize>,
    pub notes: Option<usize>,
    /// Bills: whether it is paid automatically (yes/no).
    pub autopay: Option<usize>,
    /// The rows to import, by line, comma-separated; left out: every row the
    /// preview marks to import.
    pub rows: Option<String>,
}

impl HistoryMapping {
    /// Each field the mapping can name, with its column.
    pub fn columns(&self) -> [(&'static str, Option<usize>); 8] {
        [
            ("name", self.name),
            ("bill", self.bill),
            ("amount", self.amount),
            ("date", self.date),
            ("cadence", self.cadence),
            ("category", self.category),
            ("notes", self.notes),
            ("autopay", self.autopay),
        ]
    }

    /// The mapping for just the rows checked on the page (`chosen`, keyed
    /// by line); none checked is refused, naming `rows`.
    pub fn with_chosen<K: AsRef<str>, V>(
        self,
        chosen: Option<&std::collections::BTreeMap<K, V>>,
    ) -> Result<Self, FieldViolation> {
        let lines: Vec<&str> = chosen
            .map(|chosen| chosen.keys().map(AsRef::as_ref).collect())
            .unwrap_or_default();
        if lines.is_empty() {
            return Err(FieldViolation::new("rows", "check the rows to import"));
        }
        Ok(Self {
            rows: Some(lines.join(",")),
            ..self
        })
    }
}

/// One row of the sheet as it would be imported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HistoryRow {
    /// The row's number in the sheet (the heading is 1).
    pub line: usize,
    /// What it becomes, in words ("Rent · 1,500.00 USD · monthly from
    /// 2026-01-01").
    pub summary: String,
    pub problems: Vec<FieldViolation>,
    /// The account has it already (a bill of that name; a payment of that
    /// bill on that day for that amount).
    pub duplicate: bool,
    /// Whether the import takes it unless told otherwise: no problem and
    /// not a duplicate.
    pub import: bool,
}

/// `POST /api/data/history/preview`: every row; nothing is written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HistoryPreview {
    pub kind: String,
    pub rows: Vec<HistoryRow>,
    /// Rows marked to import.
    pub ready: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn the_checked_rows_become_the_mappings_rows_and_none_is_refused() {
        let chosen: BTreeMap<String, String> =
            [("3".into(), "on".into()), ("5".into(), "on".into())].into();
        let mapping = HistoryMapping::default().with_chosen(Some(&chosen));
        assert_eq!(mapping.map(|mapping| mapping.rows), Ok(Some("3,5".into())));
        let none = BTreeMap::<String, String>::new();
        let refused = FieldViolation::new("rows", "check the rows to import");
        assert_eq!(
            HistoryMapping::default().with_chosen(Some(&none)),
            Err(refused.clone())
        );
        assert_eq!(
            HistoryMapping::default().with_chosen::<String, String>(None),
            Err(refused)
        );
    }
}
