//! What the server runs on, in one place: the database pool and the
//! long-lived services built at start. The REST routes reach it through the
//! server's `AppState`, the server functions through the Leptos context
//! (`Arc<Services>`, see [`from_context`]); both call the same services
//! with it.

use std::sync::Arc;

use sqlx::SqlitePool;

use crate::backend::client_ip::TrustedProxies;
use crate::backend::db_health::DbHealth;
use crate::backend::operations::Engine;
use crate::backend::secrets::Keyring;
use crate::backend::write_gate::WriteGate;

pub struct Services {
    pub pool: SqlitePool,
    pub db_health: Arc<DbHealth>,
    pub keyring: Arc<Keyring>,
    pub write_gate: Arc<WriteGate>,
    /// Signing in, registering, accounts and invitations.
    pub auth: crate::backend::auth::Auth,
    /// Leads and support requests: intake, the CRM outbox, Admin's review.
    pub contact: crate::backend::contact::Contact,
    pub operations: Arc<Engine>,
    /// The address people reach Tally at (`PUBLIC_BASE_URL`), for links.
    pub public_base_url: String,
    /// Whose forwarding headers say who the client is (`TRUSTED_PROXIES`).
    pub trusted_proxies: TrustedProxies,
    /// Bank sync: the provider's client, the sync limit, the switch.
    pub bank: crate::backend::bank::service::Bank,
    /// Backups and restores, as operations.
    pub backups: crate::backend::backup::Backups,
    /// Sealing every stored secret again, as an operation.
    pub reencrypt: crate::backend::secrets::ReencryptSecrets,
    /// Statement imports: their uploads, previews and commits.
    pub imports: crate::backend::statements::service::Imports,
    /// Whose "Import my data" is running: one each.
    pub personal_imports: crate::backend::upload_quota::Turns,
    /// When it started, which image, where its files are (Admin Status).
    pub instance: crate::backend::instance::Instance,
    /// Reminders and notifications: transports, email server, schedule.
    pub notifier: Arc<crate::backend::notifications::Notifier>,
    /// Single sign-on through the identity provider (off when not set up).
    pub sso: Arc<crate::backend::sso::Sso>,
    /// Who the use cases declare may call each server function.
    pub page_callers: crate::backend::page_caller::DeclaredCallers,
}

impl Services {
    /// Whether cookies must be `Secure` (the public URL is https).
    pub fn secure_cookies(&self) -> bool {
        crate::backend::cookies::secure_for(&self.public_base_url)
    }
}
