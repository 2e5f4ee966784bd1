//! Settings, parsed once at start-up from the environment (and an optional
//! `.env`). Every invalid value stops start-up with an error that names the
//! variable and says what is wrong. A section that configures one of the
//! app's services is that service's own config type, parsed in its own file:
//! the public forms' bot check, CRM and outbox (`contact`), the security
//! keys' origin (`webauthn`), the limits (`limits`), the accounts
//! (`accounts`), the backups (`backups`), bank sync (`bank`), the outbound guard (`outbound`), single sign-on (`sso`); the reader and the shared parsers
//! are `env`. What is left here is the server's own: where it listens,
//! where its files are, how it shuts down, and its public addresses.

mod accounts;
mod backups;
mod bank;
mod contact;
mod env;
mod limits;
mod notifications;
mod outbound;
mod sso;
mod webauthn;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use app::backend::auth::settings::AccountSettings;
use app::backend::backup::BackupSettings;
use app::backend::contact::bot_check::BotCheckConfig;
use app::backend::contact::crm::CrmConfig;
use app::backend::contact::outbox::OutboxSettings;
use app::backend::limits::Limits;
use secrecy::SecretString;

use env::{parse_base_url, parse_bool, parse_host, parse_path, Env};
pub use webauthn::WebauthnOrigin;

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
    /// Enables the diagnostics routes used by tests and operators.
    pub diagnostics: bool,
    /// Apply pending migrations at `serve` (`RUN_DB_MIGRATIONS`).
    pub run_db_migrations: bool,
    /// `TOKEN_ENCRYPTION_KEY`: when set, secrets are sealed with it (already
    /// checked to be a well-formed 256-bit key).
    pub token_encryption_key: Option<SecretString>,
    /// How long finished operations stay readable
    /// (`OPERATIONS_RETENTION_DAYS`, default 30).
    pub operations_retention: Duration,
    /// The address people use to reach Tally (`PUBLIC_BASE_URL`); cookies
    /// are `Secure` when it is https.
    pub public_base_url: String,
    /// The WebAuthn relying party id (`WEBAUTHN_RP_ID`, default `localhost`).
    pub webauthn_rp_id: String,
    /// The origin security keys are used from (`WEBAUTHN_ORIGIN`).
    pub webauthn_origin: WebauthnOrigin,
    /// Proxies whose `X-Forwarded-For`/`-Proto` are believed (`TRUSTED_PROXIES`).
    pub trusted_proxies: app::backend::client_ip::TrustedProxies,
    /// The second public address serving the same site (`PUBLIC_ALT_BASE_URL`).
    pub public_alt_base_url: Option<String>,
    /// The one origin granted cross-origin access to the public API
    /// (`CORS_ORIGIN`).
    pub cors_origin: Option<String>,
    /// The bot check (`CAPTCHA_SITEVERIFY_URL`, `CAPTCHA_SECRET`,
    /// `CAPTCHA_SITE_KEY`); off when unset.
    pub captcha: Option<BotCheckConfig>,
    /// The CRM (`CRM_*`); off when `CRM_LEAD_URL` is unset.
    pub crm: Option<CrmConfig>,
    /// How the CRM outbox retries and pauses.
    pub crm_outbox: OutboxSettings,
    /// Sign-in attempts, form submissions, the request deadline.
    pub limits: Limits,
    /// The first administrator, the CSRF cookie, geolocation.
    pub accounts: AccountSettings,
    /// How many backups are kept; what a restore check demands.
    pub backups: BackupSettings,
    /// Bank sync: the switch's starting value, http providers, the timeout.
    pub bank: app::backend::bank::BankSettings,
    /// What the outbound guard lets through besides public addresses
    /// (`OUTBOUND_ALLOW_PRIVATE`, `OUTBOUND_ALLOWED_HOSTS`).
    pub outbound: app::backend::outbound::OutboundSettings,
    /// Reminders: `SMTP_*`, `REMINDER_HOUR`, `NOTIFY_ALLOW_HTTP`,
    /// `TELEGRAM_API_URL`.
    pub notifications: app::backend::notifications::NotifySettings,
    /// Single sign-on: `OIDC_*` and `LOCAL_LOGIN_ENABLED`.
    pub sso: app::backend::sso::SsoEnvironment,
    /// The bearer token `/metrics` wants (`METRICS_TOKEN`, at least 16
    /// characters); metrics are off without it.
    pub metrics_token: Option<SecretString>,
    /// The image's version label (`TALLY_IMAGE_VERSION`, which the
    /// Dockerfile sets from its `VERSION` build argument), for Admin Status.
    pub image_version: Option<String>,
}

/// A configuration fault: which variable, what it held, and what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("{variable} is invalid: {problem}")]
pub struct ConfigError {
    pub variable: &'static str,
    pub problem: String,
}

impl ConfigError {
    pub(crate) fn new(variable: &'static str, problem: impl Into<String>) -> Self {
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
                app::backend::secrets::Key::parse(raw)
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
            public_base_url: env.parse_or(
                "PUBLIC_BASE_URL",
                "http://localhost:3001".to_owned(),
                parse_base_url,
            )?,
            webauthn_rp_id: env.parse_or("WEBAUTHN_RP_ID", "localhost".to_owned(), parse_host)?,
            webauthn_origin: webauthn::origin(&env)?,
            trusted_proxies: env.parse_or(
                "TRUSTED_PROXIES",
                app::backend::client_ip::TrustedProxies::default(),
                app::backend::client_ip::TrustedProxies::parse,
            )?,
            image_version: env.parse_or("TALLY_IMAGE_VERSION", None, |raw| {
                if raw.len() <= 64 && raw.chars().all(|c| c.is_ascii_graphic()) {
                    Ok(Some(raw.to_owned()))
                } else {
                    Err("expected a version label of at most 64 visible characters".to_owned())
                }
            })?,
            public_alt_base_url: env.parse_or("PUBLIC_ALT_BASE_URL", None, |raw| {
                parse_base_url(raw).map(Some)
            })?,
            cors_origin: env.parse_or("CORS_ORIGIN", None, |raw| {
                parse_base_url(raw).map(Some).map_err(|problem| {
                    format!("{problem}; CORS_ORIGIN is an origin such as https://tally.example.com (no trailing slash, no path)")
                })
            })?,
            captcha: contact::bot_check(&env)?,
            crm: contact::crm(&env)?,
            crm_outbox: contact::outbox(&env)?,
            limits: limits::limits(&env)?,
            accounts: accounts::accounts(&env)?,
            backups: backups::backups(&env)?,
            bank: bank::bank(&env)?,
            outbound: outbound::outbound(&env)?,
            notifications: notifications::notifications(&env)?,
            sso: sso::sso(&env)?,
            metrics_token: env.secret("METRICS_TOKEN", |raw| {
                if raw.chars().count() < 16 {
                    Err("use at least 16 characters, e.g. `openssl rand -hex 24`".to_owned())
                } else {
                    Ok(())
                }
            })?,
        })
    }

    /// The SQLite database file: `DATA_DIR/db/bills.db`.
    pub fn database_path(&self) -> PathBuf {
        self.data_dir.join("db").join("bills.db")
    }

    /// Scratch files of personal exports and their imports, removed when
    /// done: `DATA_DIR/tmp` (beside the database, not a small `/tmp`).
    pub fn scratch_dir(&self) -> PathBuf {
        self.data_dir.join("tmp")
    }

    /// The directory where backups are written: `DATA_DIR/backups`.
    pub fn backups_dir(&self) -> PathBuf {
        self.data_dir.join("backups")
    }
}

fn hash_file_beside_binary() -> bool {
    hash_file_path().is_some_and(|path| path.is_file())
}

/// Where cargo-leptos leaves its hash file: beside the running binary.
pub fn hash_file_path() -> Option<PathBuf> {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(HASH_FILE_NAME)))
}

/// The hash the hash file's text `hashes` records for `key` (`js`,
/// `wasm`, `css`, `manifest`, `split`), from lines such as `css: ir-H8…`.
pub fn recorded_hash<'a>(hashes: &'a str, key: &str) -> Option<&'a str> {
    hashes.lines().find_map(|line| {
        let (name, hash) = line.trim().split_once(':')?;
        (name.trim() == key).then(|| hash.trim())
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn a_recorded_hash_is_read_by_its_key() {
        let hashes = "js: 3xx\nwasm: T73\ncss: ir-H8\nmanifest: 37oh\nsplit: Goc\n";
        assert_eq!(recorded_hash(hashes, "css"), Some("ir-H8"));
        assert_eq!(recorded_hash(hashes, "manifest"), Some("37oh"));
        assert_eq!(recorded_hash(hashes, "js"), Some("3xx"));
        assert_eq!(recorded_hash("js: a\n", "manifest"), None);
        assert_eq!(recorded_hash("", "css"), None);
    }

    /// Settings from these variables alone.
    pub(super) fn settings(vars: &[(&str, &str)]) -> Result<Settings, ConfigError> {
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
        assert_eq!(settings.limits.request_timeout, Duration::from_secs(30));
        assert!(!settings.diagnostics);
        assert!(settings.run_db_migrations);
        assert!(settings.token_encryption_key.is_none());
        assert_eq!(settings.backups.keep, 7);
        assert_eq!(
            settings.operations_retention,
            Duration::from_secs(30 * 86_400)
        );
        assert_eq!(settings.backups.restore_min_rows, 0);
        assert!(settings.accounts.csrf_http_only);
        assert!(!app::backend::cookies::secure_for(
            &settings.public_base_url
        ));
        assert!(settings.accounts.bootstrap_admin_email.is_none());
        assert_eq!(settings.limits.submissions_per_minute.get(), 5);
    }

    #[test]
    fn the_metrics_token_is_off_when_unset_and_must_be_long() {
        assert!(settings(&[]).unwrap().metrics_token.is_none());
        let on = settings(&[("METRICS_TOKEN", "0123456789abcdef")]).unwrap();
        assert!(on.metrics_token.is_some());
        let error = settings_error("METRICS_TOKEN", "short");
        assert!(error.contains("METRICS_TOKEN"), "{error}");
        assert!(
            !error.contains("short"),
            "the token is never echoed: {error}"
        );
    }

    #[test]
    fn sign_in_limit_and_geolocation_url_are_checked() {
        let limits = settings(&[]).unwrap().limits;
        assert_eq!(limits.sign_in_attempts_per_minute.get(), 10);
        let raised = settings(&[("SIGN_IN_ATTEMPTS_PER_MINUTE", "100")]).unwrap();
        assert_eq!(raised.limits.sign_in_attempts_per_minute.get(), 100);
        assert_eq!(limits.sign_in_account_burst.get(), 10);
        for bad in ["0", "100001", "many"] {
            let error = settings_error("SIGN_IN_ATTEMPTS_PER_MINUTE", bad);
            assert!(error.contains("SIGN_IN_ATTEMPTS_PER_MINUTE"), "{error}");
        }
        assert!(settings(&[]).unwrap().accounts.geolocation_url.is_none());
        let error = settings_error("GEOLOCATION_URL", "https://ipapi.co/json/");
        assert!(error.contains("{ip}"), "{error}");
    }

    #[test]
    fn csrf_http_only_false_is_respected_and_https_means_secure_cookies() {
        let settings = settings(&[
            ("CSRF_HTTP_ONLY", "false"),
            ("PUBLIC_BASE_URL", "https://tally.example.com"),
        ])
        .unwrap();
        assert!(!settings.accounts.csrf_http_only);
        assert!(app::backend::cookies::secure_for(&settings.public_base_url));
        let error = settings_error("PUBLIC_BASE_URL", "https://tally.example.com/");
        assert!(error.contains("trailing slash"), "{error}");
    }

    /// The error for one variable set to `value`.
    pub(super) fn settings_error(variable: &str, value: &str) -> String {
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
