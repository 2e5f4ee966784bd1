//! The single sign-on section: `OIDC_*` and `LOCAL_LOGIN_ENABLED`, as the
//! app's `SsoEnvironment`: each variable set or not (Admin →
//! Authentication decides where the environment is silent). Setting both
//! `OIDC_CLIENT_SECRET` and `OIDC_CLIENT_SECRET_FILE` stops start-up: which
//! one wins would be a guess.

use secrecy::SecretString;

use app::backend::sso::settings::{self as sso, SsoEnvironment, SsoLayer};

use super::env::{parse_bool, parse_path, Env};
use super::ConfigError;

pub(super) fn sso<F>(env: &Env<F>) -> Result<SsoEnvironment, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    let allow_http = env.parse_or("OIDC_ALLOW_HTTP", false, parse_bool)?;
    let issuer = env.parse_or("OIDC_ISSUER_URL", None, |raw| {
        sso::check_issuer(raw, allow_http).map(Some)
    })?;
    let client_id = env.parse_or("OIDC_CLIENT_ID", None, |raw| {
        sso::check_line(raw, 255).map(Some)
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
    let scopes = env.parse_or("OIDC_SCOPES", None, |raw| Ok(Some(sso::scopes(raw))))?;
    let word = |variable: &'static str| {
        env.parse_or(variable, None, |raw| sso::check_line(raw, 200).map(Some))
    };
    let flag =
        |variable: &'static str| env.parse_or(variable, None, |raw| parse_bool(raw).map(Some));
    Ok(SsoEnvironment {
        layer: SsoLayer {
            issuer,
            client_id,
            client_secret,
            scopes,
            groups_claim: word("OIDC_GROUPS_CLAIM")?,
            admin_group: word("OIDC_ADMIN_GROUP")?,
            auto_provision: flag("OIDC_AUTO_PROVISION")?,
            link_by_email: flag("OIDC_LINK_BY_EMAIL")?,
            button_label: word("OIDC_BUTTON_LABEL")?,
            local_login_enabled: flag("LOCAL_LOGIN_ENABLED")?,
        },
        allow_http,
    })
}
