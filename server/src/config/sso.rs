//! The single sign-on section: `OIDC_*`, as the app's own `SsoSettings`. Setting both `OIDC_CLIENT_SECRET` and
//! `OIDC_CLIENT_SECRET_FILE` stops start-up: which one wins would be a
//! guess.

use reqwest::Url;
use secrecy::SecretString;

use app::ssr::sso::settings::{self as sso, SsoSettings};

use super::env::{parse_bool, parse_path, Env};
use super::ConfigError;

pub(super) fn sso<F>(env: &Env<F>) -> Result<SsoSettings, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    let defaults = SsoSettings::default();
    let issuer = env.parse_or("OIDC_ISSUER_URL", None, |raw| {
        let url = Url::parse(raw).map_err(|error| format!("not a URL: {error}"))?;
        if !matches!(url.scheme(), "https" | "http") || url.host_str().is_none() {
            return Err("expected the provider's https address, e.g. https://auth.example.com/application/o/tally/".into());
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err("the issuer has no query or fragment".into());
        }
        Ok(Some(raw.to_owned()))
    })?;
    let allow_http = env.parse_or("OIDC_ALLOW_HTTP", false, parse_bool)?;
    if let Some(issuer) = &issuer {
        if issuer.starts_with("http://") && !allow_http {
            return Err(ConfigError::new(
                "OIDC_ISSUER_URL",
                "plain http is refused; use the provider's https address (OIDC_ALLOW_HTTP=true is for tests)",
            ));
        }
    }
    let client_id = env.parse_or("OIDC_CLIENT_ID", None, |raw| {
        if raw.len() > 255 || raw.chars().any(char::is_control) {
            Err("expected the client id the provider gave Tally".into())
        } else {
            Ok(Some(raw.to_owned()))
        }
    })?;
    let inline = env.secret("OIDC_CLIENT_SECRET", |_| Ok(()))?;
    let file = env.parse_or("OIDC_CLIENT_SECRET_FILE", None, |raw| {
        parse_path(raw).map(Some)
    })?;
    let client_secret = match (inline, file) {
        (Some(_), Some(_)) => {
            return Err(ConfigError::new(
                "OIDC_CLIENT_SECRET_FILE",
                "set OIDC_CLIENT_SECRET or OIDC_CLIENT_SECRET_FILE, not both",
            ))
        }
        (Some(secret), None) => Some(secret),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(&path).map_err(|error| {
                ConfigError::new(
                    "OIDC_CLIENT_SECRET_FILE",
                    format!("{} cannot be read: {error}", path.display()),
                )
            })?;
            let secret = text.trim_end_matches(['\r', '\n']).to_owned();
            if secret.is_empty() {
                return Err(ConfigError::new(
                    "OIDC_CLIENT_SECRET_FILE",
                    "the file is empty",
                ));
            }
            Some(SecretString::from(secret))
        }
        (None, None) => None,
    };
    let scopes = env.parse_or("OIDC_SCOPES", defaults.scopes.clone(), |raw| {
        Ok(sso::scopes(raw))
    })?;
    let word = |variable: &'static str, default: String| {
        env.parse_or(variable, default, |raw| {
            if raw.len() > 200 || raw.chars().any(char::is_control) {
                Err("at most 200 characters, on one line".into())
            } else {
                Ok(raw.to_owned())
            }
        })
    };
    let groups_claim = word("OIDC_GROUPS_CLAIM", defaults.groups_claim.clone())?;
    let admin_group = word("OIDC_ADMIN_GROUP", String::new())?;
    let button_label = word("OIDC_BUTTON_LABEL", defaults.button_label.clone())?;
    Ok(SsoSettings {
        issuer,
        client_id,
        client_secret,
        scopes,
        groups_claim,
        admin_group: (!admin_group.is_empty()).then_some(admin_group),
        auto_provision: env.parse_or("OIDC_AUTO_PROVISION", false, parse_bool)?,
        link_by_email: env.parse_or("OIDC_LINK_BY_EMAIL", false, parse_bool)?,
        button_label,
        // `LOCAL_LOGIN_ENABLED` comes with its safeguards (issue 31, next
        // step); until then email and password always sign in.
        local_login_enabled: true,
        allow_http,
    })
}
