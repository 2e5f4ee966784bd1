//! The accounts section: the first administrator, the CSRF cookie's flag
//! and the geolocation service, as the app's own `AccountSettings`.

use app::backend::auth::settings::AccountSettings;

use super::env::{parse_bool, Env};
use super::ConfigError;

pub(super) fn accounts<F>(env: &Env<F>) -> Result<AccountSettings, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    Ok(AccountSettings {
        bootstrap_admin_email: env.parse_or("BOOTSTRAP_ADMIN_EMAIL", None, |raw| {
            app::backend::auth::users::check_email(raw)
                .map(Some)
                .map_err(|_| "expected an email address like admin@example.com".to_owned())
        })?,
        csrf_http_only: env.parse_or("CSRF_HTTP_ONLY", true, parse_bool)?,
        geolocation_url: env.parse_or("GEOLOCATION_URL", None, |raw| {
            if (raw.starts_with("https://") || raw.starts_with("http://")) && raw.contains("{ip}") {
                Ok(Some(raw.to_owned()))
            } else {
                Err(
                    "expected an http(s) URL containing {ip}, e.g. https://ipapi.co/{ip}/json/"
                        .to_owned(),
                )
            }
        })?,
        bootstrap_admin_password: env.secret("BOOTSTRAP_ADMIN_PASSWORD", |raw| {
            app::domain::password_policy::check(raw, "").map_err(|problem| problem.to_string())
        })?,
    })
}
