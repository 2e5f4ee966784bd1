//! Who is asking: the session cookie (browsers) or a personal API token
//! (`Authorization: Bearer …`, programmatic clients).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use app::ssr::auth::current;
use app::ssr::auth::users::User;

use crate::state::AppState;
use app::ssr::api_error::ApiError;

pub use app::ssr::auth::current::Credential;

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

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        match current::authenticate(&state.pool, &parts.headers).await? {
            Some(found) => Ok(Self {
                user: found.user,
                credential: found.credential,
            }),
            None => Err(ApiError::Unauthenticated),
        }
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
