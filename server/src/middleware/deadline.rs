//! The cap on request duration (spec: 30 s, `REQUEST_TIMEOUT_SECONDS`). A
//! slow client or a hung dependency gets 504 `DEADLINE_EXCEEDED` in
//! Google's error shape instead of holding a worker; the handler's future
//! is dropped, so an unfinished transaction rolls back.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

pub async fn enforce(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            tracing::warn!(%path, seconds = limit.as_secs(), "request stopped at the deadline");
            ApiError::DeadlineExceeded(limit).into_response()
        }
    }
}
