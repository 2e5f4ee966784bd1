//! How single sign-on is set up: from the environment (`OIDC_*`), read by
//! the server's configuration.

use secrecy::SecretString;

/// The scopes asked for when `OIDC_SCOPES` is not set.
pub const DEFAULT_SCOPES: &str = "openid email profile groups";
/// The claim holding the person's groups when `OIDC_GROUPS_CLAIM` is not set.
pub const DEFAULT_GROUPS_CLAIM: &str = "groups";
/// The sign-in page's button when `OIDC_BUTTON_LABEL` is not set.
pub const DEFAULT_BUTTON_LABEL: &str = "Sign in with single sign-on";

/// Single sign-on's settings. Its `Debug` says whether the client secret is
/// set, never the secret.
#[derive(Clone)]
pub struct SsoSettings {
    /// `OIDC_ISSUER_URL`, exactly as set (the provider's discovery document
    /// must name the same issuer, trailing slash and all): discovery reads
    /// `/.well-known/openid-configuration` under it.
    pub issuer: Option<String>,
    /// `OIDC_CLIENT_ID`.
    pub client_id: Option<String>,
    /// `OIDC_CLIENT_SECRET`, or the contents of `OIDC_CLIENT_SECRET_FILE`.
    pub client_secret: Option<SecretString>,
    /// `OIDC_SCOPES`, `openid` always among them.
    pub scopes: Vec<String>,
    /// `OIDC_GROUPS_CLAIM`.
    pub groups_claim: String,
    /// `OIDC_ADMIN_GROUP`: its members are administrators; unset, nobody
    /// becomes one through the provider.
    pub admin_group: Option<String>,
    /// `OIDC_AUTO_PROVISION`: an unknown identity gets a new account.
    pub auto_provision: bool,
    /// `OIDC_LINK_BY_EMAIL`: an unknown identity with a verified email that
    /// matches an account is linked to it.
    pub link_by_email: bool,
    /// `OIDC_BUTTON_LABEL`.
    pub button_label: String,
    /// Whether email and password sign in (always, until
    /// `LOCAL_LOGIN_ENABLED` arrives with its safeguards).
    pub local_login_enabled: bool,
    /// `OIDC_ALLOW_HTTP`: a provider at `http://` (tests only).
    pub allow_http: bool,
}

impl Default for SsoSettings {
    fn default() -> Self {
        Self {
            issuer: None,
            client_id: None,
            client_secret: None,
            scopes: scopes(DEFAULT_SCOPES),
            groups_claim: DEFAULT_GROUPS_CLAIM.into(),
            admin_group: None,
            auto_provision: false,
            link_by_email: false,
            button_label: DEFAULT_BUTTON_LABEL.into(),
            local_login_enabled: true,
            allow_http: false,
        }
    }
}

impl std::fmt::Debug for SsoSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SsoSettings")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "set"))
            .field("scopes", &self.scopes)
            .field("groups_claim", &self.groups_claim)
            .field("admin_group", &self.admin_group)
            .field("auto_provision", &self.auto_provision)
            .field("link_by_email", &self.link_by_email)
            .field("button_label", &self.button_label)
            .field("local_login_enabled", &self.local_login_enabled)
            .field("allow_http", &self.allow_http)
            .finish()
    }
}

impl SsoSettings {
    /// On when the issuer, the client id and its secret are all set.
    pub fn is_on(&self) -> bool {
        self.issuer.is_some() && self.client_id.is_some() && self.client_secret.is_some()
    }
}

/// The scopes of a space-separated list, `openid` first and each once.
pub fn scopes(text: &str) -> Vec<String> {
    let mut scopes = vec!["openid".to_owned()];
    for scope in text.split_whitespace() {
        if !scopes.iter().any(|known| known == scope) {
            scopes.push(scope.to_owned());
        }
    }
    scopes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openid_is_always_asked_for_once() {
        assert_eq!(scopes("email  profile"), ["openid", "email", "profile"]);
        assert_eq!(scopes("email openid email"), ["openid", "email"]);
        assert_eq!(scopes(""), ["openid"]);
    }

    #[test]
    fn on_only_with_issuer_client_and_secret() {
        let mut settings = SsoSettings::default();
        assert!(!settings.is_on());
        settings.issuer = Some("https://id.example.com".into());
        settings.client_id = Some("tally".into());
        assert!(!settings.is_on());
        settings.client_secret = Some(SecretString::from("s3cret"));
        assert!(settings.is_on());
    }
}
