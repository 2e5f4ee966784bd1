//! The cap on request duration (spec: 30 s, `REQUEST_TIMEOUT_SECONDS`). A
//! slow client or a hung dependency gets 504 `DEADLINE_EXCEEDED` in
//! Google's error shape instead of holding a worker; the handler's future
//! is dropped, so an unfinished transaction rolls back.

use std::time::Duration;

use axum::response::{IntoResponse, Response};

use app::backend::api_error::ApiError;

/// The answer to a request for `path` stopped at `limit`.
pub fn exceeded(path: &str, limit: Duration) -> Response {
    let path = super::token_paths::loggable(path);
    tracing::warn!(%path, seconds = limit.as_secs(), "request stopped at the deadline");
    ApiError::DeadlineExceeded(limit).into_response()
}
