//! The UI's server functions (`/api/fn/…`) under the REST API's rules. Leptos
//! routes them itself, outside the API router, so three of its rules are
//! applied here:
//! - who may call each one is declared once, with its use case
//!   (`routes::use_cases`), and checked before it decodes anything
//!   ([`gate`]): anyone, a signed-in browser session, or an
//!   administrator's (a function no use case names is not served); the
//!   user found rides along in the request for the function
//!   (`api::signed_in`), so it is looked up once; a form posted without
//!   JavaScript by someone signed out is sent to sign in, and back;
//! - a body is read up to [`MAX_API_BODY`] (more answers 413 in the JSON
//!   error shape, before the function decodes anything), except a file
//!   form's, which must be multipart and is counted by its function;
//! - a failure answers with the status its error body names (401, 404, …)
//!   where the server-function machinery alone would answer every failure
//!   500.

use app::backend::api_error::ApiError;
use app::backend::auth::current;
use app::contract::error::ErrorBody;
use app::domain::redirect;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{ACCEPT, CONTENT_LENGTH, CONTENT_TYPE, REFERER};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::BoxError;
use futures::StreamExt;
use leptos::server_fn::error::SERVER_FN_ERROR_HEADER;

use crate::extract::MAX_API_BODY;
use crate::routes::forms::answer::sign_in_first;
use crate::routes::policy::{policy, SERVER_FN_PREFIX};
pub use crate::routes::use_case::{Caller, PageCaller};
use crate::state::AppState;

/// Where Leptos serves the server functions.
pub const PREFIX: &str = SERVER_FN_PREFIX;

/// Who may call the server function at `path`, as its use case declares
/// (`routes::use_cases`); `None` for one no use case names.
pub fn caller(path: &str) -> Option<Caller> {
    policy().server_fn_caller(path)
}

/// Serves only the server functions a use case declares, and checks the
/// caller it declares ([`caller`]) before the function runs; the user
/// found goes into the request's extensions. One no use case declares is
/// not found, so a server function is mounted by its declaration as a
/// REST route is.
pub async fn gate(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if !path.starts_with(PREFIX) {
        return next.run(request).await;
    }
    let Some(declared) = caller(path) else {
        return ApiError::NotFound(format!("no server function at {path}")).into_response();
    };
    let needed = declared.at_a_browser();
    if needed == PageCaller::Anyone {
        return next.run(request).await;
    }
    match current::authenticate_browser(&state.pool, request.headers()).await {
        Ok(Some(found)) => {
            if needed == PageCaller::Administrator && !found.user.is_admin() {
                return ApiError::Forbidden("administrators only".into()).into_response();
            }
            request.extensions_mut().insert(found);
            next.run(request).await
        }
        Ok(None) if plain_form_post(request.headers()) => {
            sign_in_first(&page_posted_from(request.headers()))
        }
        Ok(None) => ApiError::Unauthenticated.into_response(),
        Err(error) => ApiError::from(error).into_response(),
    }
}

/// A browser's own form post (no JavaScript) asks for a page; the server
/// function client asks for data.
fn plain_form_post(headers: &HeaderMap) -> bool {
    headers
        .get(ACCEPT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"))
}

/// The page of this site a form was posted from (its `Referer`'s path and
/// query), where signing in leads back to; Tally's home page when that is
/// missing or not a plain path.
fn page_posted_from(headers: &HeaderMap) -> String {
    let posted_from = headers
        .get(REFERER)
        .and_then(|value| value.to_str().ok())
        .and_then(|referer| referer.parse::<Uri>().ok())
        .and_then(|uri| uri.path_and_query().map(|page| page.as_str().to_owned()));
    redirect::next_or_default(posted_from.as_deref())
}

/// Error bodies are a few hundred bytes; anything larger is not one.
const MAX_ERROR_BODY: usize = 64 * 1024;

/// What a file form's body may hold besides its file: the boundaries, each
/// part's headers and its short fields (`api::form_parts::MAX_PARTS` of
/// them at most).
pub const FILE_FORM_ALLOWANCE: usize = 64 * 1024;

/// Reads a server function's body within the API's limit. A file form's
/// body is left to arrive as it comes (its function counts the file and
/// the parts), once it is multipart with a boundary: Leptos cannot decode
/// anything else there. It is cut off past its file's limit and
/// [`FILE_FORM_ALLOWANCE`], so parts the function skips are not read
/// without end either; a body declared longer is refused unread.
pub async fn limit_body(request: Request, next: Next) -> Response {
    if !request.uri().path().starts_with(PREFIX) {
        return next.run(request).await;
    }
    if let Some(limit) = policy().file_form_limit(request.uri().path()) {
        let multipart = request
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| multer::parse_boundary(value).is_ok());
        if !multipart {
            return ApiError::BadRequest("send the file as multipart/form-data".into())
                .into_response();
        }
        let cap = limit.saturating_add(FILE_FORM_ALLOWANCE);
        if declared_length(request.headers()).is_some_and(|length| length > cap as u64) {
            return ApiError::PayloadTooLarge { limit: cap }.into_response();
        }
        let (parts, body) = request.into_parts();
        return next
            .run(Request::from_parts(parts, capped(body, cap)))
            .await;
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

/// The body's `Content-Length`, when it declares one.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse().ok())
}

/// `body`, ending in an error once more than `cap` bytes have come: the
/// reader (the multipart parser) stops there, and nothing past it is read.
fn capped(body: Body, cap: usize) -> Body {
    let mut seen: usize = 0;
    let chunks = body
        .into_data_stream()
        .map(move |chunk| -> Result<Bytes, BoxError> {
            let chunk = chunk?;
            seen = seen.saturating_add(chunk.len());
            if seen > cap {
                Err(BoxError::from(format!(
                    "the form is larger than {cap} bytes"
                )))
            } else {
                Ok(chunk)
            }
        });
    Body::from_stream(chunks)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn body_of(chunks: &[&'static str]) -> Body {
        let chunks: Vec<Result<Bytes, std::io::Error>> =
            chunks.iter().map(|chunk| Ok(Bytes::from(*chunk))).collect();
        Body::from_stream(futures::stream::iter(chunks))
    }

    #[tokio::test]
    async fn a_capped_body_is_whole_up_to_its_cap_and_cut_off_past_it() {
        let whole = axum::body::to_bytes(capped(body_of(&["01234", "56789"]), 10), usize::MAX)
            .await
            .unwrap();
        assert_eq!(whole, "0123456789");
        let over =
            axum::body::to_bytes(capped(body_of(&["01234", "56789", "x"]), 10), usize::MAX).await;
        assert!(over.is_err());
    }

    #[test]
    fn a_declared_length_is_read_when_it_is_a_number() {
        let mut headers = HeaderMap::new();
        assert_eq!(declared_length(&headers), None);
        headers.insert(
            CONTENT_LENGTH,
            axum::http::HeaderValue::from_static("1048576"),
        );
        assert_eq!(declared_length(&headers), Some(1_048_576));
        headers.insert(CONTENT_LENGTH, axum::http::HeaderValue::from_static("many"));
        assert_eq!(declared_length(&headers), None);
    }
}
