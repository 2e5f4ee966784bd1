//! A user's preferences as `/api/profile/preferences` carries them: the
//! Profile form sends this shape and the server answers it.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Preferences {
    /// A tag from `money::LOCALES`: how amounts are written.
    pub locale: String,
    /// The currency new bills start with (ISO 4217).
    pub currency: String,
    /// An IANA time zone: what "today" is.
    pub time_zone: String,
    /// `weekly`, `biweekly`, `semimonthly`, `monthly`, or empty for none
    /// (the Tracker then shows calendar months only).
    #[serde(default)]
    pub pay_schedule: String,
    /// One payday (`YYYY-MM-DD`) to count periods from; empty when the
    /// schedule needs none.
    #[serde(default)]
    pub payday: String,
}
