//! Who is asking: a personal API token (`Authorization: Bearer …`,
//! programmatic clients) or the session cookie (browsers). One answer for
//! the REST extractors and the server functions alike.

use http::{header, HeaderMap};
use sqlx::SqlitePool;

use super::users::User;
use super::{api_tokens, sessions, AuthError};
use crate::ssr::cookies;

/// Why a token was refused, so a script's author knows what to do instead.
pub const TOKEN_REFUSED: &str = "an API token cannot do this: making tokens and changing the password, email or second factors need a signed-in browser session";

/// How the request authenticated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    /// A browser session; the id is the token's hash.
    Session { session_id: String },
    /// A personal API token.
    ApiToken,
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
/// is not rescued by a cookie.
pub async fn authenticate(
    pool: &SqlitePool,
    headers: &HeaderMap,
) -> Result<Option<CurrentUser>, AuthError> {
    if let Some(token) = bearer(headers) {
        return Ok(api_tokens::authenticate(pool, token)
            .await?
            .map(|user| CurrentUser {
                user,
                credential: Credential::ApiToken,
            }));
    }
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
