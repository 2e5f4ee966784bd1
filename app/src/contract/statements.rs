//! Statement files as bank transactions (`/api/imports`): an upload becomes
//! a preview (what is new, what is already there, what was refused, the
//! balance check), and nothing is written until the person commits it.

use serde::{Deserialize, Serialize};

use super::operations::Operation;

/// `POST /api/imports`: the import made for the file, and the operation
/// that previews it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImportStarted {
    pub import: StatementImport,
    pub operation: Operation,
}

/// `GET /api/imports/{id}`: an import and its preview.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatementImport {
    pub id: i64,
    pub file_name: String,
    /// `ofx` (OFX 1 and 2, QFX), `qif`, `camt053`, `firefly` (Firefly III's
    /// transaction CSV) or `actual` (Actual Budget's transaction CSV).
    pub format: String,
    /// `uploaded` (being previewed), `previewed`, `failed` (the file was
    /// refused: see `error`) or `committed`.
    pub state: String,
    /// The account every row goes to; none: each account of the file goes
    /// to an imported account of its own.
    pub account_id: Option<i64>,
    pub created_at: String,
    /// After this, the preview is gone and the file must be sent again.
    pub expires_at: String,
    /// Why the file was refused: where and why.
    pub error: Option<String>,
    pub preview: Option<ImportPreviewSummary>,
    /// The first rows of the preview, in file order.
    pub rows: Vec<ImportRow>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImportPreviewSummary {
    /// Rows read from the file.
    pub rows: i64,
    /// Rows the commit will add.
    pub new_rows: i64,
    /// Rows already there (a re-import, an overlapping statement, a bank
    /// sync of the same transactions), or twice in the file under one id.
    pub duplicates: i64,
    /// Transactions the file holds that cannot be read, with where and why
    /// (the first 100; `refusedCount` counts all).
    pub refused: Vec<RefusedRow>,
    pub refused_count: i64,
    pub first_day: Option<String>,
    pub last_day: Option<String>,
    pub accounts: Vec<ImportAccount>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImportAccount {
    /// The file's own id for the account (OFX account id, IBAN, QIF name).
    pub file_account: String,
    /// Where its rows go: the chosen account's name, or the name of the
    /// imported account made for it.
    pub target: String,
    pub currency: String,
    pub rows: i64,
    pub new_rows: i64,
    /// The sum of the file's rows for this account, in minor units.
    pub total_minor: i64,
    pub balance: Option<BalanceCheck>,
}

/// The statement's own closing balance against what its rows add up to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BalanceCheck {
    pub statement_minor: i64,
    pub day: String,
    /// The statement's opening balance, when it gives one (CAMT.053).
    pub opening_minor: Option<i64>,
    /// Opening balance plus the rows; none without an opening balance.
    pub computed_minor: Option<i64>,
    /// Whether the two agree; none when there is nothing to compare.
    pub matches: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RefusedRow {
    /// Where in the file: `line 42`, `STMTTRN 3`, `Ntry 7`.
    pub position: String,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImportRow {
    pub file_account: String,
    pub day: String,
    pub amount_minor: i64,
    pub description: String,
    pub memo: Option<String>,
    pub duplicate: bool,
}

/// `POST /api/imports` query: the file's name, and the choices.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::IntoParams))]
#[serde(rename_all = "camelCase")]
pub struct ImportOptions {
    /// The file's name (its extension helps tell the format).
    pub file_name: Option<String>,
    /// The bank account every row goes to; left out: new imported accounts.
    pub account_id: Option<i64>,
    /// For QIF files whose dates read both ways: `dmy` or `mdy`.
    pub date_order: Option<String>,
}
