//! Who is asking: a personal API token (`Authorization: Bearer …`,
//! programmatic clients, REST routes only) or the session cookie
//! (browsers: REST routes, server functions and the pages they render).

use http::{header, HeaderMap};
use sqlx::SqlitePool;

use super::users::User;
use super::{api_tokens, sessions, AuthError};
use crate::backend::cookies;
use crate::domain::token_scope::Scopes;

/// Why a token was refused, so a script's author knows what to do instead.
pub const TOKEN_REFUSED: &str = "an API token cannot do this: making tokens and changing the password, email or second factors need a signed-in browser session";

/// How the request authenticated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    /// A browser session; the id is the token's hash.
    Session { session_id: String },
    /// A personal API token and what it may do.
    ApiToken { scopes: Scopes },
}

/// A signed-in user and how they came: what `authenticate` finds, and the
/// REST routes' extractor of it (`extractors`).
#[derive(Clone, Debug)]
pub struct CurrentUser {
    pub user: User,
    pub credential: Credential,
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim)
}

/// The user the request's token or session cookie stands for; `None` when
/// neither is valid. A bearer token, when sent, decides alone: a bad token
/// is not rescued by a cookie. For the REST routes.
pub async fn authenticate(
    pool: &SqlitePool,
    headers: &HeaderMap,
) -> Result<Option<CurrentUser>, AuthError> {
    if let Some(token) = bearer(headers) {
        return Ok(api_tokens::authenticate(pool, token)
            .await?
            .map(|(user, scopes)| CurrentUser {
                user,
                credential: Credential::ApiToken { scopes },
            }));
    }
    authenticate_browser(pool, headers).await
}

/// The user the request's session cookie stands for, ignoring any
/// `Authorization` header: what pages and server functions see. A page
/// rendered for a bearer token would show that user's name in a layout
/// meant for browsers (and, once, in the anonymous page cache); tokens are
/// for the REST API, where their scopes are checked.
pub async fn authenticate_browser(
    pool: &SqlitePool,
    headers: &HeaderMap,
) -> Result<Option<CurrentUser>, AuthError> {
    let Some(token) = cookies::get(headers, cookies::SESSION) else {
        return Ok(None);
    };
    Ok(sessions::authenticate(pool, token)
        .await?
        .map(|found| CurrentUser {
            user: found.user,
            credential: Credential::Session {
                session_id: found.session_id,
            },
        }))
}
