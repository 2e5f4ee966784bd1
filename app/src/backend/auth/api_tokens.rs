//! Personal API tokens (v1.00): `Authorization: Bearer tally_pat_…` for
//! programmatic clients. Shown once, stored as SHA-256. Each expires (v1.04,
//! a lifetime chosen when it is made) and all of a user's tokens end with a
//! password change or "sign out everywhere". Each has scopes (v1.10,
//! `domain::token_scope`) that the REST extractors check.

use sqlx::SqlitePool;

use super::extractors::CurrentUser;
use super::store::api_tokens::{self as stored, InfoRow};
use super::token::{random_token, sha256_hex};
use super::users::{by_id, User};
use super::AuthError;
use crate::contract::tokens::{CreateToken, CreatedToken};
use crate::domain::text::{plain_text_problem, Lines};
use crate::domain::token_lifetime::TokenLifetime;
use crate::domain::token_scope::Scopes;

/// Marks Tally tokens so secret scanners and people can recognise them.
pub const PREFIX: &str = "tally_pat_";

pub use crate::contract::tokens::ApiTokenInfo;

impl From<InfoRow> for ApiTokenInfo {
    fn from(row: InfoRow) -> Self {
        // A value this code did not write counts as the least it could be.
        let scopes = Scopes::parse(&row.scopes)
            .map(Scopes::names)
            .unwrap_or_default();
        Self {
            id: row.id,
            name: row.name,
            scopes,
            created_at: row.created_at,
            last_used_at: row.last_used_at,
            expires_at: row.expires_at,
            expired: row.expired,
        }
    }
}

fn check_name(name: &str) -> Result<String, AuthError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(AuthError::field(
            "name",
            "give the token a name of 1 to 100 characters",
        ));
    }
    if let Some(problem) = plain_text_problem(name, Lines::One) {
        return Err(AuthError::field("name", problem));
    }
    Ok(name.to_owned())
}

/// Makes a token for `user`, with `scopes`, that works for `lifetime`;
/// the returned secret is shown once. Administrators' scopes only for an
/// administrator.
pub async fn create(
    pool: &SqlitePool,
    user: &User,
    name: &str,
    lifetime: TokenLifetime,
    scopes: Scopes,
) -> Result<(ApiTokenInfo, String), AuthError> {
    let name = check_name(name)?;
    if scopes.needs_admin() && !user.is_admin() {
        return Err(AuthError::field(
            "scopes",
            "admin and admin:backup are for administrators' tokens",
        ));
    }
    let token = format!("{PREFIX}{}", random_token());
    let token_hash = sha256_hex(&token);
    let lifetime = format!("+{} days", lifetime.days());
    let scopes = scopes.to_string();
    let info = stored::insert(pool, user.id, &name, &token_hash, &lifetime, &scopes).await?;
    Ok((info.into(), token))
}

/// The user's tokens that were not revoked (expired ones too), newest
/// first.
pub async fn list(pool: &SqlitePool, user_id: i64) -> Result<Vec<ApiTokenInfo>, AuthError> {
    let rows = stored::of_user(pool, user_id).await?;
    Ok(rows.into_iter().map(ApiTokenInfo::from).collect())
}

/// Revokes one of the user's tokens; false when the user has no such token.
pub async fn revoke(pool: &SqlitePool, user_id: i64, id: i64) -> Result<bool, AuthError> {
    Ok(stored::revoke(pool, user_id, id).await? == 1)
}

/// Revokes every token of the user: a new password or "sign out
/// everywhere" must also shut out whoever holds a copy of a token.
pub async fn revoke_all(pool: &SqlitePool, user_id: i64) -> Result<u64, AuthError> {
    Ok(stored::revoke_all(pool, user_id).await?)
}

/// What a revoked token answers (401), so a script's owner knows to
/// make a new one rather than look for a typing mistake.
pub const REVOKED: &str =
    "this token was revoked (a new password or \"sign out everywhere\" revokes every token); make a new one in Profile → API tokens";
/// What an expired token answers (401).
pub const EXPIRED: &str = "this token expired; make a new one in Profile → API tokens";

/// The owner of a live (not revoked, not expired) `token` and the token's
/// scopes, recording its use. A token of Tally's that was revoked or has
/// expired is refused saying which ([`REVOKED`], [`EXPIRED`]); anything
/// else is no one (`None`).
pub async fn authenticate(
    pool: &SqlitePool,
    token: &str,
) -> Result<Option<(User, Scopes)>, AuthError> {
    if !token.starts_with(PREFIX) {
        return Ok(None);
    }
    let token_hash = sha256_hex(token);
    let Some((id, scopes)) = stored::use_live(pool, &token_hash).await? else {
        return match stored::why_not_live(pool, &token_hash).await? {
            Some((true, _)) => Err(AuthError::TokenRefused(REVOKED)),
            Some((false, true)) => Err(AuthError::TokenRefused(EXPIRED)),
            // Its owner's account is disabled, or it was never made here.
            _ => Ok(None),
        };
    };
    // Scopes this code did not write make the token do nothing.
    let Ok(scopes) = Scopes::parse(&scopes) else {
        tracing::warn!(
            user = id,
            "an API token's stored scopes are not readable; refused"
        );
        return Ok(None);
    };
    Ok(by_id(pool, id).await?.map(|user| (user, scopes)))
}

/// Makes a token as `request` asks (the default lifetime when it names
/// none). Only a browser session makes tokens: a token that could mint
/// more would outlive its own expiry and revocation. The token is in the
/// answer once; only its hash is kept.
pub async fn create_requested(
    pool: &SqlitePool,
    current: &CurrentUser,
    request: &CreateToken,
) -> Result<CreatedToken, AuthError> {
    let session = current.clone().browser_session()?;
    let lifetime = match request.expires_in_days {
        None => TokenLifetime::default(),
        Some(days) => TokenLifetime::parse(days)
            .map_err(|error| AuthError::field("expiresInDays", format!("{error}")))?,
    };
    let scopes = match &request.scopes {
        None => Scopes::DEFAULT,
        Some(names) => Scopes::from_names(names)
            .map_err(|error| AuthError::field("scopes", format!("{error}")))?,
    };
    let (info, token) = create(pool, &session.user, &request.name, lifetime, scopes).await?;
    Ok(CreatedToken { token, info })
}

/// Revokes one of `user_id`'s own tokens; 404 for any other id.
pub async fn revoke_own(pool: &SqlitePool, user_id: i64, id: i64) -> Result<(), AuthError> {
    if revoke(pool, user_id, id).await? {
        Ok(())
    } else {
        Err(AuthError::NotFound(format!("no API token {id}")))
    }
}
