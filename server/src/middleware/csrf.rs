//! CSRF protection by double submit: every state-changing request must carry
//! an `X-CSRF-Token` header equal to the `tally_csrf` cookie (from
//! `GET /api/auth/csrf-token`). Another site can make a browser send the
//! cookie, but cannot read it to set the header. Requests that authenticate
//! with a bearer token and carry no cookies are exempt: nothing ambient
//! authorises them.

use axum::extract::Request;
use axum::http::{header, HeaderName, Method};
use axum::response::{IntoResponse, Response};

use app::ssr::auth::token::constant_time_eq;

use app::ssr::api_error::ApiError;
use app::ssr::cookies;

pub const HEADER: HeaderName = HeaderName::from_static("x-csrf-token");

/// The public forms: anyone may post them, from this site or (with
/// `CORS_ORIGIN`) another, signed in or not. They act for no account, so a
/// forged cross-site post gains nothing; the rate limit and bot check guard
/// them instead.
pub const EXEMPT: &[&str] = &["/api/leads", "/api/support"];

/// The 403 for a state-changing request without the matching token.
pub fn refusal(request: &Request) -> Option<Response> {
    if is_safe(request.method())
        || bearer_without_cookies(request)
        || EXEMPT.contains(&request.uri().path())
    {
        return None;
    }
    let headers = request.headers();
    let cookie = cookies::get(headers, cookies::CSRF);
    let sent = headers.get(&HEADER).and_then(|value| value.to_str().ok());
    match (cookie, sent) {
        (Some(cookie), Some(sent)) if !cookie.is_empty() && constant_time_eq(cookie, sent) => None,
        _ => Some(ApiError::Forbidden(
            "missing or mismatched CSRF token: get one from GET /api/auth/csrf-token and send it in the X-CSRF-Token header"
                .into(),
        )
        .into_response()),
    }
}

fn is_safe(method: &Method) -> bool {
    matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    )
}

fn bearer_without_cookies(request: &Request) -> bool {
    let headers = request.headers();
    !headers.contains_key(header::COOKIE)
        && headers
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("Bearer "))
}
