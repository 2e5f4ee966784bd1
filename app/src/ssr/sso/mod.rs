//! Single sign-on with OpenID Connect (issue 31): the authorization code
//! flow with PKCE, state and nonce, through the household's identity
//! provider (Authentik, Authelia, Keycloak, Pocket ID, Google).
//!
//! - `settings`: `OIDC_*`, read by the server.
//! - `rules`: which account an identity signs into, and its role.
//! - `store`: every SQL statement (identities, accounts).
//! - `service`: the use cases, starting and finishing a sign-in.
//! - `provider`, `http`: discovery and keys, fetched through the outbound
//!   guard; `pending`: sign-ins waiting for the provider; `start_limit`:
//!   20 starts per 15 minutes per address.

mod error;
mod http;
mod pending;
mod provider;
pub mod rules;
pub mod service;
pub mod settings;
mod start_limit;
mod store;

use openidconnect::{IssuerUrl, RedirectUrl};

pub use error::SsoError;
pub use settings::SsoSettings;

use crate::contract::account::{AuthMethods, SingleSignOnMethod};
use crate::ssr::outbound::Outbound;

/// The path the provider sends the browser back to.
pub const CALLBACK_PATH: &str = "/api/auth/oidc/callback";
/// The cookie binding a sign-in under way to the browser that started it.
pub const BROWSER_COOKIE: &str = "tally_sso";

/// Single sign-on as the server runs it: its settings, the provider (when
/// set up), the sign-ins waiting for it and the start limit.
pub struct Sso {
    settings: SsoSettings,
    provider: Option<provider::Provider>,
    redirect: Option<RedirectUrl>,
    pending: pending::Pending,
    starts: std::sync::Arc<start_limit::StartLimit>,
}

impl Sso {
    /// Needs the runtime (the start limit forgets idle addresses in the
    /// background). The redirect URI is exactly `public_base_url` +
    /// [`CALLBACK_PATH`].
    pub fn new(settings: SsoSettings, outbound: Outbound, public_base_url: &str) -> Self {
        let redirect = RedirectUrl::new(format!(
            "{}{CALLBACK_PATH}",
            public_base_url.trim_end_matches('/')
        ))
        .ok();
        let issuer = settings
            .issuer
            .clone()
            .filter(|_| settings.is_on())
            .and_then(|issuer| IssuerUrl::new(issuer).ok());
        let provider = issuer.map(|issuer| {
            provider::Provider::new(
                issuer,
                http::ProviderHttp {
                    outbound,
                    allow_http: settings.allow_http,
                },
            )
        });
        Self {
            settings,
            provider,
            redirect,
            pending: pending::Pending::default(),
            starts: start_limit::start_limit().spawn_pruning(),
        }
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
