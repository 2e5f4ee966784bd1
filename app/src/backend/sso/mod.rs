//! Single sign-on with OpenID Connect (issue 31): the authorization code
//! flow with PKCE, state and nonce, through the household's identity
//! provider (Authentik, Authelia, Keycloak, Pocket ID, Google).
//!
//! - `settings`: the environment's layer and Admin's, resolved.
//! - `rules`: which account an identity signs into, and its role.
//! - `store`: every SQL statement (settings, identities, accounts).
//! - `service`: signing in through the provider (start, finish, link).
//! - `authentication`: Admin → Authentication (read, change with its
//!   safeguards, test discovery); `identities`: Profile's linked ones.
//! - `provider`, `http`: discovery and keys, fetched through the outbound
//!   guard; `pending`: sign-ins waiting for the provider; `start_limit`:
//!   20 starts per 15 minutes per address.

pub mod authentication;
mod error;
mod http;
pub mod identities;
mod pending;
mod provider;
pub mod rules;
pub mod service;
pub mod settings;
pub mod settings_form;
mod start_limit;
mod store;

use std::sync::{Arc, Mutex, PoisonError};

use openidconnect::{IssuerUrl, RedirectUrl};
use sqlx::SqlitePool;

pub use error::SsoError;
pub use settings::{SsoEnvironment, SsoSettings};

use crate::backend::auth::login_history::LoginHistory;
use crate::backend::outbound::Outbound;
use crate::backend::secrets::{Keyring, OIDC_CLIENT_SECRET};
use crate::contract::account::{AuthMethods, SingleSignOnMethod};
use settings::SsoLayer;

/// The path the provider sends the browser back to.
pub const CALLBACK_PATH: &str = "/api/auth/oidc/callback";
/// Where the provider sends the browser after signing out there.
pub const POST_LOGOUT_PATH: &str = "/login";
/// The cookie binding a sign-in under way to the browser that started it.
pub const BROWSER_COOKIE: &str = "tally_sso";

/// Single sign-on as the server runs it: the environment's settings, the
/// provider they name (kept while the issuer stays the same), the sign-ins
/// waiting for it and the start limit. Admin's settings are read at each
/// use, so a change (or `tally auth local-login on` from another process)
/// takes effect at once.
pub struct Sso {
    pool: SqlitePool,
    keyring: Arc<Keyring>,
    login_history: LoginHistory,
    environment: SsoEnvironment,
    outbound: Outbound,
    public_base_url: String,
    provider: Mutex<Option<Arc<provider::Provider>>>,
    pending: pending::Pending,
    starts: Arc<start_limit::StartLimit>,
}

/// The settings in force for one request and the provider they name.
pub struct Current {
    pub settings: SsoSettings,
    /// Admin's layer, as stored.
    stored: store::Stored,
    provider: Option<Arc<provider::Provider>>,
}

impl Current {
    /// The provider, when single sign-on is on.
    fn provider(&self) -> Result<&provider::Provider, SsoError> {
        self.provider.as_deref().ok_or(SsoError::Off)
    }

    /// `GET /api/auth/methods`: how people can sign in.
    pub fn methods(&self) -> AuthMethods {
        AuthMethods {
            password: self.settings.local_login_enabled,
            oidc: self.provider.as_ref().map(|_| SingleSignOnMethod {
                label: self.settings.button_label.clone(),
            }),
        }
    }
}

impl Sso {
    /// Needs the runtime (the start limit forgets idle addresses in the
    /// background).
    /// Single sign-on over the database, the key that seals its secrets
    /// and the sign-in history it records to.
    pub fn new(
        environment: SsoEnvironment,
        outbound: Outbound,
        public_base_url: &str,
        pool: SqlitePool,
        keyring: Arc<Keyring>,
        login_history: LoginHistory,
    ) -> Self {
        Self {
            pool,
            keyring,
            login_history,
            environment,
            outbound,
            public_base_url: public_base_url.trim_end_matches('/').to_owned(),
            provider: Mutex::new(None),
            pending: pending::Pending::default(),
            starts: start_limit::start_limit().spawn_pruning(),
        }
    }

    /// The redirect URI: exactly `PUBLIC_BASE_URL` + [`CALLBACK_PATH`].
    pub fn redirect_uri(&self) -> String {
        format!("{}{CALLBACK_PATH}", self.public_base_url)
    }

    /// The post-logout redirect URI: `PUBLIC_BASE_URL` + `/login`.
    pub fn post_logout_redirect_uri(&self) -> String {
        format!("{}{POST_LOGOUT_PATH}", self.public_base_url)
    }

    fn redirect(&self) -> Result<RedirectUrl, SsoError> {
        RedirectUrl::new(self.redirect_uri()).map_err(|_| SsoError::Off)
    }

    fn http(&self) -> http::ProviderHttp {
        http::ProviderHttp {
            outbound: self.outbound.clone(),
            allow_http: self.environment.allow_http,
        }
    }

    /// The settings in force now: the environment over Admin's.
    pub async fn current(&self, pool: &SqlitePool, keyring: &Keyring) -> Result<Current, SsoError> {
        let stored = store::stored(pool).await?;
        let layer = self.environment.layer.over(&admin_layer(&stored, keyring));
        let settings = SsoSettings::resolve(
            &layer,
            self.environment.allow_http,
            stored.local_login_break_glass,
        );
        let provider = settings
            .issuer
            .as_deref()
            .filter(|_| settings.is_on())
            .and_then(|issuer| self.provider_for(issuer));
        Ok(Current {
            settings,
            stored,
            provider,
        })
    }

    /// The provider at `issuer`: the one known, or a new one when the
    /// issuer changed (its discovery happens at first use).
    fn provider_for(&self, issuer: &str) -> Option<Arc<provider::Provider>> {
        let issuer = IssuerUrl::new(issuer.to_owned()).ok()?;
        let mut known = self.provider.lock().unwrap_or_else(PoisonError::into_inner);
        match known.as_ref() {
            Some(provider) if provider.issuer() == &issuer => Some(Arc::clone(provider)),
            _ => {
                let provider = Arc::new(provider::Provider::new(issuer, self.http()));
                *known = Some(Arc::clone(&provider));
                Some(provider)
            }
        }
    }
}

/// Admin's layer of the stored settings, the client secret opened (a secret
/// that cannot be opened counts as unset, with a warning).
fn admin_layer(stored: &store::Stored, keyring: &Keyring) -> SsoLayer {
    let client_secret = stored
        .client_secret
        .as_deref()
        .and_then(|sealed| match keyring.open(OIDC_CLIENT_SECRET, sealed) {
            Ok(secret) => Some(secret),
            Err(error) => {
                tracing::warn!(%error, "the stored OIDC client secret cannot be opened; enter it again in Admin → Authentication");
                None
            }
        });
    SsoLayer {
        issuer: stored.issuer_url.clone(),
        client_id: stored.client_id.clone(),
        client_secret,
        scopes: stored.scopes.as_deref().map(settings::scopes),
        groups_claim: stored.groups_claim.clone(),
        admin_group: stored.admin_group.clone(),
        auto_provision: stored.auto_provision,
        link_by_email: stored.link_by_email,
        button_label: stored.button_label.clone(),
        local_login_enabled: stored.local_login_enabled,
    }
}
