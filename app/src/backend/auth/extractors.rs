//! The REST routes' extractors of who is asking (the session cookie or a
//! personal API token, through [`current::authenticate`]): any router
//! whose state yields the app's [`Services`] can use them. Server functions
//! ask the same question through `api::signed_in` (sessions only).
//!
//! Each extractor is a route's declaration of who may call it, and for a
//! token, which scope it needs (`domain::token_scope`):
//! - [`CurrentUser`]: anyone signed in; a token needs `read` for GET and
//!   HEAD, `write` for every other method.
//! - [`OperationsCaller`]: the operations API; reading and waiting need
//!   `read` or `admin:backup` (a backup script follows its operation),
//!   cancelling and deleting need `write`.
//! - [`AdminUser`]: an administrator; a token needs `admin`.
//! - [`BackupAdmin`]: an administrator; a token needs `admin:backup`.
//! - [`BrowserSession`]: a browser session; no token at all.
//! - [`AdminSession`]: an administrator's browser session; no token at
//!   all (the account-level actions, which then ask for the password:
//!   `admin::confirm`).

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::Method;

use super::current::{self, Credential, TOKEN_REFUSED};
use super::users::User;
use super::AuthError;
use crate::backend::api_error::ApiError;
use crate::backend::services::Services;
use crate::domain::token_scope::Scope;

/// The signed-in user; extracting it answers 401 when nobody is.
pub use super::current::CurrentUser;

/// A signed-in administrator; 403 for everyone else.
#[derive(Clone, Debug)]
pub struct AdminUser(pub CurrentUser);

/// A signed-in administrator for the backup routes; a token needs the
/// `admin:backup` scope.
#[derive(Clone, Debug)]
pub struct BackupAdmin(pub CurrentUser);

/// An administrator's browser session; 403 for a token, whatever its
/// scopes, and for everyone who is not an administrator.
#[derive(Clone, Debug)]
pub struct AdminSession(pub BrowserSession);

/// A signed-in caller of the operations API (see the module's list).
#[derive(Clone, Debug)]
pub struct OperationsCaller(pub CurrentUser);

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
    pub fn browser_session(self) -> Result<BrowserSession, AuthError> {
        match self.credential {
            Credential::Session { session_id } => Ok(BrowserSession {
                user: self.user,
                session_id,
            }),
            Credential::ApiToken { .. } => Err(AuthError::Forbidden(TOKEN_REFUSED.into())),
        }
    }

    /// This user, when a token they came with has one of `scopes`; a
    /// browser session may do whatever its user may.
    pub fn with_scope(self, scopes: &[Scope]) -> Result<Self, AuthError> {
        match &self.credential {
            Credential::Session { .. } => Ok(self),
            Credential::ApiToken { scopes: held } => {
                if scopes.iter().any(|scope| held.contains(*scope)) {
                    Ok(self)
                } else {
                    let needed: Vec<&str> = scopes.iter().map(|scope| scope.as_str()).collect();
                    Err(AuthError::Forbidden(format!(
                        "this API token's scopes ({held}) do not allow this; it needs {}",
                        needed.join(" or ")
                    )))
                }
            }
        }
    }

    fn administrator(self) -> Result<Self, AuthError> {
        if self.user.is_admin() {
            Ok(self)
        } else {
            Err(AuthError::Forbidden("administrators only".into()))
        }
    }
}

/// Whoever the request's token or cookie stands for, before any scope.
/// Looked up once a request: the REST door's gate asks first (for the
/// caller its use case declares) and the handler's extractor then finds
/// the answer kept in the request.
async fn caller<S>(parts: &mut Parts, state: &S) -> Result<CurrentUser, ApiError>
where
    Arc<Services>: FromRef<S>,
{
    if let Some(Authenticated(found)) = parts.extensions.get::<Authenticated>() {
        return Ok(found.clone());
    }
    let services = Arc::<Services>::from_ref(state);
    let found = current::authenticate(&services.pool, &parts.headers)
        .await?
        .ok_or(ApiError::Unauthenticated)?;
    parts.extensions.insert(Authenticated(found.clone()));
    Ok(found)
}

/// The caller found for this request, kept in its extensions. A type of
/// its own, so nothing else put there (the server functions' gate keeps
/// a browser session's user) is taken for it.
#[derive(Clone)]
struct Authenticated(CurrentUser);

/// What a token needs for a method: reading changes nothing.
fn by_method(method: &Method) -> Scope {
    if method == Method::GET || method == Method::HEAD {
        Scope::Read
    } else {
        Scope::Write
    }
}

impl<S> FromRequestParts<S> for CurrentUser
where
    Arc<Services>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Ok(caller(parts, state)
            .await?
            .with_scope(&[by_method(&parts.method)])?)
    }
}

impl<S> FromRequestParts<S> for OperationsCaller
where
    Arc<Services>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        // `POST …:wait` only waits (google.longrunning's WaitOperation).
        let reading =
            by_method(&parts.method) == Scope::Read || parts.uri.path().ends_with(":wait");
        let needed: &[Scope] = if reading {
            &[Scope::Read, Scope::AdminBackup]
        } else {
            &[Scope::Write]
        };
        Ok(Self(caller(parts, state).await?.with_scope(needed)?))
    }
}

impl<S> FromRequestParts<S> for BackupAdmin
where
    Arc<Services>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let current = caller(parts, state).await?.administrator()?;
        Ok(Self(current.with_scope(&[Scope::AdminBackup])?))
    }
}

impl<S> FromRequestParts<S> for BrowserSession
where
    Arc<Services>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Ok(caller(parts, state).await?.browser_session()?)
    }
}

impl<S> FromRequestParts<S> for AdminUser
where
    Arc<Services>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let current = caller(parts, state).await?.administrator()?;
        Ok(Self(current.with_scope(&[Scope::Admin])?))
    }
}

impl<S> FromRequestParts<S> for AdminSession
where
    Arc<Services>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let current = caller(parts, state).await?.administrator()?;
        if let Credential::ApiToken { .. } = current.credential {
            return Err(ApiError::Forbidden(super::admin::NEEDS_A_PERSON.into()));
        }
        Ok(Self(current.browser_session()?))
    }
}
