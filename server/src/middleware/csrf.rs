//! CSRF protection by double submit: every state-changing request must carry
//! an `X-CSRF-Token` header equal to the `tally_csrf` cookie (from
//! `GET /api/auth/csrf-token`). Another site can make a browser send the
//! cookie, but cannot read it to set the header. Requests that authenticate
//! with a bearer token and carry no cookies are exempt: nothing ambient
//! authorises them.

use axum::extract::Request;
use axum::http::{header, HeaderName, HeaderValue, Method};
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

/// Forms a browser posts without JavaScript (`routes::forms`): no header
/// can ride along, so the browser's `Origin` must name this very host
/// instead (Chromium, Firefox and Safari send it on every form post).
pub const FORM_POSTS: &[&str] = crate::routes::forms::PATHS;

/// The 403 for a state-changing request without the matching token.
pub fn refusal(request: &Request) -> Option<Response> {
    if is_safe(request.method())
        || bearer_without_cookies(request)
        || EXEMPT.contains(&request.uri().path())
        || same_origin_form(request)
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

/// A form post to one of [`FORM_POSTS`] (or a server function a page's
/// `ActionForm` posts, [`super::server_fns::FORM_ACTIONS`]) whose `Origin`
/// is this host.
fn same_origin_form(request: &Request) -> bool {
    let path = request.uri().path();
    let form_action = path
        .strip_prefix(super::server_fns::PREFIX)
        .is_some_and(|endpoint| super::server_fns::FORM_ACTIONS.contains(&endpoint));
    if !FORM_POSTS.contains(&path) && !form_action {
        return false;
    }
    let headers = request.headers();
    let value = |name| {
        headers
            .get(name)
            .and_then(|value: &HeaderValue| value.to_str().ok())
    };
    match (value(header::ORIGIN), value(header::HOST)) {
        (Some(origin), Some(host)) => origin
            .split_once("://")
            .is_some_and(|(_, origin_host)| origin_host.eq_ignore_ascii_case(host)),
        _ => false,
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
