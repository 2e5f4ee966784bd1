//! Admin → Authentication (`/api/admin/authentication`) and the identities
//! Profile lists (`/api/profile/identities`): single sign-on's settings,
//! local sign-in, and the provider accounts linked to a Tally account.

use serde::{Deserialize, Deserializer, Serialize};

/// `GET /api/admin/authentication`: the settings in force. The client
/// secret is write-only: only whether it is set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuthenticationSettings {
    /// Single sign-on is on: issuer, client id and secret are all set.
    pub oidc_enabled: bool,
    pub issuer_url: Option<String>,
    pub client_id: Option<String>,
    pub client_secret_set: bool,
    /// Space-separated, `openid` first.
    pub scopes: String,
    pub groups_claim: String,
    pub admin_group: Option<String>,
    pub auto_provision: bool,
    pub link_by_email: bool,
    pub button_label: String,
    /// Email and password sign in.
    pub local_login_enabled: bool,
    /// `tally auth local-login on` turned local sign-in back on, and no
    /// administrator has changed it since.
    pub local_login_break_glass: bool,
    /// An administrator has signed in through the provider (needed before
    /// local sign-in can be switched off).
    pub admin_signed_in_through_provider: bool,
    /// The fields the server's environment sets (they win over this page),
    /// by their names here.
    pub fixed_by_environment: Vec<String>,
    /// For the provider: `PUBLIC_BASE_URL` + `/api/auth/oidc/callback`.
    pub redirect_uri: String,
    /// For the provider: `PUBLIC_BASE_URL` + `/login`.
    pub post_logout_redirect_uri: String,
}

/// The environment variable that sets a field of [`AuthenticationSettings`]
/// (by its name there).
pub fn environment_variable(field: &str) -> Option<&'static str> {
    Some(match field {
        "issuerUrl" => "OIDC_ISSUER_URL",
        "clientId" => "OIDC_CLIENT_ID",
        "clientSecret" => "OIDC_CLIENT_SECRET",
        "scopes" => "OIDC_SCOPES",
        "groupsClaim" => "OIDC_GROUPS_CLAIM",
        "adminGroup" => "OIDC_ADMIN_GROUP",
        "autoProvision" => "OIDC_AUTO_PROVISION",
        "linkByEmail" => "OIDC_LINK_BY_EMAIL",
        "buttonLabel" => "OIDC_BUTTON_LABEL",
        "localLoginEnabled" => "LOCAL_LOGIN_ENABLED",
        _ => return None,
    })
}

/// `PUT /api/admin/authentication`: a partial change. A field left out is
/// unchanged; `null` (or an empty text) clears it, so the environment or
/// the default decides again. The client secret is never read back. The
/// administrator's password comes with it, asked again
/// (`currentPassword`): these settings decide who can become whom, so a
/// browser session alone, or any API token, does not change them.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuthenticationChange {
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<String>))]
    pub issuer_url: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<String>))]
    pub client_id: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<String>))]
    pub client_secret: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<String>))]
    pub scopes: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<String>))]
    pub groups_claim: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<String>))]
    pub admin_group: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<bool>))]
    pub auto_provision: Option<Option<bool>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<bool>))]
    pub link_by_email: Option<Option<bool>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<String>))]
    pub button_label: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<bool>))]
    pub local_login_enabled: Option<Option<bool>>,
    /// The administrator's password, asked again (not a setting).
    #[serde(default)]
    pub current_password: String,
}

/// Not `Debug` by derive: it may hold the client secret, and holds the
/// password.
impl std::fmt::Debug for AuthenticationChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthenticationChange")
            .field("issuer_url", &self.issuer_url)
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self
                    .client_secret
                    .as_ref()
                    .map(|set| set.as_ref().map(|_| "…")),
            )
            .field("scopes", &self.scopes)
            .field("groups_claim", &self.groups_claim)
            .field("admin_group", &self.admin_group)
            .field("auto_provision", &self.auto_provision)
            .field("link_by_email", &self.link_by_email)
            .field("button_label", &self.button_label)
            .field("local_login_enabled", &self.local_login_enabled)
            .field("current_password", &"[redacted]")
            .finish()
    }
}

/// A field that is present: `Some(value)`, `Some(None)` for `null`.
fn present<'de, T, D>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    T: Deserialize<'de>,
    D: Deserializer<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// `POST /api/admin/authentication/discovery`: which provider to try
/// (the issuer in force when left out).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DiscoveryRequest {
    #[serde(default)]
    pub issuer_url: Option<String>,
}

/// What the provider's discovery document says, or why it failed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Discovery {
    pub ok: bool,
    pub issuer_url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorization_endpoint: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_endpoint: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub userinfo_endpoint: Option<String>,
    /// Present when the provider offers RP-initiated logout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_session_endpoint: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `GET /api/profile/identities`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LinkedIdentities {
    pub identities: Vec<LinkedIdentity>,
    /// The account has a password (an identity can be unlinked only then).
    pub has_password: bool,
    /// Single sign-on is on here, so an identity can be linked; with the
    /// provider's button label.
    pub provider_label: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LinkedIdentity {
    pub id: i64,
    pub issuer: String,
    /// The email the provider last gave.
    pub email: Option<String>,
    pub linked_at: String,
    pub last_sign_in_at: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_tells_left_out_from_cleared() {
        let change: AuthenticationChange =
            serde_json::from_str(r#"{"localLoginEnabled": false, "adminGroup": null}"#).unwrap();
        assert_eq!(change.local_login_enabled, Some(Some(false)));
        assert_eq!(change.admin_group, Some(None));
        assert_eq!(change.issuer_url, None);
    }

    #[test]
    fn debug_hides_the_secret() {
        let change = AuthenticationChange {
            client_secret: Some(Some("s3cret".into())),
            current_password: "pa55word".into(),
            ..AuthenticationChange::default()
        };
        let shown = format!("{change:?}");
        assert!(
            !shown.contains("s3cret") && !shown.contains("pa55word"),
            "{shown}"
        );
    }

    #[test]
    fn the_password_is_read_as_current_password() {
        let change: AuthenticationChange =
            serde_json::from_str(r#"{"linkByEmail": true, "currentPassword": "pw"}"#).unwrap();
        assert_eq!(change.current_password, "pw");
        assert_eq!(change.link_by_email, Some(Some(true)));
        let without: AuthenticationChange = serde_json::from_str("{}").unwrap();
        assert_eq!(without.current_password, "");
    }
}
