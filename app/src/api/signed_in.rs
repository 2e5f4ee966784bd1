//! Who a server function serves: the database pool the server put in
//! context and the user the request's session cookie (or API token) stands
//! for, found by the same `authenticate` as the REST extractors. Server
//! build only.

use leptos::prelude::use_context;
use sqlx::SqlitePool;

use crate::contract::account::User;
use crate::ssr::api_error::ApiError;
use crate::ssr::auth::current;

/// A signed-in user and the pool to serve them from.
pub struct SignedIn {
    pub pool: SqlitePool,
    pub user: User,
}

/// The signed-in user; `Unauthenticated` (401) when nobody is.
pub async fn signed_in() -> Result<SignedIn, ApiError> {
    let pool = use_context::<SqlitePool>()
        .ok_or_else(|| ApiError::Internal("no database pool in the server context".into()))?;
    let headers: http::HeaderMap = leptos_axum::extract()
        .await
        .map_err(|error| ApiError::Internal(format!("request headers: {error}")))?;
    let found = current::authenticate(&pool, &headers)
        .await?
        .ok_or(ApiError::Unauthenticated)?;
    Ok(SignedIn {
        pool,
        user: found.user,
    })
}

/// The signed-in administrator; `Forbidden` (403) for anyone else.
pub async fn administrator() -> Result<SignedIn, ApiError> {
    let signed_in = signed_in().await?;
    if signed_in.user.is_admin() {
        Ok(signed_in)
    } else {
        Err(ApiError::Forbidden("administrators only".into()))
    }
}
