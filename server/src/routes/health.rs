use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::state::AppState;

/// The body of `GET /api/health`.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct HealthReport {
    /// `ok` when everything checked works, `error` otherwise.
    pub status: String,
    /// `ok` when the database probe succeeded, `error` when it failed.
    pub db: String,
}

/// 200 with `{"status":"ok","db":"ok"}` when the database answers, 503 with
/// `"db":"error"` when it does not. Health means up, not every feature working.
#[utoipa::path(
    get,
    path = "/api/health",
    tag = "health",
    security(()),
    responses((status = 200, description = "Up, and the database answers", body = HealthReport), (status = 503, description = "The database does not answer", body = HealthReport)),
)]
pub async fn health(State(state): State<AppState>) -> (StatusCode, Json<HealthReport>) {
    match state.db_health.check(&state.pool).await {
        Ok(()) => (
            StatusCode::OK,
            Json(HealthReport {
                status: "ok".into(),
                db: "ok".into(),
            }),
        ),
        Err(error) => {
            tracing::warn!(%error, "health check: database probe failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(HealthReport {
                    status: "error".into(),
                    db: "error".into(),
                }),
            )
        }
    }
}
