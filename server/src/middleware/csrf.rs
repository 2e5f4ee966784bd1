//! CSRF protection: every state-changing request must carry the browser's
//! token (from `GET /api/auth/csrf-token`, or rendered into a page's
//! forms) in the `X-CSRF-Token` header, or, for a form a browser posts
//! without JavaScript, in its `csrf_token` field
//! (`components::csrf_field`). A request with a session cookie must send
//! the token bound to that session (`cookies::bound_csrf_token`, an HMAC
//! of the session token under the keyring's key): a token planted in the
//! browser before sign-in, or taken from another session, does not pass.
//! One without (signing in, registering) is checked by double submit: the
//! token must equal the `tally_csrf` cookie. Another site can make a
//! browser send its cookies, but cannot read them to put the token in the
//! header or the form. Requests that authenticate with a bearer token and
//! carry no cookies are exempt: nothing ambient authorises them.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method};
use axum::response::{IntoResponse, Response};

use app::backend::api_error::ApiError;
use app::backend::auth::token::{constant_time_eq, random_token};
use app::backend::cookies;
use app::backend::secrets::Keyring;
use app::domain::csrf::{well_formed, FIELD};

use super::multipart_token::first_field_token;
use crate::routes::policy::policy;

use crate::extract::MAX_API_BODY;

pub const HEADER: HeaderName = HeaderName::from_static("x-csrf-token");

/// Whether a post to `path` goes without a CSRF token: the public forms
/// (their use cases are declared `public_form`). Anyone may post them,
/// from this site or (with `CORS_ORIGIN`) another, signed in or not, and
/// the contact pages post them without JavaScript (those pages stay
/// cacheable, so they carry no token). They act for no account, so a
/// forged cross-site post gains nothing; the rate limit and bot check
/// guard them instead.
pub fn exempt(path: &str) -> bool {
    policy().csrf_exempt().iter().any(|exempt| exempt == path)
}

/// The pages that hold such forms (and everything under them): a browser
/// opening one without a CSRF cookie gets one with the page, so the page's
/// forms can carry it. The marketing pages are not among them; their
/// answers stay cacheable.
pub const FORM_PAGES: &[&str] = &[
    "/login",
    "/register",
    "/profile",
    "/tracker",
    "/bills",
    "/subscriptions",
    "/data",
    "/operations",
    "/admin",
];

/// Lets `request` through when it needs no token or carries the right one;
/// otherwise the 403. A form post's body is read (up to the API's limit)
/// to find the field, and handed on unchanged.
pub async fn check(request: Request, keyring: &Keyring) -> Result<Request, Response> {
    if is_safe(request.method())
        || bearer_without_cookies(request.headers())
        || exempt(request.uri().path())
    {
        return Ok(request);
    }
    let expected = expected_token(request.headers(), keyring);
    let sent = request
        .headers()
        .get(&HEADER)
        .and_then(|value| value.to_str().ok());
    if matches(expected.as_deref(), sent) {
        return Ok(request);
    }
    let Some(encoding) = form_post(&request) else {
        return Err(refused());
    };
    let (head, body) = request.into_parts();
    if let FormEncoding::Multipart(content_type) = encoding {
        let (field, body) = first_field_token(&content_type, body).await;
        return if matches(expected.as_deref(), field.as_deref()) {
            Ok(Request::from_parts(head, body))
        } else {
            Err(refused())
        };
    }
    let Ok(bytes) = axum::body::to_bytes(body, MAX_API_BODY).await else {
        return Err(ApiError::PayloadTooLarge {
            limit: MAX_API_BODY,
        }
        .into_response());
    };
    let field = form_urlencoded::parse(&bytes)
        .find(|(name, _)| name == FIELD)
        .map(|(_, value)| value.into_owned());
    if matches(expected.as_deref(), field.as_deref()) {
        Ok(Request::from_parts(head, Body::from(bytes)))
    } else {
        Err(refused())
    }
}

/// The token a request must send: with a session cookie, the one bound to
/// that session (whatever CSRF cookie rides along: it may have been
/// planted); without, its CSRF cookie (the double submit).
fn expected_token(headers: &HeaderMap, keyring: &Keyring) -> Option<String> {
    match cookies::session_token(headers) {
        Some(session) => cookies::bound_csrf_token(keyring, session),
        None => cookies::get(headers, cookies::CSRF).map(str::to_owned),
    }
}

/// Compared in constant time.
fn matches(expected: Option<&str>, sent: Option<&str>) -> bool {
    matches!((expected, sent), (Some(expected), Some(sent)) if !expected.is_empty() && constant_time_eq(expected, sent))
}

fn refused() -> Response {
    ApiError::Forbidden(
        "missing or mismatched CSRF token: get one from GET /api/auth/csrf-token and send it in the X-CSRF-Token header (a form sends it in its csrf_token field)"
            .into(),
    )
    .into_response()
}

/// How a form post's body carries its fields.
enum FormEncoding {
    UrlEncoded,
    /// A file form's; its content type names the boundary.
    Multipart(String),
}

/// A form post to an account form's own path or to a server function a
/// page's form posts (their use cases declare `page_form` or `form`): no
/// header can ride along, so the token comes in the form's `csrf_token`
/// field, urlencoded or, for a file form (declared `file_form`), the
/// first part of a multipart body.
fn form_post(request: &Request) -> Option<FormEncoding> {
    let path = request.uri().path();
    let form_action = policy().is_form_action(path) || policy().is_page_form(path);
    if !form_action {
        return None;
    }
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())?;
    if content_type.starts_with("application/x-www-form-urlencoded") {
        Some(FormEncoding::UrlEncoded)
    } else if content_type.starts_with("multipart/form-data")
        && policy().file_form_limit(path).is_some()
    {
        Some(FormEncoding::Multipart(content_type.to_owned()))
    } else {
        None
    }
}

/// A page of [`FORM_PAGES`] opened by a browser whose CSRF cookie is not
/// the token it should hold: signed out, without one of Tally's, a new
/// token, put in the request's cookies (so the page renders it into its
/// forms); with a session cookie, the token bound to the session (which
/// the page renders anyway), so the double submit agrees with it once the
/// session is gone. Returned for the answer's `Set-Cookie`.
pub fn issue_for_page(request: &mut Request, keyring: &Keyring) -> Option<String> {
    // The path first: most requests (the API, the health probe) are no
    // such page and need no look at their cookies.
    let path = request.uri().path();
    let page = FORM_PAGES.iter().any(|page| {
        path.strip_prefix(page)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    });
    if !page || !matches!(*request.method(), Method::GET | Method::HEAD) {
        return None;
    }
    let held = cookies::get(request.headers(), cookies::CSRF);
    let token = match cookies::session_token(request.headers()) {
        Some(session) => {
            let bound = cookies::bound_csrf_token(keyring, session)?;
            if held == Some(bound.as_str()) {
                return None;
            }
            bound
        }
        None if held.is_some_and(well_formed) => return None,
        None => random_token(),
    };
    let headers = request.headers_mut();
    // The browser's other cookies stay; a malformed CSRF cookie goes.
    let stale = format!("{}=", cookies::CSRF);
    let mut pairs: Vec<String> = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .map(str::trim)
        .filter(|pair| !pair.is_empty() && !pair.starts_with(&stale))
        .map(str::to_owned)
        .collect();
    pairs.push(format!("{}={token}", cookies::CSRF));
    let value = HeaderValue::from_str(&pairs.join("; ")).ok()?;
    headers.insert(header::COOKIE, value);
    Some(token)
}

fn is_safe(method: &Method) -> bool {
    matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    )
}

fn bearer_without_cookies(headers: &HeaderMap) -> bool {
    !headers.contains_key(header::COOKIE)
        && headers
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("Bearer "))
}
