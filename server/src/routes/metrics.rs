//! The `/metrics` handler: the bearer token first, then the edge's request
//! counts and what the database says now (asked of `backend::status`; the
//! route runs no SQL).

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use secrecy::ExposeSecret;

use crate::metrics::text::{header as metric_header, sample};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::token::constant_time_eq;
use app::backend::status::database_counts;

const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// `GET /metrics`: 404 while `METRICS_TOKEN` is unset, 401 without it.
pub async fn serve(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(token) = state.settings.metrics_token.as_ref() else {
        return ApiError::NotFound("metrics are off; set METRICS_TOKEN to turn them on".into())
            .into_response();
    };
    let sent = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .unwrap_or_default();
    if !constant_time_eq(sent, token.expose_secret()) {
        let (status, mut body) = ApiError::Unauthenticated.body();
        body.error.message = "send the metrics token: Authorization: Bearer <METRICS_TOKEN>".into();
        let mut response = (status, Json(body)).into_response();
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"metrics\""),
        );
        return response;
    }
    let mut out = String::with_capacity(16 * 1024);
    state.metrics.render(&mut out);
    if let Err(error) = database(&state, &mut out).await {
        return ApiError::from(error).into_response();
    }
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        out,
    )
        .into_response()
}

/// Writes the database's counts (read through `backend::status`, whose
/// store holds the statements) and the server's own gauges.
async fn database(state: &AppState, out: &mut String) -> Result<(), sqlx::Error> {
    let counts = database_counts(&state.pool).await?;
    metric_header(
        out,
        "tally_operations",
        "gauge",
        "Long-running operations kept, by kind and outcome (running, succeeded, failed, cancelled).",
    );
    for (kind, outcome, count) in &counts.operations {
        sample(
            out,
            "tally_operations",
            &[("kind", kind), ("outcome", outcome)],
            *count,
        );
    }
    metric_header(
        out,
        "tally_crm_outbox",
        "gauge",
        "Form submissions by CRM delivery state (pending, sent, failed, skipped).",
    );
    for (form, crm_state, count) in &counts.crm_outbox {
        sample(
            out,
            "tally_crm_outbox",
            &[("form", form), ("state", crm_state)],
            *count,
        );
    }
    metric_header(
        out,
        "tally_bank_connections",
        "gauge",
        "Bank connections by status (active, error, disconnected); syncs are operations of kind bank_sync.",
    );
    for (status, count) in &counts.bank_connections {
        sample(out, "tally_bank_connections", &[("status", status)], *count);
    }
    metric_header(
        out,
        "tally_notifications_sent_total",
        "counter",
        "Notification messages since start-up, by channel kind and result (sent, failed); a digest counts once.",
    );
    for (kind, result, count) in state.notifier.counts() {
        sample(
            out,
            "tally_notifications_sent_total",
            &[("kind", kind), ("result", result)],
            count,
        );
    }
    let path = state.settings.database_path();
    let size = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |m| m.len());
    let mut wal = path.clone().into_os_string();
    wal.push("-wal");
    metric_header(
        out,
        "tally_database_size_bytes",
        "gauge",
        "The database file's size.",
    );
    sample(out, "tally_database_size_bytes", &[], size(&path));
    metric_header(
        out,
        "tally_database_wal_bytes",
        "gauge",
        "The write-ahead log's size.",
    );
    sample(
        out,
        "tally_database_wal_bytes",
        &[],
        size(std::path::Path::new(&wal)),
    );
    metric_header(out, "tally_build_info", "gauge", "The running version.");
    sample(
        out,
        "tally_build_info",
        &[("version", env!("CARGO_PKG_VERSION"))],
        1,
    );
    Ok(())
}
