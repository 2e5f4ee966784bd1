//! The one error type of the REST routes and its single mapping to HTTP.
//! Internal details are logged with the request's id, never sent.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("no API route at {0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Google's JSON error shape (AIP-193), used by every JSON API of Tally.
#[derive(Serialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Serialize)]
struct ErrorDetail {
    code: u16,
    message: String,
    status: &'static str,
}

impl ApiError {
    fn status(&self) -> (StatusCode, &'static str) {
        match self {
            Self::NotFound(_) => (StatusCode::NOT_FOUND, "NOT_FOUND"),
            Self::BadRequest(_) => (StatusCode::BAD_REQUEST, "INVALID_ARGUMENT"),
            Self::Database(_) => (StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, name) = self.status();
        let message = if status.is_server_error() {
            tracing::error!(error = %self, "request failed");
            "internal error; the request id in the x-request-id header identifies it in the logs"
                .to_owned()
        } else {
            self.to_string()
        };
        let body = ErrorBody {
            error: ErrorDetail {
                code: status.as_u16(),
                message,
                status: name,
            },
        };
        (status, Json(body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn server_faults_hide_their_details() {
        let response = ApiError::Database(sqlx::Error::PoolTimedOut).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = axum::body::to_bytes(response.into_body(), 4096)
            .await
            .unwrap();
        let text = String::from_utf8(body.to_vec()).unwrap();
        assert!(text.contains("\"status\":\"INTERNAL\""));
        assert!(!text.contains("pool"), "{text}");
    }

    #[tokio::test]
    async fn client_errors_say_what_is_wrong() {
        let response = ApiError::BadRequest("ms must be at most 20000".into()).into_response();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let body = axum::body::to_bytes(response.into_body(), 4096)
            .await
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(json["error"]["code"], 400);
        assert_eq!(json["error"]["message"], "ms must be at most 20000");
    }
}
