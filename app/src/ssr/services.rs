//! What the server runs on, in one place: the database pool and the
//! long-lived services built at start. The REST routes reach it through the
//! server's `AppState`, the server functions through the Leptos context
//! (`Arc<Services>`, see [`from_context`]); both call the same services
//! with it.

use std::net::IpAddr;
use std::sync::Arc;

use sqlx::SqlitePool;

use crate::ssr::auth::login_history::LoginHistory;
use crate::ssr::auth::password_check::{self, PasswordCheckError};
use crate::ssr::auth::security_keys::SecurityKeys;
use crate::ssr::auth::throttle::SignInThrottle;
use crate::ssr::auth::users::User;
use crate::ssr::client_ip::TrustedProxies;
use crate::ssr::contact::bot_check::BotCheck;
use crate::ssr::contact::group_commit::SubmissionWriter;
use crate::ssr::contact::outbox::Outbox;
use crate::ssr::contact::rate_limit::FormRateLimit;
use crate::ssr::db_health::DbHealth;
use crate::ssr::operations::Engine;
use crate::ssr::secrets::Keyring;
use crate::ssr::write_gate::WriteGate;

pub struct Services {
    pub pool: SqlitePool,
    pub db_health: Arc<DbHealth>,
    pub keyring: Arc<Keyring>,
    pub sign_in_throttle: Arc<SignInThrottle>,
    pub login_history: LoginHistory,
    pub security_keys: SecurityKeys,
    pub form_rate_limit: Arc<FormRateLimit>,
    pub bot_check: Arc<BotCheck>,
    pub outbox: Arc<Outbox>,
    pub write_gate: Arc<WriteGate>,
    pub submissions: SubmissionWriter,
    pub operations: Arc<Engine>,
    /// The address people reach Tally at (`PUBLIC_BASE_URL`), for links.
    pub public_base_url: String,
    /// Whose forwarding headers say who the client is (`TRUSTED_PROXIES`).
    pub trusted_proxies: TrustedProxies,
    /// Bank sync: the provider's client, the sync limit, the switch.
    pub bank: crate::ssr::bank::service::Bank,
    /// Backups and restores, as operations.
    pub backups: crate::ssr::backup::Backups,
    /// Sealing every stored secret again, as an operation.
    pub reencrypt: crate::ssr::secrets::ReencryptSecrets,
    /// Statement imports: their uploads, previews and commits.
    pub imports: crate::ssr::statements::service::Imports,
    /// When it started, which image, where its files are (Admin Status).
    pub instance: crate::ssr::instance::Instance,
    /// Reminders and notifications: transports, email server, schedule.
    pub notifier: Arc<crate::ssr::notifications::Notifier>,
    /// Single sign-on through the identity provider (off when not set up).
    pub sso: Arc<crate::ssr::sso::Sso>,
}

impl Services {
    /// Checks the signed-in user's current password before a sensitive
    /// change (throttled like a sign-in).
    pub async fn confirm_password(
        &self,
        ip: IpAddr,
        user: &User,
        current_password: String,
    ) -> Result<(), PasswordCheckError> {
        password_check::confirm(
            &self.pool,
            &self.sign_in_throttle,
            ip,
            user,
            current_password,
        )
        .await
    }

    /// Whether cookies must be `Secure` (the public URL is https).
    pub fn secure_cookies(&self) -> bool {
        crate::ssr::cookies::secure_for(&self.public_base_url)
    }

    /// The one-time registration link of an invitation.
    pub fn invitation_link(&self, token: &str) -> String {
        crate::ssr::auth::invitations::link(&self.public_base_url, token)
    }
}
