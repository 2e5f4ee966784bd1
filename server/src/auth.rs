//! Who is asking: the session cookie (browsers) or a personal API token
//! (`Authorization: Bearer …`, programmatic clients).

use axum::extract::FromRequestParts;
use axum::http::{header, request::Parts};

use app::ssr::auth::users::User;
use app::ssr::auth::{api_tokens, sessions};

use crate::cookies;
use crate::error::ApiError;
use crate::state::AppState;

/// How the request authenticated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    /// A browser session; the id is the token's hash.
    Session { session_id: String },
    /// A personal API token.
    ApiToken,
}

/// The signed-in user; extracting it answers 401 when nobody is.
#[derive(Clone, Debug)]
pub struct CurrentUser {
    pub user: User,
    pub credential: Credential,
}

/// A signed-in administrator; 403 for everyone else.
#[derive(Clone, Debug)]
pub struct AdminUser(pub CurrentUser);

/// A user signed in with a browser session; a personal API token gets 403.
/// Making tokens and changing the password, email or second factors take a
/// person at a browser, so a leaked token cannot entrench itself (mint more
/// tokens, add a factor of its own) or weaken the account.
#[derive(Clone, Debug)]
pub struct BrowserSession {
    pub user: User,
    /// The session's id (the token's hash).
    pub session_id: String,
}

impl CurrentUser {
    /// This user, when they came with a browser session; 403 for a token.
    pub fn browser_session(self) -> Result<BrowserSession, ApiError> {
        match self.credential {
            Credential::Session { session_id } => Ok(BrowserSession {
                user: self.user,
                session_id,
            }),
            Credential::ApiToken => Err(ApiError::Forbidden(TOKEN_REFUSED.into())),
        }
    }
}

/// Why a token was refused, so a script's author knows what to do instead.
pub const TOKEN_REFUSED: &str = "an API token cannot do this: making tokens and changing the password, email or second factors need a signed-in browser session";

fn bearer(parts: &Parts) -> Option<&str> {
    parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim)
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if let Some(token) = bearer(parts) {
            return match api_tokens::authenticate(&state.pool, token).await? {
                Some(user) => Ok(Self {
                    user,
                    credential: Credential::ApiToken,
                }),
                None => Err(ApiError::Unauthenticated),
            };
        }
        if let Some(token) = cookies::get(&parts.headers, cookies::SESSION) {
            if let Some(found) = sessions::authenticate(&state.pool, token).await? {
                return Ok(Self {
                    user: found.user,
                    credential: Credential::Session {
                        session_id: found.session_id,
                    },
                });
            }
        }
        Err(ApiError::Unauthenticated)
    }
}

impl FromRequestParts<AppState> for BrowserSession {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        CurrentUser::from_request_parts(parts, state)
            .await?
            .browser_session()
    }
}

impl FromRequestParts<AppState> for AdminUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        if current.user.is_admin() {
            Ok(Self(current))
        } else {
            Err(ApiError::Forbidden("administrators only".into()))
        }
    }
}
