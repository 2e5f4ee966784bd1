//! Who a server function serves: the services the server put in context
//! and the user the request's session cookie (or API token) stands for,
//! found by the same `authenticate` as the REST extractors. Server build
//! only.

use std::sync::Arc;

use crate::ssr::api_error::ApiError;
use crate::ssr::auth::current::{self, CurrentUser};
use crate::ssr::client_ip::ClientIp;
use crate::ssr::services::{self, Services};

/// A signed-in user, how they came, and the services to serve them with.
pub struct SignedIn {
    pub services: Arc<Services>,
    pub current: CurrentUser,
}

impl SignedIn {
    /// The client's address, found as the REST routes' `ClientIp` finds
    /// it (forwarding headers count from trusted proxies only).
    pub fn client_ip(&self) -> Result<std::net::IpAddr, ApiError> {
        use axum::extract::ConnectInfo;
        let parts = leptos::prelude::use_context::<http::request::Parts>()
            .ok_or_else(|| ApiError::Internal("no request in the server context".into()))?;
        let peer = parts
            .extensions
            .get::<ConnectInfo<std::net::SocketAddr>>()
            .map(|ConnectInfo(addr)| *addr);
        Ok(ClientIp::of(&self.services.trusted_proxies, peer, &parts.headers).0)
    }

    /// The database, as the services hold it.
    pub fn pool(&self) -> &sqlx::SqlitePool {
        &self.services.pool
    }
}

/// The request's headers.
async fn headers() -> Result<http::HeaderMap, ApiError> {
    leptos_axum::extract()
        .await
        .map_err(|error| ApiError::Internal(format!("request headers: {error}")))
}

/// The signed-in user; `Unauthenticated` (401) when nobody is.
pub async fn signed_in() -> Result<SignedIn, ApiError> {
    let services = services::from_context()?;
    let current = current::authenticate(&services.pool, &headers().await?)
        .await?
        .ok_or(ApiError::Unauthenticated)?;
    Ok(SignedIn { services, current })
}

/// The signed-in administrator; `Forbidden` (403) for anyone else.
pub async fn administrator() -> Result<SignedIn, ApiError> {
    let signed_in = signed_in().await?;
    if signed_in.current.user.is_admin() {
        Ok(signed_in)
    } else {
        Err(ApiError::Forbidden("administrators only".into()))
    }
}
