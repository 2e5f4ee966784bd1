//! Settings, parsed once at start-up from the environment (and an optional
//! `.env`). Every invalid value stops start-up with an error that names the
//! variable and says what is wrong.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use secrecy::SecretString;

/// Everything the server reads from its environment.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Address the HTTP server listens on (`LEPTOS_SITE_ADDR`).
    pub listen_addr: SocketAddr,
    /// Where the compiled site (`pkg/`, assets) lives (`LEPTOS_SITE_ROOT`).
    pub site_root: PathBuf,
    /// Whether asset names carry content hashes (`LEPTOS_HASH_FILES`); when
    /// unset, true exactly when cargo-leptos left a hash file beside the binary.
    pub hash_files: bool,
    /// Root of persistent data: the database and backups (`DATA_DIR`).
    pub data_dir: PathBuf,
    /// Directory of the JSON log files (`LOG_DIR`).
    pub log_dir: PathBuf,
    /// How long in-flight requests may run after a shutdown signal.
    pub shutdown_grace: Duration,
    /// Longest a request may take before it is answered 504
    /// (`REQUEST_TIMEOUT_SECONDS`; the spec's 30 s by default).
    pub request_timeout: Duration,
    /// Enables the diagnostics routes used by tests and operators.
    pub diagnostics: bool,
    /// Apply pending migrations at `serve` (`RUN_DB_MIGRATIONS`).
    pub run_db_migrations: bool,
    /// `TOKEN_ENCRYPTION_KEY`: when set, secrets are sealed with it (already
    /// checked to be a well-formed 256-bit key).
    pub token_encryption_key: Option<SecretString>,
    /// How many backups to keep (`BACKUP_KEEP`).
    pub backup_keep: usize,
    /// How long finished operations stay readable
    /// (`OPERATIONS_RETENTION_DAYS`, default 30).
    pub operations_retention: Duration,
    /// A restore check fails below this many rows (`RESTORE_MIN_ROWS`).
    pub restore_min_rows: i64,
    /// The address people use to reach Tally (`PUBLIC_BASE_URL`); cookies
    /// are `Secure` when it is https.
    pub public_base_url: String,
    /// Whether the CSRF cookie is HttpOnly (`CSRF_HTTP_ONLY`, default true).
    pub csrf_http_only: bool,
    /// The first admin, created on an empty database (`BOOTSTRAP_ADMIN_EMAIL`).
    pub bootstrap_admin_email: Option<String>,
    /// Their password (`BOOTSTRAP_ADMIN_PASSWORD`).
    pub bootstrap_admin_password: Option<SecretString>,
    /// The WebAuthn relying party id (`WEBAUTHN_RP_ID`, default `localhost`).
    pub webauthn_rp_id: String,
    /// The origin security keys are used from (`WEBAUTHN_ORIGIN`).
    pub webauthn_origin: WebauthnOrigin,
    /// Sign-in attempts per client IP per minute
    /// (`SIGN_IN_ATTEMPTS_PER_MINUTE`, default 10).
    pub sign_in_attempts_per_minute: std::num::NonZeroU32,
    /// Sign-in attempts one account may make at once before it is slowed
    /// to one every three minutes (`SIGN_IN_ACCOUNT_BURST`, default 10).
    pub sign_in_account_burst: std::num::NonZeroU32,
    /// Public form submissions per client IP per minute, leads and support
    /// together (`RATE_LIMIT_PER_MINUTE`, default 5).
    pub rate_limit_per_minute: std::num::NonZeroU32,
    /// Proxies whose `X-Forwarded-For`/`-Proto` are believed (`TRUSTED_PROXIES`).
    pub trusted_proxies: crate::client_ip::TrustedProxies,
    /// The second public address serving the same site (`PUBLIC_ALT_BASE_URL`).
    pub public_alt_base_url: Option<String>,
    /// The one origin granted cross-origin access to the public API
    /// (`CORS_ORIGIN`).
    pub cors_origin: Option<String>,
    /// The bot check (`CAPTCHA_SITEVERIFY_URL`, `CAPTCHA_SECRET`,
    /// `CAPTCHA_SITE_KEY`); off when unset.
    pub captcha: Option<CaptchaSettings>,
    /// The CRM (`CRM_*`); off when `CRM_LEAD_URL` is unset.
    pub crm: Option<CrmSettings>,
    /// How the CRM outbox retries and pauses.
    pub crm_outbox: CrmOutboxSettings,
    /// The IP geolocation service, a URL with `{ip}` (`GEOLOCATION_URL`);
    /// unset means no lookups for anyone.
    pub geolocation_url: Option<String>,
}

/// The bot-check provider. Holds a secret: no `Debug`.
#[derive(Clone)]
pub struct CaptchaSettings {
    pub siteverify_url: String,
    pub secret: SecretString,
    pub site_key: String,
    /// The widget script the forms load (`CAPTCHA_SCRIPT_URL`).
    pub script_url: String,
    /// What the pages' Content-Security-Policy allows for the widget
    /// (`CAPTCHA_CSP_SOURCES`; the script's origin by default).
    pub csp_sources: Vec<String>,
}

/// Cloudflare Turnstile's script, in explicit-render mode.
pub const DEFAULT_CAPTCHA_SCRIPT_URL: &str =
    "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

/// The CRM. Holds the org id: no `Debug`.
#[derive(Clone)]
pub struct CrmSettings {
    pub lead_url: String,
    pub case_url: Option<String>,
    pub org_id: SecretString,
    pub cases_enabled: bool,
    pub exhausted_statuses: Vec<u16>,
    pub exhausted_marker: Option<String>,
}

impl std::fmt::Debug for CaptchaSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaptchaSettings")
            .field("siteverify_url", &self.siteverify_url)
            .field("site_key", &self.site_key)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for CrmSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrmSettings")
            .field("lead_url", &self.lead_url)
            .field("case_url", &self.case_url)
            .field("cases_enabled", &self.cases_enabled)
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrmOutboxSettings {
    pub cooldown: Duration,
    pub max_attempts: i64,
    pub retry_base: Duration,
}

/// Where the browser runs security-key ceremonies. `WEBAUTHN_ORIGIN` is a
/// full origin (`https://tally.example.com`), or a bare host: `localhost`
/// (the default) means `http://localhost` on any port, any other host means
/// `https://` that host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebauthnOrigin {
    pub url: String,
    pub any_port: bool,
}

/// A configuration fault: which variable, what it held, and what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("{variable} is invalid: {problem}")]
pub struct ConfigError {
    pub variable: &'static str,
    pub problem: String,
}

impl ConfigError {
    fn new(variable: &'static str, problem: impl Into<String>) -> Self {
        Self {
            variable,
            problem: problem.into(),
        }
    }
}

/// Name of the file cargo-leptos writes beside the server binary when it
/// builds with `hash-files = true`.
pub const HASH_FILE_NAME: &str = "hash.txt";

impl Settings {
    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var_os(name).map(|value| value.into_string()))
    }

    /// Reads settings through `lookup`, which answers `None` for an unset
    /// variable and `Some(Err(_))` for one that is not valid UTF-8.
    pub fn from_lookup<F>(lookup: F) -> Result<Self, ConfigError>
    where
        F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
    {
        let env = Env(lookup);
        let data_dir: PathBuf = env.parse_or("DATA_DIR", PathBuf::from("data"), parse_path)?;
        Ok(Self {
            listen_addr: env.parse_or(
                "LEPTOS_SITE_ADDR",
                SocketAddr::from(([127, 0, 0, 1], 3001)),
                |raw| {
                    raw.parse()
                        .map_err(|_| "expected host:port, for example 0.0.0.0:3001".to_owned())
                },
            )?,
            site_root: env.parse_or(
                "LEPTOS_SITE_ROOT",
                PathBuf::from("target/site"),
                parse_path,
            )?,
            hash_files: env.parse_or("LEPTOS_HASH_FILES", hash_file_beside_binary(), parse_bool)?,
            log_dir: env.parse_or("LOG_DIR", PathBuf::from("logs"), parse_path)?,
            data_dir,
            request_timeout: env.parse_or(
                "REQUEST_TIMEOUT_SECONDS",
                Duration::from_secs(30),
                |raw| parse_seconds(raw, 1, 300),
            )?,
            shutdown_grace: env.parse_or(
                "SHUTDOWN_GRACE_SECONDS",
                Duration::from_secs(10),
                |raw| match raw.parse::<u64>() {
                    Ok(seconds) if (1..=600).contains(&seconds) => Ok(Duration::from_secs(seconds)),
                    _ => Err("expected a whole number of seconds from 1 to 600".to_owned()),
                },
            )?,
            diagnostics: env.parse_or("TALLY_DIAGNOSTICS", false, parse_bool)?,
            run_db_migrations: env.parse_or("RUN_DB_MIGRATIONS", true, parse_bool)?,
            token_encryption_key: env.secret("TOKEN_ENCRYPTION_KEY", |raw| {
                app::ssr::secrets::Key::parse(raw)
                    .map(|_| ())
                    .map_err(|error| {
                        format!("{error}; generate one with `openssl rand -base64 32`")
                    })
            })?,
            operations_retention: env.parse_or(
                "OPERATIONS_RETENTION_DAYS",
                Duration::from_secs(30 * 86_400),
                |raw| match raw.parse::<u64>() {
                    Ok(days) if (1..=3650).contains(&days) => Ok(Duration::from_secs(days * 86_400)),
                    _ => Err("expected a whole number of days from 1 to 3650".to_owned()),
                },
            )?,
            restore_min_rows: env.parse_or("RESTORE_MIN_ROWS", 0, |raw| match raw.parse::<i64>() {
                Ok(rows) if rows >= 0 => Ok(rows),
                _ => Err("expected a whole number of rows, 0 or more".to_owned()),
            })?,
            backup_keep: env.parse_or("BACKUP_KEEP", 7, |raw| match raw.parse::<usize>() {
                Ok(keep) if (1..=1000).contains(&keep) => Ok(keep),
                _ => Err("expected a whole number from 1 to 1000".to_owned()),
            })?,
            public_base_url: env.parse_or(
                "PUBLIC_BASE_URL",
                "http://localhost:3001".to_owned(),
                parse_base_url,
            )?,
            csrf_http_only: env.parse_or("CSRF_HTTP_ONLY", true, parse_bool)?,
            bootstrap_admin_email: env.parse_or("BOOTSTRAP_ADMIN_EMAIL", None, |raw| {
                app::ssr::auth::users::check_email(raw)
                    .map(Some)
                    .map_err(|_| "expected an email address like admin@example.com".to_owned())
            })?,
            webauthn_rp_id: env.parse_or("WEBAUTHN_RP_ID", "localhost".to_owned(), parse_host)?,
            webauthn_origin: env.parse_or(
                "WEBAUTHN_ORIGIN",
                WebauthnOrigin {
                    url: "http://localhost".to_owned(),
                    any_port: true,
                },
                parse_webauthn_origin,
            )?,
            sign_in_attempts_per_minute: env.parse_or(
                "SIGN_IN_ATTEMPTS_PER_MINUTE",
                app::ssr::auth::throttle::PER_IP_PER_MINUTE,
                parse_per_minute,
            )?,
            sign_in_account_burst: env.parse_or(
                "SIGN_IN_ACCOUNT_BURST",
                app::ssr::auth::throttle::PER_ACCOUNT_BURST,
                parse_per_minute,
            )?,
            rate_limit_per_minute: env.parse_or(
                "RATE_LIMIT_PER_MINUTE",
                std::num::NonZeroU32::MIN.saturating_add(4),
                parse_per_minute,
            )?,
            trusted_proxies: env.parse_or(
                "TRUSTED_PROXIES",
                crate::client_ip::TrustedProxies::default(),
                crate::client_ip::TrustedProxies::parse,
            )?,
            public_alt_base_url: env.parse_or("PUBLIC_ALT_BASE_URL", None, |raw| {
                parse_base_url(raw).map(Some)
            })?,
            cors_origin: env.parse_or("CORS_ORIGIN", None, |raw| {
                parse_base_url(raw).map(Some).map_err(|problem| {
                    format!("{problem}; CORS_ORIGIN is an origin such as https://tally.example.com (no trailing slash, no path)")
                })
            })?,
            captcha: captcha_settings(&env)?,
            crm: crm_settings(&env)?,
            crm_outbox: CrmOutboxSettings {
                cooldown: env.parse_or("CRM_COOLDOWN_SECONDS", Duration::from_secs(900), |raw| {
                    parse_seconds(raw, 1, 86_400)
                })?,
                max_attempts: env.parse_or("CRM_MAX_ATTEMPTS", 8, |raw| match raw.parse::<i64>() {
                    Ok(n) if (1..=100).contains(&n) => Ok(n),
                    _ => Err("expected a whole number from 1 to 100".to_owned()),
                })?,
                retry_base: env.parse_or("CRM_RETRY_BASE_SECONDS", Duration::from_secs(30), |raw| {
                    parse_seconds(raw, 1, 3600)
                })?,
            },
            geolocation_url: env.parse_or("GEOLOCATION_URL", None, |raw| {
                if (raw.starts_with("https://") || raw.starts_with("http://"))
                    && raw.contains("{ip}")
                {
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

    /// Why security keys would not work for people who open
    /// `PUBLIC_BASE_URL`, if they would not: the browser refuses a ceremony
    /// whose origin or RP id does not match the page.
    pub fn webauthn_mismatch(&self) -> Option<String> {
        let (scheme, host, port) = origin_parts(&self.public_base_url)?;
        let (o_scheme, o_host, o_port) = origin_parts(&self.webauthn_origin.url)?;
        let same_origin = scheme == o_scheme
            && host.eq_ignore_ascii_case(o_host)
            && (self.webauthn_origin.any_port || port == o_port);
        let rp = &self.webauthn_rp_id;
        let host = host.to_ascii_lowercase();
        let rp_fits = host == *rp || host.ends_with(&format!(".{rp}"));
        if same_origin && rp_fits {
            return None;
        }
        Some(format!(
            "security keys will not work at PUBLIC_BASE_URL {}: WEBAUTHN_ORIGIN is {} and WEBAUTHN_RP_ID is {rp}; set WEBAUTHN_ORIGIN to the public URL and WEBAUTHN_RP_ID to its host",
            self.public_base_url, self.webauthn_origin.url
        ))
    }

    /// The one-time link for an invitation token: the register page.
    pub fn invitation_link(&self, token: &str) -> String {
        format!("{}/register?invitation={token}", self.public_base_url)
    }

    /// Whether cookies must be `Secure` (the public URL is https).
    pub fn secure_cookies(&self) -> bool {
        self.public_base_url.starts_with("https://")
    }

    /// The SQLite database file: `DATA_DIR/db/bills.db`.
    pub fn database_path(&self) -> PathBuf {
        self.data_dir.join("db").join("bills.db")
    }

    /// The directory where backups are written: `DATA_DIR/backups`.
    pub fn backups_dir(&self) -> PathBuf {
        self.data_dir.join("backups")
    }
}

struct Env<F>(F);

impl<F> Env<F>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    /// The variable parsed by `parse`, or `default` when it is unset or empty.
    fn parse_or<T>(
        &self,
        variable: &'static str,
        default: T,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<T, ConfigError> {
        match (self.0)(variable) {
            None => Ok(default),
            Some(Err(_)) => Err(ConfigError::new(variable, "the value is not valid UTF-8")),
            Some(Ok(raw)) if raw.trim().is_empty() => Ok(default),
            Some(Ok(raw)) => parse(raw.trim())
                .map_err(|problem| ConfigError::new(variable, format!("{raw:?}: {problem}"))),
        }
    }
}

impl<F> Env<F>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    /// A secret: checked by `check`, never echoed in an error message.
    fn secret(
        &self,
        variable: &'static str,
        check: impl Fn(&str) -> Result<(), String>,
    ) -> Result<Option<SecretString>, ConfigError> {
        match (self.0)(variable) {
            None => Ok(None),
            Some(Err(_)) => Err(ConfigError::new(variable, "the value is not valid UTF-8")),
            Some(Ok(raw)) if raw.trim().is_empty() => Ok(None),
            Some(Ok(raw)) => {
                check(raw.trim()).map_err(|problem| ConfigError::new(variable, problem))?;
                Ok(Some(SecretString::from(raw.trim().to_owned())))
            }
        }
    }
}

/// An origin-style base URL: http(s)://host[:port], no trailing slash.
fn parse_base_url(raw: &str) -> Result<String, String> {
    let rest = raw
        .strip_prefix("https://")
        .or_else(|| raw.strip_prefix("http://"))
        .ok_or_else(|| "expected a URL starting with http:// or https://".to_owned())?;
    if rest.is_empty() || rest.contains('/') {
        return Err("expected scheme and host only, without a path or trailing slash, e.g. https://tally.example.com".to_owned());
    }
    Ok(raw.to_owned())
}

fn parse_per_minute(raw: &str) -> Result<std::num::NonZeroU32, String> {
    raw.parse::<u32>()
        .ok()
        .filter(|n| (1..=100_000).contains(n))
        .and_then(std::num::NonZeroU32::new)
        .ok_or_else(|| "expected a whole number from 1 to 100000".to_owned())
}

fn parse_seconds(raw: &str, min: u64, max: u64) -> Result<Duration, String> {
    raw.parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .map(Duration::from_secs)
        .ok_or_else(|| format!("expected a whole number of seconds from {min} to {max}"))
}

fn parse_url(raw: &str) -> Result<String, String> {
    if (raw.starts_with("https://") || raw.starts_with("http://")) && raw.len() > "https://".len() {
        Ok(raw.to_owned())
    } else {
        Err("expected an http(s) URL".to_owned())
    }
}

/// All three bot-check variables, or none.
fn captcha_settings<F>(env: &Env<F>) -> Result<Option<CaptchaSettings>, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    let url = env.parse_or("CAPTCHA_SITEVERIFY_URL", None, |raw| {
        parse_url(raw).map(Some)
    })?;
    let secret = env.secret("CAPTCHA_SECRET", |_| Ok(()))?;
    let site_key = env.parse_or("CAPTCHA_SITE_KEY", None, |raw| Ok(Some(raw.to_owned())))?;
    let script_url = env.parse_or(
        "CAPTCHA_SCRIPT_URL",
        DEFAULT_CAPTCHA_SCRIPT_URL.to_owned(),
        parse_url,
    )?;
    let csp_sources = env.parse_or("CAPTCHA_CSP_SOURCES", None, |raw| {
        parse_csp_sources(raw).map(Some)
    })?;
    match (url, secret, site_key) {
        (None, None, None) => Ok(None),
        (Some(siteverify_url), Some(secret), Some(site_key)) => Ok(Some(CaptchaSettings {
            siteverify_url,
            secret,
            site_key,
            csp_sources: csp_sources.unwrap_or_else(|| vec![script_origin(&script_url)]),
            script_url,
        })),
        (url, secret, _) => {
            let missing = if url.is_none() {
                "CAPTCHA_SITEVERIFY_URL"
            } else if secret.is_none() {
                "CAPTCHA_SECRET"
            } else {
                "CAPTCHA_SITE_KEY"
            };
            Err(ConfigError::new(
                missing,
                "the bot check needs CAPTCHA_SITEVERIFY_URL, CAPTCHA_SECRET and CAPTCHA_SITE_KEY together; set this one too, or unset all three",
            ))
        }
    }
}

fn crm_settings<F>(env: &Env<F>) -> Result<Option<CrmSettings>, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    let Some(lead_url) = env.parse_or("CRM_LEAD_URL", None, |raw| parse_url(raw).map(Some))? else {
        return Ok(None);
    };
    let cases_enabled = env.parse_or("CRM_CASES_ENABLED", false, parse_bool)?;
    let case_url = env.parse_or("CRM_CASE_URL", None, |raw| parse_url(raw).map(Some))?;
    if cases_enabled && case_url.is_none() {
        return Err(ConfigError::new(
            "CRM_CASE_URL",
            "CRM_CASES_ENABLED is true, so the Web-to-Case URL is needed",
        ));
    }
    Ok(Some(CrmSettings {
        lead_url,
        case_url,
        org_id: env
            .secret("CRM_ORG_ID", |_| Ok(()))?
            .unwrap_or_else(|| SecretString::from(String::new())),
        cases_enabled,
        exhausted_statuses: env.parse_or("CRM_EXHAUSTED_STATUSES", vec![402], |raw| {
            raw.split(',')
                .map(|code| {
                    code.trim()
                        .parse::<u16>()
                        .ok()
                        .filter(|code| (100..=599).contains(code))
                        .ok_or_else(|| format!("{code:?} is not an HTTP status code"))
                })
                .collect()
        })?,
        exhausted_marker: env
            .parse_or("CRM_EXHAUSTED_MARKER", None, |raw| Ok(Some(raw.to_owned())))?,
    }))
}

/// A bare host name: no scheme, port or path.
fn parse_host(raw: &str) -> Result<String, String> {
    let valid = !raw.is_empty()
        && raw
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
    if valid {
        Ok(raw.to_ascii_lowercase())
    } else {
        Err("expected a host name without scheme or port, e.g. tally.example.com".to_owned())
    }
}

fn parse_webauthn_origin(raw: &str) -> Result<WebauthnOrigin, String> {
    if raw.contains("://") {
        return parse_base_url(raw).map(|url| WebauthnOrigin {
            url,
            any_port: false,
        });
    }
    let host = parse_host(raw).map_err(|_| {
        "expected an origin like https://tally.example.com, or a host name".to_owned()
    })?;
    Ok(if host == "localhost" {
        WebauthnOrigin {
            url: "http://localhost".to_owned(),
            any_port: true,
        }
    } else {
        WebauthnOrigin {
            url: format!("https://{host}"),
            any_port: false,
        }
    })
}

/// `scheme://host[:port]` of an http(s) URL, as a CSP source.
fn script_origin(url: &str) -> String {
    match origin_parts(url) {
        Some((scheme, host, Some(port))) => format!("{scheme}://{host}:{port}"),
        Some((scheme, host, None)) => format!("{scheme}://{host}"),
        None => url.to_owned(),
    }
}

/// Space-separated CSP host sources such as `https://hcaptcha.com
/// https://*.hcaptcha.com`: each an http(s) origin (a leading `*.` on the
/// host is allowed), nothing that could end the directive.
fn parse_csp_sources(raw: &str) -> Result<Vec<String>, String> {
    let sources: Vec<String> = raw.split_whitespace().map(str::to_owned).collect();
    let valid = |source: &String| {
        parse_url(source).is_ok()
            && !source.contains([';', ',', '\'', '"'])
            && script_origin(source) == *source
    };
    if sources.is_empty() || !sources.iter().all(valid) {
        return Err(
            "expected space-separated origins such as https://hcaptcha.com https://*.hcaptcha.com"
                .to_owned(),
        );
    }
    Ok(sources)
}

/// Scheme, host and port of an http(s) URL without a path.
fn origin_parts(url: &str) -> Option<(&str, &str, Option<&str>)> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split('/').next()?;
    Some(match authority.rsplit_once(':') {
        Some((host, port)) => (scheme, host, Some(port)),
        None => (scheme, authority, None),
    })
}

fn parse_path(raw: &str) -> Result<PathBuf, String> {
    Ok(PathBuf::from(raw))
}

fn parse_bool(raw: &str) -> Result<bool, String> {
    match raw.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err("expected true or false".to_owned()),
    }
}

fn hash_file_beside_binary() -> bool {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(HASH_FILE_NAME)))
        .is_some_and(|path| path.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn settings(vars: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Settings::from_lookup(|name| vars.get(name).cloned().map(Ok))
    }

    #[test]
    fn defaults_run_on_a_fresh_machine() {
        let settings = settings(&[]).unwrap();
        assert_eq!(settings.listen_addr.to_string(), "127.0.0.1:3001");
        assert_eq!(settings.database_path(), PathBuf::from("data/db/bills.db"));
        assert_eq!(settings.backups_dir(), PathBuf::from("data/backups"));
        assert_eq!(settings.log_dir, PathBuf::from("logs"));
        assert_eq!(settings.shutdown_grace, Duration::from_secs(10));
        assert_eq!(settings.request_timeout, Duration::from_secs(30));
        assert!(!settings.diagnostics);
        assert!(settings.run_db_migrations);
        assert!(settings.token_encryption_key.is_none());
        assert_eq!(settings.backup_keep, 7);
        assert_eq!(
            settings.operations_retention,
            Duration::from_secs(30 * 86_400)
        );
        assert_eq!(settings.restore_min_rows, 0);
        assert!(settings.csrf_http_only);
        assert!(!settings.secure_cookies());
        assert!(settings.bootstrap_admin_email.is_none());
    }

    #[test]
    fn the_captcha_widget_script_and_its_csp_sources_are_checked() {
        let all = [
            (
                "CAPTCHA_SITEVERIFY_URL",
                "https://verify.example/siteverify",
            ),
            ("CAPTCHA_SECRET", "s3cret"),
            ("CAPTCHA_SITE_KEY", "site-key"),
        ];
        let turnstile = settings(&all).unwrap().captcha.unwrap();
        assert_eq!(turnstile.script_url, DEFAULT_CAPTCHA_SCRIPT_URL);
        assert_eq!(turnstile.csp_sources, ["https://challenges.cloudflare.com"]);

        let mut own = all.to_vec();
        own.push((
            "CAPTCHA_SCRIPT_URL",
            "http://127.0.0.1:9000/api.js?render=explicit",
        ));
        let own = settings(&own).unwrap().captcha.unwrap();
        assert_eq!(own.csp_sources, ["http://127.0.0.1:9000"]);

        let mut hcaptcha = all.to_vec();
        hcaptcha.push((
            "CAPTCHA_CSP_SOURCES",
            "https://hcaptcha.com  https://*.hcaptcha.com",
        ));
        let hcaptcha = settings(&hcaptcha).unwrap().captcha.unwrap();
        assert_eq!(
            hcaptcha.csp_sources,
            ["https://hcaptcha.com", "https://*.hcaptcha.com"]
        );

        for bad in [
            "https://a.example/path",
            "https://a.example; script-src *",
            "'unsafe-inline'",
        ] {
            let error = settings_error("CAPTCHA_CSP_SOURCES", bad);
            assert!(error.contains("CAPTCHA_CSP_SOURCES"), "{error}");
        }
    }

    #[test]
    fn sign_in_limit_and_geolocation_url_are_checked() {
        assert_eq!(settings(&[]).unwrap().sign_in_attempts_per_minute.get(), 10);
        let raised = settings(&[("SIGN_IN_ATTEMPTS_PER_MINUTE", "100")]).unwrap();
        assert_eq!(raised.sign_in_attempts_per_minute.get(), 100);
        assert_eq!(settings(&[]).unwrap().sign_in_account_burst.get(), 10);
        for bad in ["0", "100001", "many"] {
            let error = settings_error("SIGN_IN_ATTEMPTS_PER_MINUTE", bad);
            assert!(error.contains("SIGN_IN_ATTEMPTS_PER_MINUTE"), "{error}");
        }
        assert!(settings(&[]).unwrap().geolocation_url.is_none());
        let error = settings_error("GEOLOCATION_URL", "https://ipapi.co/json/");
        assert!(error.contains("{ip}"), "{error}");
    }

    #[test]
    fn webauthn_defaults_fit_localhost_and_a_mismatch_is_named() {
        let local = settings(&[]).unwrap();
        assert_eq!(local.webauthn_rp_id, "localhost");
        assert_eq!(local.webauthn_origin.url, "http://localhost");
        assert_eq!(local.webauthn_mismatch(), None, "defaults agree");

        let public = settings(&[("PUBLIC_BASE_URL", "https://tally.example.com")]).unwrap();
        let report = public.webauthn_mismatch().unwrap();
        assert!(
            report.contains("WEBAUTHN_ORIGIN") && report.contains("WEBAUTHN_RP_ID"),
            "{report}"
        );

        let fitted = settings(&[
            ("PUBLIC_BASE_URL", "https://tally.example.com"),
            ("WEBAUTHN_ORIGIN", "tally.example.com"),
            ("WEBAUTHN_RP_ID", "example.com"),
        ])
        .unwrap();
        assert_eq!(fitted.webauthn_origin.url, "https://tally.example.com");
        assert_eq!(
            fitted.webauthn_mismatch(),
            None,
            "a parent domain is a valid RP id"
        );

        let wrong_rp = settings(&[
            ("PUBLIC_BASE_URL", "https://tally.example.com"),
            ("WEBAUTHN_ORIGIN", "https://tally.example.com"),
            ("WEBAUTHN_RP_ID", "other.com"),
        ])
        .unwrap();
        assert!(wrong_rp.webauthn_mismatch().is_some());
        let error = settings_error("WEBAUTHN_RP_ID", "https://example.com");
        assert!(
            error.contains("WEBAUTHN_RP_ID") && error.contains("host name"),
            "{error}"
        );
    }

    #[test]
    fn csrf_http_only_false_is_respected_and_https_means_secure_cookies() {
        let settings = settings(&[
            ("CSRF_HTTP_ONLY", "false"),
            ("PUBLIC_BASE_URL", "https://tally.example.com"),
        ])
        .unwrap();
        assert!(!settings.csrf_http_only);
        assert!(settings.secure_cookies());
        let error = settings_error("PUBLIC_BASE_URL", "https://tally.example.com/");
        assert!(error.contains("trailing slash"), "{error}");
    }

    fn settings_error(variable: &str, value: &str) -> String {
        settings(&[(variable, value)]).unwrap_err().to_string()
    }

    #[test]
    fn a_weak_bootstrap_password_is_refused_by_name() {
        let error = settings_error("BOOTSTRAP_ADMIN_PASSWORD", "short");
        assert!(
            error.starts_with("BOOTSTRAP_ADMIN_PASSWORD is invalid"),
            "{error}"
        );
        assert!(!error.contains("\"short\""), "{error}");
    }

    #[test]
    fn values_are_read() {
        let settings = settings(&[
            ("LEPTOS_SITE_ADDR", "0.0.0.0:8080"),
            ("DATA_DIR", "/data"),
            ("LOG_DIR", "/app/logs"),
            ("TALLY_DIAGNOSTICS", "1"),
            ("SHUTDOWN_GRACE_SECONDS", "3"),
        ])
        .unwrap();
        assert_eq!(settings.listen_addr.port(), 8080);
        assert_eq!(settings.database_path(), PathBuf::from("/data/db/bills.db"));
        assert_eq!(settings.log_dir, PathBuf::from("/app/logs"));
        assert!(settings.diagnostics);
        assert_eq!(settings.shutdown_grace, Duration::from_secs(3));
    }

    #[test]
    fn an_invalid_value_names_the_variable_and_the_fix() {
        let error = settings(&[("LEPTOS_SITE_ADDR", "localhost")]).unwrap_err();
        assert_eq!(error.variable, "LEPTOS_SITE_ADDR");
        assert_eq!(
            error.to_string(),
            "LEPTOS_SITE_ADDR is invalid: \"localhost\": expected host:port, for example 0.0.0.0:3001"
        );

        let error = settings(&[("TALLY_DIAGNOSTICS", "maybe")]).unwrap_err();
        assert_eq!(error.variable, "TALLY_DIAGNOSTICS");
        assert!(error.to_string().contains("expected true or false"));

        let error = settings(&[("SHUTDOWN_GRACE_SECONDS", "0")]).unwrap_err();
        assert_eq!(error.variable, "SHUTDOWN_GRACE_SECONDS");
    }

    #[test]
    fn a_malformed_token_key_is_refused_without_echoing_it() {
        let error = settings(&[("TOKEN_ENCRYPTION_KEY", "hunter2-not-a-key")]).unwrap_err();
        assert_eq!(error.variable, "TOKEN_ENCRYPTION_KEY");
        assert!(error.to_string().contains("32 bytes"), "{error}");
        assert!(!error.to_string().contains("hunter2"), "{error}");
    }

    #[test]
    fn the_token_key_is_kept_secret_in_debug_output() {
        let key = "q1Vn9Wq0Uq3jvQ0ZJ5mZb5m8Wc7oYgG3bF0v3hH2r9M=";
        let settings = settings(&[("TOKEN_ENCRYPTION_KEY", key)]).unwrap();
        assert!(settings.token_encryption_key.is_some());
        assert!(!format!("{settings:?}").contains(key));
    }

    #[test]
    fn non_utf8_is_refused_by_name() {
        let error = Settings::from_lookup(|name| {
            (name == "DATA_DIR").then(|| Err(std::ffi::OsString::from("x")))
        })
        .unwrap_err();
        assert_eq!(error.variable, "DATA_DIR");
    }
}
