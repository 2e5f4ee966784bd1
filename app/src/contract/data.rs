//! `/api/data/…`: export and CSV import.

use serde::{Deserialize, Serialize};

use super::bills::{BillRecord, Payment};
use crate::domain::validation::FieldViolation;

/// `GET /api/data/export.json` (as a download): every bill and payment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Export {
    pub bills: Vec<BillRecord>,
    pub payments: Vec<Payment>,
}

/// One row of an import as read and checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct PreviewRow {
    /// The line in the file (the header is line 1).
    pub line: usize,
    pub name: String,
    pub problems: Vec<FieldViolation>,
}

/// `POST /api/data/import/preview[?from=]`: each row with its problems;
/// nothing is written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ImportPreview {
    pub rows: Vec<PreviewRow>,
    pub valid: usize,
    pub invalid: usize,
    /// What another app's file holds that Tally did not take, in words
    /// (cancelled subscriptions, fields with no place in Tally).
    #[serde(default, rename = "notMapped")]
    pub not_mapped: Vec<String>,
}

/// The Data page's bills form: the file, kept for its import as `id`,
/// and its preview.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptImport {
    pub id: String,
    pub preview: ImportPreview,
}

/// `POST /api/data/import` (201): every row was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Imported {
    pub imported: usize,
}

/// `POST /api/data/import.sqlite`: what a personal export added to the
/// signed-in account (rows per kind; the account's preferences are
/// replaced by the file's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PersonalImported {
    pub bills: i64,
    pub payments: i64,
    /// This-time changes (per-month overrides).
    pub bill_months: i64,
    pub bank_accounts: i64,
    pub transactions: i64,
    /// Subscription feedback, merchant rules and known descriptors.
    pub subscription_choices: i64,
}

/// `POST /api/data/import…` query: which app wrote the file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::IntoParams))]
pub struct ImportSource {
    /// `tally` (Tally's CSV export, the default), `wallos` (its JSON or
    /// CSV subscription export), `firefly` (Firefly III's bill export) or
    /// `actual` (Actual's budget file: its schedules).
    pub from: Option<String>,
}
