//! The long-lived part of notifications: the transports (with the one
//! outbound guard), the email server from the environment, the schedule,
//! the keyring for channel secrets, and the counters `/metrics` shows.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use secrecy::SecretString;
use sqlx::SqlitePool;

use super::error::NotifyError;
use super::store;
use super::test_limit::{test_limit, TestLimit};
use super::transport::{MailServer, Transports};
use crate::backend::outbound::Outbound;
use crate::backend::secrets::{Keyring, SecretColumn};
use crate::contract::notifications::{SmtpSecurity, SmtpShown};
use crate::domain::notification::ChannelKind;

/// The sealed column of channel secrets (re-encrypted with the others).
pub const CHANNEL_SECRET: SecretColumn = crate::backend::secrets::NOTIFICATION_SECRET;
/// The sealed column of the mail server's password.
pub const MAIL_PASSWORD: SecretColumn = crate::backend::secrets::MAIL_PASSWORD;

/// What the environment says about notifications (`server::config`).
/// Its `Debug` shows whether a password is set, never the password.
#[derive(Clone, Debug)]
pub struct NotifySettings {
    /// `SMTP_*`, when `SMTP_HOST` is set: it wins over Admin's page.
    pub smtp: Option<MailServer>,
    /// `SMTP_CA_FILE`'s certificates, for either source.
    pub smtp_ca_pem: Option<Vec<u8>>,
    /// `REMINDER_HOUR`, 0–23 in the server's time zone.
    pub reminder_hour: u8,
    /// `NOTIFY_ALLOW_HTTP`.
    pub allow_http: bool,
    /// `TELEGRAM_API_URL`.
    pub telegram_api: String,
}

impl Default for NotifySettings {
    fn default() -> Self {
        Self {
            smtp: None,
            smtp_ca_pem: None,
            reminder_hour: 6,
            allow_http: false,
            telegram_api: "https://api.telegram.org".into(),
        }
    }
}

pub struct Notifier {
    pub settings: NotifySettings,
    pub transports: Transports,
    pub keyring: Arc<Keyring>,
    pub public_base_url: String,
    /// The running run's operation id, while one runs.
    running: Mutex<Option<String>>,
    /// Held while a run is being started, so two requests start one run.
    pub start_lock: tokio::sync::Mutex<()>,
    /// Sends by channel kind and result, for `/metrics`.
    counts: Mutex<BTreeMap<(&'static str, &'static str), u64>>,
    /// "Send test" per person (`test_limit`).
    tests: Arc<TestLimit>,
}

impl Notifier {
    /// Needs the runtime (the test limit forgets idle people in the
    /// background).
    pub fn new(
        settings: NotifySettings,
        outbound: Outbound,
        keyring: Arc<Keyring>,
        public_base_url: &str,
    ) -> Self {
        let message_host = reqwest::Url::parse(public_base_url)
            .ok()
            .and_then(|url| url.host_str().map(str::to_owned))
            .unwrap_or_else(|| "localhost".into());
        Self {
            transports: Transports {
                outbound,
                allow_http: settings.allow_http,
                telegram_api: settings.telegram_api.clone(),
                message_host,
            },
            settings,
            keyring,
            public_base_url: public_base_url.trim_end_matches('/').to_owned(),
            running: Mutex::new(None),
            start_lock: tokio::sync::Mutex::new(()),
            counts: Mutex::new(BTreeMap::new()),
            tests: test_limit().spawn_pruning(),
        }
    }

    /// Counts a test send of `user_id`; `TooManyTests` (429, with the
    /// wait) over the limit.
    pub fn admit_test(&self, user_id: i64) -> Result<(), NotifyError> {
        self.tests
            .check(&user_id)
            .map_err(|wait| NotifyError::TooManyTests {
                retry_after: wait.max(std::time::Duration::from_secs(1)),
            })
    }

    pub fn running(&self) -> Option<String> {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    pub fn set_running(&self, id: Option<String>) {
        *self
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = id;
    }

    pub fn count(&self, kind: ChannelKind, sent: bool) {
        let mut counts = self
            .counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *counts
            .entry((kind.name(), if sent { "sent" } else { "failed" }))
            .or_default() += 1;
    }

    /// `(kind, result, count)` for every pair seen.
    pub fn counts(&self) -> Vec<(&'static str, &'static str, u64)> {
        self.counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(|((kind, result), n)| (*kind, *result, *n))
            .collect()
    }

    /// The mail server to send through: the environment's, or the one an
    /// administrator saved.
    pub async fn mail_server(&self, pool: &SqlitePool) -> Result<Option<MailServer>, sqlx::Error> {
        if let Some(server) = &self.settings.smtp {
            return Ok(Some(server.clone()));
        }
        let Some(row) = store::mail_settings(pool).await? else {
            return Ok(None);
        };
        let password = row
            .password
            .as_deref()
            .and_then(|sealed| self.keyring.open(MAIL_PASSWORD, sealed).ok());
        Ok(Some(MailServer {
            host: row.host,
            port: u16::try_from(row.port).unwrap_or(587),
            security: SmtpSecurity::parse(&row.tls).unwrap_or(SmtpSecurity::Starttls),
            username: row.username,
            password: password.map(|p: SecretString| p),
            from: row.from_address,
            ca_pem: self.settings.smtp_ca_pem.clone(),
        }))
    }

    /// The mail server as Admin shows it.
    pub async fn mail_shown(&self, pool: &SqlitePool) -> Result<Option<SmtpShown>, sqlx::Error> {
        let from_environment = self.settings.smtp.is_some();
        Ok(self.mail_server(pool).await?.map(|server| SmtpShown {
            host: server.host,
            port: i64::from(server.port),
            security: server.security,
            username: server.username,
            from: server.from,
            password_set: server.password.is_some(),
            from_environment,
        }))
    }
}
