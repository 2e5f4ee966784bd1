use std::sync::Arc;

use axum::extract::FromRef;
use leptos::config::LeptosOptions;
use sqlx::SqlitePool;

use app::ssr::auth::login_history::LoginHistory;
use app::ssr::auth::password_check::{self, PasswordCheckError};
use app::ssr::auth::security_keys::SecurityKeys;
use app::ssr::auth::throttle::SignInThrottle;
use app::ssr::auth::users::User;
use app::ssr::contact::bot_check::BotCheck;
use app::ssr::contact::group_commit::SubmissionWriter;
use app::ssr::contact::outbox::Outbox;
use app::ssr::contact::rate_limit::FormRateLimit;
use app::ssr::db_health::DbHealth;
use app::ssr::operations::Engine;
use app::ssr::secrets::Keyring;
use app::ssr::write_gate::WriteGate;

use crate::config::Settings;
use crate::page_cache::PageCache;

/// What every handler can reach, behind one `Arc`: axum clones the state
/// for every extractor and `from_fn_with_state` layer of every request, and
/// cloning a struct of a dozen `Arc`s (plus the Leptos options' own) was a
/// fifth of the CPU of a health probe under load, the counters bouncing
/// between cores. One reference count is one atomic add.
#[derive(Clone)]
pub struct AppState(Arc<Services>);

impl AppState {
    pub fn new(services: Services) -> Self {
        Self(Arc::new(services))
    }
}

impl std::ops::Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}

/// The settings, the database pool, the Leptos options and the services
/// the handlers call.
pub struct Services {
    pub settings: Arc<Settings>,
    pub pool: SqlitePool,
    /// Answers the health probe without opening a connection per request.
    pub db_health: Arc<DbHealth>,
    pub leptos_options: LeptosOptions,
    pub keyring: Arc<Keyring>,
    pub sign_in_throttle: Arc<SignInThrottle>,
    /// Writes and reads the sign-in history (failed attempts after their
    /// answer).
    pub login_history: LoginHistory,
    pub security_keys: SecurityKeys,
    pub form_rate_limit: Arc<FormRateLimit>,
    pub bot_check: Arc<BotCheck>,
    pub outbox: Arc<Outbox>,
    /// Queues writes to the busy tables (see `write_gate`).
    pub write_gate: Arc<WriteGate>,
    /// Stores the public forms' submissions, many to a transaction.
    pub submissions: SubmissionWriter,
    /// Runs and records long-running operations.
    pub operations: Arc<Engine>,
    /// The marketing pages as anonymous visitors see them.
    pub page_cache: PageCache,
}

impl Services {
    /// Asks for `user`'s current password again before a sensitive change,
    /// counted by the sign-in throttle (`password_check`).
    pub async fn confirm_password(
        &self,
        ip: std::net::IpAddr,
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
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}
