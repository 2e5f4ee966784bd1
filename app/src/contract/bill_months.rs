//! `/api/bills/{id}/months/{yyyy-mm}`: one occurrence's overrides (this
//! time's amount, a skip, a snooze, a note).

use serde::{Deserialize, Serialize};

/// One occurrence with what it has of its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BillMonth {
    pub bill_id: i64,
    /// The occurrence's scheduled due date, `YYYY-MM-DD`.
    pub occurrence: String,
    /// The bill's usual amount.
    pub usual_amount_minor: i64,
    /// This time's amount, when it differs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount_minor: Option<i64>,
    pub skipped: bool,
    /// The later date the occurrence is due on, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snoozed_to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `PUT /api/bills/{id}/months/{yyyy-mm}`: the occurrence's overrides as
/// they should be (a field left out is cleared).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BillMonthChange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount_minor: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<bool>,
    /// `YYYY-MM-DD`, after the occurrence and at most 31 days later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snoozed_to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}
