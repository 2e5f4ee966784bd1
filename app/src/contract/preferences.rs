//! `/api/profile/preferences`: how amounts are written, the currency new
//! bills start with, what "today" is, and the pay schedule.

use serde::{Deserialize, Serialize};

/// The user's preferences as the server answers them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Preferences {
    /// A tag from `money::LOCALES`: how amounts are written.
    pub locale: String,
    /// The currency new bills start with (ISO 4217).
    pub currency: String,
    /// An IANA time zone: what "today" is.
    pub time_zone: String,
    /// `weekly`, `biweekly`, `semimonthly`, `monthly`, or empty for none
    /// (the Tracker then shows calendar months only).
    pub pay_schedule: String,
    /// One payday (`YYYY-MM-DD`) to count periods from; empty when the
    /// schedule needs none.
    pub payday: String,
    /// Price drift counts a difference of at least this many percent (5)…
    #[serde(default)]
    pub drift_percent: i64,
    /// …and at least this much, in minor units (100).
    #[serde(default)]
    pub drift_min_minor: i64,
}

/// `PUT /api/profile/preferences`: the same fields; the pay schedule and
/// payday may be left out (none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdatePreferences {
    pub locale: String,
    pub currency: String,
    pub time_zone: String,
    #[serde(default)]
    pub pay_schedule: String,
    #[serde(default)]
    pub payday: String,
    /// 1–100; left out: unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drift_percent: Option<i64>,
    /// 1–1,000,000 minor units; left out: unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drift_min_minor: Option<i64>,
}
