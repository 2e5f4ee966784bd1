//! `/api/admin/…`: users, invitations and open registration.

use serde::{Deserialize, Serialize};

use crate::domain::role::Role;

/// One row of the Admin users list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct UserSummary {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub disabled: bool,
    pub totp_enabled: bool,
    pub security_keys: i64,
    pub created_at: String,
    pub last_sign_in_at: Option<String>,
    /// The latest request of any of the user's sessions (joining through
    /// an invitation signs in without a sign-in of the history).
    #[serde(default)]
    pub last_seen_at: Option<String>,
}

/// An invitation not yet used (its token is never shown again).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    pub id: i64,
    /// The only address that may use it, when one was given.
    pub email: Option<String>,
    pub role: Role,
    pub created_at: String,
    pub expires_at: String,
}

/// `POST /api/admin/invitations`: email and role may be left out (anyone
/// with the link; role `user`); the administrator's password may not (from
/// a browser session only: no API token makes invitations). No `Debug`
/// that shows the password.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Invite {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    /// The administrator's password, asked again.
    #[serde(default, rename = "currentPassword")]
    pub current_password: String,
}

impl std::fmt::Debug for Invite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Invite")
            .field("email", &self.email)
            .field("role", &self.role)
            .field("current_password", &"[redacted]")
            .finish()
    }
}

/// The answer to [`Invite`]: the one-time link, shown once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Invited {
    pub link: String,
    pub invitation: Invitation,
}

/// `GET`/`PUT /api/admin/registration`: whether anyone may register
/// without an invitation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RegistrationSetting {
    pub open: bool,
}

/// `PUT /api/admin/registration`: open or close registration, with the
/// administrator's password asked again (browser session only). No
/// `Debug` that shows the password.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RegistrationChange {
    pub open: bool,
    #[serde(default)]
    pub current_password: String,
}

impl std::fmt::Debug for RegistrationChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegistrationChange")
            .field("open", &self.open)
            .field("current_password", &"[redacted]")
            .finish()
    }
}

/// What an administrator does to an account (`POST
/// /api/admin/users/{id}/disable`, `…/enable`, `…/reset-second-factor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AccountAction {
    /// Ends their sessions; not one's own account.
    Disable,
    Enable,
    /// Removes TOTP and security keys (from a browser session only).
    ResetSecondFactor,
}

/// The users table's form as the page posts it: the pressed button names
/// what to do and carries the account's id (`change[disable]=5`). Exactly
/// one is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccountChange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disable: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enable: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset_second_factor: Option<i64>,
}

impl AccountChange {
    /// The account and what to do with it, when exactly one is asked.
    pub fn chosen(self) -> Option<(i64, AccountAction)> {
        match (self.disable, self.enable, self.reset_second_factor) {
            (Some(id), None, None) => Some((id, AccountAction::Disable)),
            (None, Some(id), None) => Some((id, AccountAction::Enable)),
            (None, None, Some(id)) => Some((id, AccountAction::ResetSecondFactor)),
            _ => None,
        }
    }
}

/// One backup in `DATA_DIR/backups`, as `GET /api/admin/backups` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BackupFile {
    /// `bills-<UTC timestamp>.db`; newest first.
    pub name: String,
    pub bytes: u64,
    /// When it was written (RFC 3339, UTC).
    pub taken_at: Option<String>,
    /// Seconds since then, when listed.
    pub age_seconds: Option<u64>,
}

/// `GET /api/admin/backups`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BackupFiles {
    pub backups: Vec<BackupFile>,
}

/// Admin → Backups' schema section: the newest applied migration and
/// whether it can be rolled back.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SchemaState {
    /// `v1.08`; `None` on an empty database.
    pub latest: Option<String>,
    pub description: Option<String>,
    /// Whether `latest` has a rollback definition.
    pub can_roll_back: bool,
    /// Migrations this build has that the database lacks.
    pub pending: u32,
}

/// `GET /api/admin/status`: how the instance is, as sections of labelled
/// rows, worded on the server (no filesystem path, no secret).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SystemStatus {
    pub sections: Vec<StatusSection>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatusSection {
    pub title: String,
    pub rows: Vec<StatusRow>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatusRow {
    pub label: String,
    pub value: String,
    /// `ok`, `warn`, `error` or `info`.
    pub state: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_change_is_the_one_button_pressed() {
        let one = |disable, enable, reset_second_factor| AccountChange {
            disable,
            enable,
            reset_second_factor,
        };
        assert_eq!(
            one(Some(5), None, None).chosen(),
            Some((5, AccountAction::Disable))
        );
        assert_eq!(
            one(None, Some(6), None).chosen(),
            Some((6, AccountAction::Enable))
        );
        assert_eq!(
            one(None, None, Some(7)).chosen(),
            Some((7, AccountAction::ResetSecondFactor))
        );
        assert_eq!(one(None, None, None).chosen(), None);
        assert_eq!(one(Some(5), Some(5), None).chosen(), None);
    }
}
