//! The UI's server functions (`/api/fn/…`) under the REST API's rules. Leptos
//! routes them itself, outside the API router, so two of its rules are
//! applied here: a body is read up to [`MAX_API_BODY`] (more answers 413 in
//! the JSON error shape, before the function decodes anything), and a
//! failure answers with the status its error body names (401, 404, …) where
//! the server-function machinery alone would answer every failure 500.

use app::contract::error::ErrorBody;
use app::ssr::api_error::ApiError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use leptos::server_fn::error::SERVER_FN_ERROR_HEADER;

use crate::extract::MAX_API_BODY;

/// Where Leptos serves the server functions.
pub const PREFIX: &str = "/api/fn/";

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
pub async fn status(response: Response) -> Response {
    if !response.headers().contains_key(SERVER_FN_ERROR_HEADER) {
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
