//! `/api/subscriptions/…` and `/api/catalog/…`: the subscriptions Tally
//! recognises in a person's bank charges, with the evidence for each, what
//! the person did about them, the catalog of known services and the bank
//! descriptors the person taught Tally. Amounts are positive minor units.

use serde::{Deserialize, Serialize};

use super::bank::BankTransaction;
use super::bills::{BillRecord, CatalogService};

/// `GET /api/subscriptions/recommendations`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Recommendations {
    /// Known catalog services, most confident first.
    pub recommendations: Vec<Recommendation>,
    /// Merchants charging at a steady price on a schedule that match no
    /// catalog service; never mixed into `recommendations`.
    pub unknown_recurring: Vec<UnknownRecurring>,
    /// Whether any bank connection exists (else there is nothing to read).
    pub bank_connected: bool,
}

/// A catalog service the person appears to pay for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Recommendation {
    /// Stable for a service and currency: `{catalogId}-{currency}`.
    pub id: String,
    pub catalog_id: i64,
    pub service_name: String,
    pub category: String,
    /// `weekly`, `biweekly`, `monthly`, `quarterly`, `yearly`, or a stored
    /// custom cadence (`custom_days`, `custom_months` with `cadenceInterval`).
    pub cadence: String,
    pub cadence_interval: i64,
    /// The cadence in words ("Monthly").
    pub cadence_label: String,
    /// The amount to expect next.
    pub amount_minor: i64,
    pub currency: String,
    pub monthly_minor: i64,
    pub yearly_minor: i64,
    /// Out of 100.
    pub confidence: u8,
    pub evidence: Evidence,
    /// The descriptor fits several services and the amount did not tell
    /// them apart: for the person to review.
    pub ambiguous: bool,
    /// The other services the descriptor can mean.
    pub alternatives: Vec<CatalogService>,
    /// The charges behind it, oldest first.
    pub transaction_ids: Vec<i64>,
    pub transactions: Vec<BankTransaction>,
    /// A bill the person has that is likely this service (then the primary
    /// action is to link it rather than track a new one).
    pub suggested_bill_id: Option<i64>,
    pub suggested_bill_name: Option<String>,
    /// `YYYY-MM-DD` of the latest charge.
    pub last_charged: String,
}

/// Why Tally thinks so, in three separate parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    pub identity: IdentityEvidence,
    pub amount: AmountEvidence,
    pub cadence: CadenceEvidence,
}

/// How the merchant was recognised.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct IdentityEvidence {
    /// `own` (a descriptor the person taught Tally), `bank` (a catalog bank
    /// descriptor), `slang`, `domain` or `name`.
    pub kind: String,
    /// What matched, as a cleaned-up merchant key.
    pub matched: String,
    /// Out of 100; 90 or more resolves the service.
    pub score: u8,
    pub summary: String,
}

/// How the amounts behave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AmountEvidence {
    /// `stable`, `changed` or `range`.
    pub pattern: String,
    pub low_minor: i64,
    pub high_minor: i64,
    /// For `changed`: the old and new price and the day of the change.
    pub from_minor: Option<i64>,
    pub to_minor: Option<i64>,
    pub changed_on: Option<String>,
    /// A price rise (`changed` upwards).
    pub price_rise: bool,
    pub summary: String,
}

/// How often it charges, and from what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CadenceEvidence {
    /// `charges` (the intervals between them) or `catalog` (too few charges
    /// to tell: the service's usual cadence).
    pub source: String,
    pub charges: u32,
    pub skipped: u32,
    pub summary: String,
}

/// A merchant that recurs but is not a known service.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct UnknownRecurring {
    pub merchant_key: String,
    /// The latest charge's description, verbatim.
    pub description: String,
    pub currency: String,
    pub cadence_label: String,
    pub amount_minor: i64,
    pub charges: u32,
    pub transaction_ids: Vec<i64>,
}

/// `POST /api/subscriptions/recommendations/{id}/decline`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeclineRecommendation {
    /// `not_a_subscription`, or the person's own words (at most 200
    /// characters).
    #[serde(default)]
    pub reason: Option<String>,
}

/// `POST /api/subscriptions/recommendations/{id}/link`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LinkRecommendation {
    pub bill_id: i64,
}

/// `POST /api/subscriptions/recommendations/{id}/relink`: the charges are
/// another service's; Tally learns the merchant as that service's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RelinkRecommendation {
    pub catalog_id: i64,
}

/// `PUT /api/bills/{id}/catalog-link`: `null` unlinks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CatalogLink {
    pub catalog_id: Option<i64>,
}

/// What tracking or linking did: the bill, and how many of the charges
/// were matched to it as payments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Tracked {
    pub bill: BillRecord,
    pub matched: u32,
}

/// `GET /api/catalog?q=`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::IntoParams))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CatalogQuery {
    /// Words of the name, category or web address (at most 100
    /// characters); empty lists them all.
    #[serde(default)]
    pub q: Option<String>,
}

/// `POST /api/catalog/track`: bills for catalog services, at their
/// starting price and usual cadence, from today.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TrackCatalog {
    /// 1 to 50 services.
    pub catalog_ids: Vec<i64>,
}

/// `POST /api/catalog/track`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TrackedBills {
    pub bills: Vec<BillRecord>,
}

/// A bank descriptor the person taught Tally for a service.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "ssr", derive(sqlx::FromRow))]
#[serde(rename_all = "camelCase")]
pub struct OwnDescriptor {
    pub id: i64,
    pub catalog_id: i64,
    pub service_name: String,
    pub descriptor: String,
    pub created_at: String,
}

/// `GET /api/catalog/descriptors`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OwnDescriptors {
    pub descriptors: Vec<OwnDescriptor>,
}

/// `POST /api/catalog/descriptors`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewDescriptor {
    pub catalog_id: i64,
    /// As it appears on the statement (1 to 200 characters).
    pub descriptor: String,
}

/// A tracked bill linked to a catalog service, with how its price compares
/// to the catalog's price of the plan it is on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TrackedService {
    pub bill_id: i64,
    pub bill_name: String,
    pub catalog_id: i64,
    pub service_name: String,
    pub amount_minor: i64,
    pub currency: String,
    pub cadence_label: String,
    pub monthly_minor: i64,
    /// The catalog's price a month (US cents) of the plan the bill is on
    /// (`catalogTier`), or its starting price when the catalog lists no
    /// plans for the service.
    pub catalog_monthly_minor: Option<i64>,
    /// The plan whose price is nearest the bill's (`"Standard"`), when the
    /// catalog lists the service's plans.
    pub catalog_tier: Option<String>,
    /// How far the bill's monthly cost is from the catalog's, in percent
    /// (positive: paying more); only for US dollars.
    pub drift_percent: Option<i64>,
}

/// The Service Catalog page's own data: `GET /api/catalog/tracked`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TrackedServices {
    pub services: Vec<TrackedService>,
}
