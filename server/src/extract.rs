//! Body and path extractors whose rejections use Tally's error shape.
//! Handlers of the API take their body through [`ApiJson`] or [`ApiBytes`]
//! and their parameters through [`ApiPath`] and [`ApiQuery`], never axum's
//! own extractors, whose rejections are plain text.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::Json;
use serde::de::DeserializeOwned;

use app::backend::api_error::ApiError;

/// The largest request body any API route reads: 1 MiB, as the lead-site
/// specification caps API requests (`routes::api_router` applies it).
pub const MAX_API_BODY: usize = 1024 * 1024;

/// A body rejection in Tally's shape: over the limit is 413, the rest 400.
fn body_rejection(status: StatusCode, text: String) -> ApiError {
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::PayloadTooLarge {
            limit: MAX_API_BODY,
        }
    } else {
        ApiError::BadRequest(text)
    }
}

/// The body of an upload route, a whole file of at most `max` bytes; one
/// byte more is read, so the service can say the file is too large in its
/// own words, and beyond that 413.
pub async fn file_body(body: axum::body::Body, max: usize) -> Result<Bytes, ApiError> {
    axum::body::to_bytes(body, max + 1)
        .await
        .map_err(|_| ApiError::PayloadTooLarge { limit: max })
}

pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(body_rejection(rejection.status(), rejection.body_text())),
        }
    }
}

/// The raw body, for routes whose body is optional or not JSON.
pub struct ApiBytes(pub Bytes);

impl<S> FromRequest<S> for ApiBytes
where
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Bytes::from_request(request, state).await {
            Ok(bytes) => Ok(Self(bytes)),
            Err(rejection) => Err(body_rejection(rejection.status(), rejection.body_text())),
        }
    }
}

/// Path parameters; a malformed one (`/api/bills/abc`) answers 400 in the
/// JSON error shape instead of axum's plain text.
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(Self(value)),
            Err(rejection) => Err(ApiError::BadRequest(rejection.body_text())),
        }
    }
}

/// Query parameters; one that does not parse (`?pageSize=1e99`) answers 400
/// in the JSON error shape instead of axum's plain text.
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(Self(value)),
            Err(rejection) => Err(ApiError::BadRequest(rejection.body_text())),
        }
    }
}
