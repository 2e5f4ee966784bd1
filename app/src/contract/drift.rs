//! `GET /api/bills/drift` and its actions: bills charged another amount
//! than expected for two or more months in a row.

use serde::{Deserialize, Serialize};

/// One month's payments of a drifting bill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DriftMonth {
    /// `YYYY-MM`.
    pub month: String,
    pub paid_minor: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DriftingBill {
    pub bill_id: i64,
    pub name: String,
    /// The bill's amount now.
    pub expected_minor: i64,
    /// The median of the months below: what "Update to" sets.
    pub median_minor: i64,
    /// The last three months with a payment (the current month once it has
    /// one), oldest first.
    pub months: Vec<DriftMonth>,
    /// The bill's currency.
    #[serde(default)]
    pub currency: String,
}

/// `GET /api/bills/drift`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Drifts {
    pub bills: Vec<DriftingBill>,
}

/// `POST /api/bills/{id}/drift/accept`: the bill's amount now and before
/// (the Tracker's "Undo" sets it back).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AmountChanged {
    pub bill_id: i64,
    pub amount_minor: i64,
    pub previous_minor: i64,
}
