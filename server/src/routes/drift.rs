//! `/api/bills/drift` and its actions: thin doors onto `app::backend::drift`.

use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;
use app::backend::drift::service;
use app::contract::drift::{AmountChanged, Drifts};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use crate::extract::ApiPath;
use crate::state::AppState;

/// Bills charged another amount than expected for two or more months in a
/// row (by at least the user's thresholds, 5 % and 1.00 by default),
/// against the median of the last three months with a payment; dismissed
/// ones are left out.
#[utoipa::path(get, path = "/api/bills/drift", tag = "bills",
    responses((status = 200, body = Drifts)))]
pub async fn list(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Drifts>, ApiError> {
    Ok(Json(service::list(&state.pool, current.user.id).await?))
}

/// "Update to": the bill's amount becomes the drift's median.
#[utoipa::path(post, path = "/api/bills/{id}/drift/accept", tag = "bills",
    params(("id" = i64, Path, description = "The bill's id")),
    responses((status = 200, body = AmountChanged)))]
pub async fn accept(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<AmountChanged>, ApiError> {
    Ok(Json(
        service::accept(&state.pool, current.user.id, id).await?,
    ))
}

/// "Dismiss": out of the list for 30 days, or until the drift moves by
/// another threshold.
#[utoipa::path(post, path = "/api/bills/{id}/drift/dismiss", tag = "bills",
    params(("id" = i64, Path, description = "The bill's id")),
    responses((status = 204, description = "Dismissed")))]
pub async fn dismiss(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    service::dismiss(&state.pool, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
