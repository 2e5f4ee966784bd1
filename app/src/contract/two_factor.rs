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

/// Debug never shows a password: server functions log their arguments'
/// Debug in errors, and these carry passwords.
impl std::fmt::Debug for CurrentPassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CurrentPassword")
            .field("current_password", &"[redacted]")
            .finish()
    }
}

impl std::fmt::Debug for ChangePassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChangePassword")
            .field("current_password", &"[redacted]")
            .field("new_password", &"[redacted]")
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_show_in_debug() {
        let change = ChangePassword {
            current_password: "old secret".into(),
            new_password: "new secret".into(),
        };
        let current = CurrentPassword {
            current_password: "old secret".into(),
        };
        for shown in [format!("{change:?}"), format!("{current:?}")] {
            assert!(!shown.contains("secret"), "{shown}");
            assert!(shown.contains("[redacted]"), "{shown}");
        }
        let profile = crate::contract::account::UpdateProfile {
            name: "Ada".into(),
            email: "ada@example.com".into(),
            current_password: Some("old secret".into()),
        };
        assert!(!format!("{profile:?}").contains("secret"));
    }
}
