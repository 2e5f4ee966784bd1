//! The HTTP side of a session: the answer that signs a browser in (the
//! user, or the challenge of the second step, with the session cookie), the
//! one that signs it out, and the `User-Agent` a session is recorded with.
//! Shared by the sign-in, registration and security-key routes. The CSRF
//! cookie that goes with the session set or cleared here is added by the
//! front door (`csrf_cookie::follow_session`), for these answers and every
//! other door's alike.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use app::backend::auth::entrance::{Answered, Visitor};
use app::backend::auth::sessions;
use app::backend::client_ip::ClientIp;

use crate::state::AppState;
use app::backend::cookies;

const SESSION_MAX_AGE: i64 = sessions::LIFETIME_DAYS * 24 * 3600;

/// Who is signing in: the client's address, its `User-Agent` and its
/// device cookie.
pub fn visitor(ClientIp(ip): ClientIp, headers: &HeaderMap) -> Visitor {
    Visitor {
        ip,
        user_agent: headers
            .get(header::USER_AGENT)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned),
        device: cookies::get(headers, cookies::DEVICE).map(str::to_owned),
    }
}

/// A sign-in step's answer as JSON, with the session and device cookies
/// when it started a session.
pub fn answered(state: &AppState, answered: Answered) -> Response {
    let mut response = Json(answered.answer).into_response();
    if let Some(cookie) = answered
        .session
        .and_then(|token| new_session_cookie(state, &token))
    {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    if let Some(cookie) = answered
        .device
        .and_then(|value| cookies::device(&value, state.secure_cookies()))
    {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// The session cookie of a session just started (its whole lifetime).
pub fn new_session_cookie(state: &AppState, token: &str) -> Option<HeaderValue> {
    session_cookie(state, token, SESSION_MAX_AGE)
}

fn session_cookie(state: &AppState, token: &str, max_age: i64) -> Option<HeaderValue> {
    cookies::session(token, max_age, state.secure_cookies())
}

/// Signed out: `{"redirect": …}` to sign out at the identity provider
/// too, or no content; the session cookie cleared either way.
pub fn signed_out_to(state: &AppState, answer: app::contract::account::SignedOut) -> Response {
    if answer.redirect.is_none() {
        return signed_out(state);
    }
    let mut response = Json(answer).into_response();
    if let Some(cookie) = session_cookie(state, "", 0) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// No content, and the session cookie cleared.
pub fn signed_out(state: &AppState) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    if let Some(cookie) = session_cookie(state, "", 0) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}
