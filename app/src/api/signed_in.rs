//! Who a server function serves: the services the server put in context
//! and the user the request's session cookie (or API token) stands for,
//! found by the same `authenticate` as the REST extractors; or, before
//! signing in, the visitor's address and browser. Server build only.

use std::sync::Arc;

use crate::backend::api_error::ApiError;
use crate::backend::auth::current::{self, CurrentUser};
use crate::backend::auth::entrance::{Answered, Visitor};
use crate::backend::client_ip::ClientIp;
use crate::backend::services::Services;
use crate::contract::account::SignInAnswer;

/// The services a server function runs on, from the context the server
/// provides to every page and server-function request.
pub fn services() -> Result<Arc<Services>, ApiError> {
    leptos::prelude::use_context::<Arc<Services>>()
        .ok_or_else(|| ApiError::Internal("no services in the server context".into()))
}

/// A signed-in user, how they came, and the services to serve them with.
pub struct SignedIn {
    pub services: Arc<Services>,
    pub current: CurrentUser,
}

impl SignedIn {
    /// The client's address, found as the REST routes' `ClientIp` finds
    /// it (forwarding headers count from trusted proxies only).
    pub fn client_ip(&self) -> Result<std::net::IpAddr, ApiError> {
        client_ip(&self.services)
    }

    /// The database, as the services hold it.
    pub fn pool(&self) -> &sqlx::SqlitePool {
        &self.services.pool
    }
}

/// The client's address, found as the REST routes' `ClientIp` finds it.
fn client_ip(services: &Services) -> Result<std::net::IpAddr, ApiError> {
    use axum::extract::ConnectInfo;
    let parts = leptos::prelude::use_context::<http::request::Parts>()
        .ok_or_else(|| ApiError::Internal("no request in the server context".into()))?;
    let peer = parts
        .extensions
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|ConnectInfo(addr)| *addr);
    Ok(ClientIp::of(&services.trusted_proxies, peer, &parts.headers).0)
}

/// Someone who is not signed in yet: the services, and the visitor's
/// address and browser (for the throttle, the history and the session).
pub async fn visitor() -> Result<(Arc<Services>, Visitor), ApiError> {
    let services = services()?;
    let ip = client_ip(&services)?;
    let headers = headers().await?;
    let user_agent = headers
        .get(http::header::USER_AGENT)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let device =
        crate::backend::cookies::get(&headers, crate::backend::cookies::DEVICE).map(str::to_owned);
    Ok((
        services,
        Visitor {
            ip,
            user_agent,
            device,
        },
    ))
}

/// How long a session cookie lasts: as long as the session.
pub const SESSION_MAX_AGE: i64 = crate::backend::auth::sessions::LIFETIME_DAYS * 24 * 3600;

/// Sets the session cookie on the response (`max_age` 0 and an empty token
/// clear it). The server's front door adds the CSRF cookie that goes with
/// it (the token bound to the new session, or a fresh one after sign-out).
pub fn set_session_cookie(services: &Services, token: &str, max_age: i64) {
    let cookie = crate::backend::cookies::session(token, max_age, services.secure_cookies());
    if let (Some(cookie), Some(response)) = (
        cookie,
        leptos::prelude::use_context::<leptos_axum::ResponseOptions>(),
    ) {
        response.append_header(http::header::SET_COOKIE, cookie);
    }
}

/// A sign-in step's answer for the page, with the cookies of the session
/// it started and of the browser as a known device.
pub fn with_session_cookie(services: &Services, answered: Answered) -> SignInAnswer {
    if let Some(token) = &answered.session {
        set_session_cookie(services, token, SESSION_MAX_AGE);
    }
    if let (Some(cookie), Some(response)) = (
        answered
            .device
            .as_deref()
            .and_then(|value| crate::backend::cookies::device(value, services.secure_cookies())),
        leptos::prelude::use_context::<leptos_axum::ResponseOptions>(),
    ) {
        response.append_header(http::header::SET_COOKIE, cookie);
    }
    answered.answer
}

/// The request's headers.
async fn headers() -> Result<http::HeaderMap, ApiError> {
    leptos_axum::extract()
        .await
        .map_err(|error| ApiError::Internal(format!("request headers: {error}")))
}

/// The signed-in user; `Unauthenticated` (401) when nobody is.
pub async fn signed_in() -> Result<SignedIn, ApiError> {
    maybe_signed_in().await?.ok_or(ApiError::Unauthenticated)
}

/// The signed-in user, if the use case of the server function `F` lets
/// them call it: `Unauthenticated` (401) when nobody is signed in,
/// `Forbidden` (403) when it is declared for administrators and they are
/// not one. A server function asks this rather than saying who may call
/// it, so the declaration (`server/src/routes/use_cases.rs`) is the one
/// place that says it; over HTTP the server's gate has asked the same
/// already, and a page rendering on the server asks it here.
pub async fn as_declared<F: leptos::server_fn::ServerFn>() -> Result<SignedIn, ApiError> {
    use crate::backend::page_caller::PageCaller;
    let me = signed_in().await?;
    match (me.services.page_callers)(F::PATH) {
        Some(PageCaller::Administrator) if !me.current.user.is_admin() => {
            Err(ApiError::Forbidden("administrators only".into()))
        }
        Some(_) => Ok(me),
        None => Err(ApiError::NotFound(format!(
            "no server function at {}",
            F::PATH
        ))),
    }
}

/// Who is signed in at this browser, if anyone; an answer made for
/// someone is marked as theirs ([`mark_personal`]).
pub async fn maybe_signed_in() -> Result<Option<SignedIn>, ApiError> {
    let services = services()?;
    // Over HTTP the server's gate already found the user (and refused
    // everyone else); while a page renders, or for a use case anyone may
    // call, it is looked up here.
    let found = leptos::prelude::use_context::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<CurrentUser>().cloned());
    let current = match found {
        Some(current) => Some(current),
        None => current::authenticate_browser(&services.pool, &headers().await?).await?,
    };
    if current.is_some() {
        mark_personal();
    }
    Ok(current.map(|current| SignedIn { services, current }))
}

/// The response header that says a user was found while answering (a page
/// rendered for someone): the server's page cache never keeps such a page,
/// and the front door takes the header off before it leaves.
pub const PERSONAL: &str = "x-tally-personal";

/// Marks the response being made as someone's own.
pub fn mark_personal() {
    if let Some(response) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
        response.insert_header(
            http::HeaderName::from_static(PERSONAL),
            http::HeaderValue::from_static("1"),
        );
    }
}

/// The signed-in administrator, confirmed by `current_password` (the
/// account-level actions: `backend::auth::admin::confirm`).
pub async fn confirmed_administrator(
    current_password: &str,
) -> Result<(Arc<Services>, crate::backend::auth::admin::ConfirmedAdmin), ApiError> {
    let signed_in = signed_in().await?;
    let ip = signed_in.client_ip()?;
    let session = signed_in.current.browser_session()?;
    let admin = crate::backend::auth::admin::confirm(
        &signed_in.services.auth,
        session,
        ip,
        current_password,
    )
    .await?;
    Ok((signed_in.services, admin))
}
