//! The REST routes' extractors of who is asking (the session cookie or a
//! personal API token, through [`current::authenticate`]): any router
//! whose state yields the app's [`Services`] can use them. Server functions
//! ask the same question through `api::signed_in`.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;

use super::current::{self, Credential, TOKEN_REFUSED};
use super::users::User;
use crate::ssr::api_error::ApiError;
use crate::ssr::services::Services;

/// The signed-in user; extracting it answers 401 when nobody is.
pub use super::current::CurrentUser;

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

impl<S> FromRequestParts<S> for CurrentUser
where
    Arc<Services>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let services = Arc::<Services>::from_ref(state);
        current::authenticate(&services.pool, &parts.headers)
            .await?
            .ok_or(ApiError::Unauthenticated)
    }
}

impl<S> FromRequestParts<S> for BrowserSession
where
    Arc<Services>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        CurrentUser::from_request_parts(parts, state)
            .await?
            .browser_session()
    }
}

impl<S> FromRequestParts<S> for AdminUser
where
    Arc<Services>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        if current.user.is_admin() {
            Ok(Self(current))
        } else {
            Err(ApiError::Forbidden("administrators only".into()))
        }
    }
}
