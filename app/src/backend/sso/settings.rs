//! How single sign-on and local sign-in are set up. Two layers: the
//! environment (`OIDC_*`, `LOCAL_LOGIN_ENABLED`), read by the server's
//! configuration, and Admin → Authentication (the `oidc_settings` row),
//! which decides only where the environment is silent. What is set in
//! neither takes its default.

use secrecy::SecretString;

/// The scopes asked for when `OIDC_SCOPES` is not set.
pub const DEFAULT_SCOPES: &str = "openid email profile groups";
/// The claim holding the person's groups when `OIDC_GROUPS_CLAIM` is not set.
pub const DEFAULT_GROUPS_CLAIM: &str = "groups";
/// The sign-in page's button when `OIDC_BUTTON_LABEL` is not set.
pub const DEFAULT_BUTTON_LABEL: &str = "Sign in with single sign-on";

/// One layer of settings: each field set there or not. Its `Debug` says
/// whether the client secret is set, never the secret.
#[derive(Clone, Default)]
pub struct SsoLayer {
    /// `OIDC_ISSUER_URL`, exactly as set (the provider's discovery document
    /// must name the same issuer, trailing slash and all).
    pub issuer: Option<String>,
    /// `OIDC_CLIENT_ID`.
    pub client_id: Option<String>,
    /// `OIDC_CLIENT_SECRET`, or the contents of `OIDC_CLIENT_SECRET_FILE`.
    pub client_secret: Option<SecretString>,
    /// `OIDC_SCOPES`, `openid` always among them.
    pub scopes: Option<Vec<String>>,
    /// `OIDC_GROUPS_CLAIM`.
    pub groups_claim: Option<String>,
    /// `OIDC_ADMIN_GROUP`.
    pub admin_group: Option<String>,
    /// `OIDC_AUTO_PROVISION`.
    pub auto_provision: Option<bool>,
    /// `OIDC_LINK_BY_EMAIL`.
    pub link_by_email: Option<bool>,
    /// `OIDC_BUTTON_LABEL`.
    pub button_label: Option<String>,
    /// `LOCAL_LOGIN_ENABLED`.
    pub local_login_enabled: Option<bool>,
}

impl std::fmt::Debug for SsoLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SsoLayer")
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
            .finish()
    }
}

/// The fields of a layer by their names in `/api/admin/authentication`.
pub const FIELDS: &[&str] = &[
    "issuerUrl",
    "clientId",
    "clientSecret",
    "scopes",
    "groupsClaim",
    "adminGroup",
    "autoProvision",
    "linkByEmail",
    "buttonLabel",
    "localLoginEnabled",
];

impl SsoLayer {
    /// Whether the field named `field` (see [`FIELDS`]) is set here.
    pub fn sets(&self, field: &str) -> bool {
        match field {
            "issuerUrl" => self.issuer.is_some(),
            "clientId" => self.client_id.is_some(),
            "clientSecret" => self.client_secret.is_some(),
            "scopes" => self.scopes.is_some(),
            "groupsClaim" => self.groups_claim.is_some(),
            "adminGroup" => self.admin_group.is_some(),
            "autoProvision" => self.auto_provision.is_some(),
            "linkByEmail" => self.link_by_email.is_some(),
            "buttonLabel" => self.button_label.is_some(),
            "localLoginEnabled" => self.local_login_enabled.is_some(),
            _ => false,
        }
    }

    /// The names of the fields set here, in [`FIELDS`]' order.
    pub fn set_fields(&self) -> Vec<String> {
        FIELDS
            .iter()
            .filter(|field| self.sets(field))
            .map(|field| (*field).to_owned())
            .collect()
    }

    /// This layer where it is set, `below` elsewhere.
    pub fn over(&self, below: &SsoLayer) -> SsoLayer {
        SsoLayer {
            issuer: self.issuer.clone().or_else(|| below.issuer.clone()),
            client_id: self.client_id.clone().or_else(|| below.client_id.clone()),
            client_secret: self
                .client_secret
                .clone()
                .or_else(|| below.client_secret.clone()),
            scopes: self.scopes.clone().or_else(|| below.scopes.clone()),
            groups_claim: self
                .groups_claim
                .clone()
                .or_else(|| below.groups_claim.clone()),
            admin_group: self
                .admin_group
                .clone()
                .or_else(|| below.admin_group.clone()),
            auto_provision: self.auto_provision.or(below.auto_provision),
            link_by_email: self.link_by_email.or(below.link_by_email),
            button_label: self
                .button_label
                .clone()
                .or_else(|| below.button_label.clone()),
            local_login_enabled: self.local_login_enabled.or(below.local_login_enabled),
        }
    }
}

/// What the environment says: its layer, and `OIDC_ALLOW_HTTP` (which
/// only the environment sets).
#[derive(Clone, Debug, Default)]
pub struct SsoEnvironment {
    pub layer: SsoLayer,
    /// `OIDC_ALLOW_HTTP`: a provider at `http://` (tests only).
    pub allow_http: bool,
}

/// The settings in force: the layers resolved, defaults filled in. Its
/// `Debug` says whether the client secret is set, never the secret.
#[derive(Clone)]
pub struct SsoSettings {
    pub issuer: Option<String>,
    pub client_id: Option<String>,
    pub client_secret: Option<SecretString>,
    pub scopes: Vec<String>,
    pub groups_claim: String,
    /// Its members are administrators; unset, nobody becomes one through
    /// the provider.
    pub admin_group: Option<String>,
    pub auto_provision: bool,
    pub link_by_email: bool,
    pub button_label: String,
    /// Whether email and password sign in.
    pub local_login_enabled: bool,
    pub allow_http: bool,
}

impl Default for SsoSettings {
    fn default() -> Self {
        Self::resolve(&SsoLayer::default(), false, false)
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
    /// The settings of `layer` (the environment over Admin's), defaults
    /// filled in. `break_glass` (`tally auth local-login on`) turns local
    /// sign-in on whatever the layers say; so does single sign-on being off,
    /// so that one way in always stays open.
    pub fn resolve(layer: &SsoLayer, allow_http: bool, break_glass: bool) -> Self {
        let mut settings = Self {
            issuer: layer.issuer.clone(),
            client_id: layer.client_id.clone(),
            client_secret: layer.client_secret.clone(),
            scopes: layer
                .scopes
                .clone()
                .unwrap_or_else(|| scopes(DEFAULT_SCOPES)),
            groups_claim: layer
                .groups_claim
                .clone()
                .unwrap_or_else(|| DEFAULT_GROUPS_CLAIM.into()),
            admin_group: layer.admin_group.clone(),
            auto_provision: layer.auto_provision.unwrap_or(false),
            link_by_email: layer.link_by_email.unwrap_or(false),
            button_label: layer
                .button_label
                .clone()
                .unwrap_or_else(|| DEFAULT_BUTTON_LABEL.into()),
            local_login_enabled: true,
            allow_http,
        };
        settings.local_login_enabled =
            break_glass || layer.local_login_enabled.unwrap_or(true) || !settings.is_on();
        settings
    }

    /// On when the issuer, the client id and its secret are all set.
    pub fn is_on(&self) -> bool {
        self.issuer.is_some() && self.client_id.is_some() && self.client_secret.is_some()
    }

    /// Which of the three that switch single sign-on on are missing, by
    /// their API names.
    pub fn missing_for_on(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        if self.issuer.is_none() {
            missing.push("issuerUrl");
        }
        if self.client_id.is_none() {
            missing.push("clientId");
        }
        if self.client_secret.is_none() {
            missing.push("clientSecret");
        }
        missing
    }
}

/// Checks an issuer URL: `https://` (or `http://` with `allow_http`), a
/// host, no query or fragment; kept exactly as given.
pub fn check_issuer(raw: &str, allow_http: bool) -> Result<String, String> {
    let url = reqwest::Url::parse(raw).map_err(|error| format!("not a URL: {error}"))?;
    if !matches!(url.scheme(), "https" | "http") || url.host_str().is_none() {
        return Err("expected the provider's https address, e.g. https://auth.example.com/application/o/tally/".into());
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("the issuer has no query or fragment".into());
    }
    if url.scheme() == "http" && !allow_http {
        return Err("plain http is refused; use the provider's https address (OIDC_ALLOW_HTTP=true is for tests)".into());
    }
    Ok(raw.to_owned())
}

/// Checks a one-line text setting of at most `max` characters.
pub fn check_line(raw: &str, max: usize) -> Result<String, String> {
    if raw.chars().count() > max || raw.chars().any(char::is_control) {
        Err(format!("at most {max} characters, on one line"))
    } else {
        Ok(raw.to_owned())
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

    fn on() -> SsoLayer {
        SsoLayer {
            issuer: Some("https://id.example.com".into()),
            client_id: Some("tally".into()),
            client_secret: Some(SecretString::from("s3cret")),
            ..SsoLayer::default()
        }
    }

    #[test]
    fn on_only_with_issuer_client_and_secret() {
        let mut layer = SsoLayer::default();
        assert!(!SsoSettings::resolve(&layer, false, false).is_on());
        layer.issuer = Some("https://id.example.com".into());
        layer.client_id = Some("tally".into());
        let settings = SsoSettings::resolve(&layer, false, false);
        assert!(!settings.is_on());
        assert_eq!(settings.missing_for_on(), ["clientSecret"]);
        assert!(SsoSettings::resolve(&on(), false, false).is_on());
    }

    #[test]
    fn the_environment_wins_where_it_is_set() {
        let environment = SsoLayer {
            button_label: Some("Authentik".into()),
            ..SsoLayer::default()
        };
        let admin = SsoLayer {
            button_label: Some("Admin's".into()),
            auto_provision: Some(true),
            ..on()
        };
        let merged = environment.over(&admin);
        assert_eq!(merged.button_label.as_deref(), Some("Authentik"));
        assert_eq!(merged.auto_provision, Some(true));
        assert_eq!(environment.set_fields(), ["buttonLabel"]);
        assert_eq!(
            admin.set_fields(),
            [
                "issuerUrl",
                "clientId",
                "clientSecret",
                "autoProvision",
                "buttonLabel"
            ]
        );
    }

    #[test]
    fn one_way_in_always_stays_open() {
        let off = SsoLayer {
            local_login_enabled: Some(false),
            ..SsoLayer::default()
        };
        // Local sign-in off without single sign-on: on all the same.
        assert!(SsoSettings::resolve(&off, false, false).local_login_enabled);
        let sso_only = SsoLayer {
            local_login_enabled: Some(false),
            ..on()
        };
        assert!(!SsoSettings::resolve(&sso_only, false, false).local_login_enabled);
        // The break-glass wins.
        assert!(SsoSettings::resolve(&sso_only, false, true).local_login_enabled);
    }

    #[test]
    fn debug_never_shows_the_secret() {
        let shown = format!("{:?} {:?}", on(), SsoSettings::resolve(&on(), false, false));
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(shown.contains("set"), "{shown}");
    }
}
