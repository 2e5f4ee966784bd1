//! The UI's server functions (`/api/fn/…`) under the REST API's rules. Leptos
//! routes them itself, outside the API router, so three of its rules are
//! applied here:
//! - who may call each one is declared once, in [`caller`], and checked
//!   before it decodes anything ([`gate`]): anyone, a signed-in browser
//!   session (the default, so a new function is never open by accident),
//!   or an administrator's; the user found rides along in the request for
//!   the function (`api::signed_in`), so it is looked up once;
//! - a body is read up to [`MAX_API_BODY`] (more answers 413 in the JSON
//!   error shape, before the function decodes anything);
//! - a failure answers with the status its error body names (401, 404, …)
//!   where the server-function machinery alone would answer every failure
//!   500.

use app::contract::error::ErrorBody;
use app::ssr::api_error::ApiError;
use app::ssr::auth::current;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use leptos::server_fn::error::SERVER_FN_ERROR_HEADER;

use crate::extract::MAX_API_BODY;
use crate::state::AppState;

/// Where Leptos serves the server functions.
pub const PREFIX: &str = "/api/fn/";

/// Who may call a server function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    Anyone,
    SignedIn,
    Administrator,
}

/// The server functions anyone may call (by endpoint, after [`PREFIX`]):
/// signing in and joining, who is signed in, signing out, and the public
/// forms. Each still applies its own limits (throttle, bot check).
pub const ANYONE: &[&str] = &[
    "session",
    "sign-in",
    "sign-in/code",
    "sign-in/key-options",
    "sign-in/key",
    "sign-out",
    "registration",
    "register",
    "contact/config",
    "contact/lead",
    "contact/support",
];

/// The server functions a page's `ActionForm` posts: without JavaScript
/// the browser posts the form itself (no CSRF header can ride along), so
/// these take the token from the form's `csrf_token` field instead
/// (`middleware::csrf`).
pub const FORM_ACTIONS: &[&str] = &[
    "tracker/act",
    "save-bill",
    "pay-bill",
    "bill/act",
    "notifications/add-channel",
    "notifications/test-channel",
    "notifications/change-channel",
    "notifications/remove-channel",
    "notifications/save-preferences",
    "notifications/create-calendar",
    "notifications/delete-calendar",
    "admin/notifications/save-mail",
    "admin/notifications/test-email",
    "admin/notifications/run",
    "admin/bank-sync/save",
    "admin/bank-sync/run",
    "admin/authentication/save",
    "admin/authentication/discovery",
    "profile/unlink-identity",
    "profile/save-preferences",
    "profile/set-privacy",
    "data/commit-statement-import",
    "operations/cancel",
    "operations/delete",
];

/// Who may call the server function at `path`: [`ANYONE`]'s, the
/// administrator's (`admin/…`), and a signed-in user for every other.
pub fn caller(path: &str) -> Caller {
    let endpoint = path.strip_prefix(PREFIX).unwrap_or(path);
    if ANYONE.contains(&endpoint) {
        Caller::Anyone
    } else if endpoint.starts_with("admin/") {
        Caller::Administrator
    } else {
        Caller::SignedIn
    }
}

/// Checks the caller a server function declares ([`caller`]) before it
/// runs; the user found goes into the request's extensions.
pub async fn gate(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if !path.starts_with(PREFIX) {
        return next.run(request).await;
    }
    let needed = caller(path);
    if needed == Caller::Anyone {
        return next.run(request).await;
    }
    match current::authenticate_browser(&state.pool, request.headers()).await {
        Ok(Some(found)) => {
            if needed == Caller::Administrator && !found.user.is_admin() {
                return ApiError::Forbidden("administrators only".into()).into_response();
            }
            request.extensions_mut().insert(found);
            next.run(request).await
        }
        Ok(None) => ApiError::Unauthenticated.into_response(),
        Err(error) => ApiError::from(error).into_response(),
    }
}

/// Error bodies are a few hundred bytes; anything larger is not one.
const MAX_ERROR_BODY: usize = 64 * 1024;

/// Reads a server function's body within the API's limit.
pub async fn limit_body(request: Request, next: Next) -> Response {
    if !request.uri().path().starts_with(PREFIX) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    match axum::body::to_bytes(body, MAX_API_BODY).await {
        Ok(bytes) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Err(_) => ApiError::PayloadTooLarge {
            limit: MAX_API_BODY,
        }
        .into_response(),
    }
}

/// Gives a failed server function's answer the status of its error body.
/// A form posted without JavaScript is sent back to its page with the
/// error in the address instead: that redirect stays one.
pub async fn status(response: Response) -> Response {
    if !response.headers().contains_key(SERVER_FN_ERROR_HEADER)
        || response.status().is_redirection()
    {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    if let Some(status) = serde_json::from_slice::<ErrorBody>(&bytes)
        .ok()
        .and_then(|error| StatusCode::from_u16(error.error.code).ok())
        .filter(|status| status.is_client_error() || status.is_server_error())
    {
        parts.status = status;
    }
    Response::from_parts(parts, Body::from(bytes))
}
