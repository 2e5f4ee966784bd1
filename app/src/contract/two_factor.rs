//! `/api/auth/totp/…` and the password checks around second factors.

use serde::{Deserialize, Serialize};

/// What the person needs to add Tally to an authenticator app. No `Debug`:
/// it carries the new secret, shown this once.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TotpEnrolment {
    pub secret: String,
    pub otpauth_url: String,
    pub qr_svg: String,
}

/// Whether TOTP is on and how many recovery codes are left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TotpStatus {
    pub enabled: bool,
    pub recovery_codes_left: i64,
}

/// `POST /api/auth/totp/confirm`: the first code from the app.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct TotpCode {
    pub code: String,
}

/// The recovery codes of a confirmed TOTP enrolment, shown once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RecoveryCodes {
    pub recovery_codes: Vec<String>,
}

/// The password, for changes that need it (turning TOTP off, removing a
/// security key). No `Debug`.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CurrentPassword {
    pub current_password: String,
}

/// `POST /api/auth/password`. No `Debug`.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ChangePassword {
    pub current_password: String,
    pub new_password: String,
}
