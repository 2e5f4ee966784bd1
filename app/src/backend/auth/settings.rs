//! The accounts section of the settings: the first administrator, the CSRF
//! cookie's flag and where sign-ins are located from.

use secrecy::SecretString;

#[derive(Clone, Debug)]
pub struct AccountSettings {
    /// The first admin, created on an empty database (`BOOTSTRAP_ADMIN_EMAIL`).
    pub bootstrap_admin_email: Option<String>,
    /// Their password (`BOOTSTRAP_ADMIN_PASSWORD`); `SecretString` keeps it
    /// out of `Debug`.
    pub bootstrap_admin_password: Option<SecretString>,
    /// Whether the CSRF cookie is HttpOnly (`CSRF_HTTP_ONLY`, default true).
    pub csrf_http_only: bool,
    /// The IP geolocation service, a URL with `{ip}` (`GEOLOCATION_URL`);
    /// unset means no lookups for anyone.
    pub geolocation_url: Option<String>,
}
