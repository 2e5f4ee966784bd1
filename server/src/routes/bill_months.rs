//! `/api/bills/{id}/months/{month}`: one occurrence's overrides (this
//! time's amount, a skip, a snooze, a note): thin doors onto
//! `app::backend::bill_months`.

use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;
use app::backend::bill_months::service;
use app::contract::bill_months::{BillMonth, BillMonthChange};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;

use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::state::AppState;

/// `occurrence`: which due date of a bill due more than once a month.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
pub struct OccurrenceQuery {
    /// `YYYY-MM-DD`: one of the bill's due dates in the month (weekly and
    /// biweekly bills).
    occurrence: Option<String>,
}

#[utoipa::path(get, path = "/api/bills/{id}/months/{month}", tag = "bills",
    params(
        ("id" = i64, Path, description = "The bill's id"),
        ("month" = String, Path, description = "YYYY-MM"),
        OccurrenceQuery,
    ),
    responses((status = 200, body = BillMonth)))]
pub async fn get(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath((id, month)): ApiPath<(i64, String)>,
    ApiQuery(query): ApiQuery<OccurrenceQuery>,
) -> Result<Json<BillMonth>, ApiError> {
    Ok(Json(
        service::get(
            &state.pool,
            current.user.id,
            id,
            &month,
            query.occurrence.as_deref(),
        )
        .await?,
    ))
}

/// Sets the occurrence's overrides; a field left out is cleared.
#[utoipa::path(put, path = "/api/bills/{id}/months/{month}", tag = "bills",
    params(
        ("id" = i64, Path, description = "The bill's id"),
        ("month" = String, Path, description = "YYYY-MM"),
        OccurrenceQuery,
    ),
    request_body = BillMonthChange,
    responses((status = 200, body = BillMonth)))]
pub async fn put(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath((id, month)): ApiPath<(i64, String)>,
    ApiQuery(query): ApiQuery<OccurrenceQuery>,
    ApiJson(body): ApiJson<BillMonthChange>,
) -> Result<Json<BillMonth>, ApiError> {
    Ok(Json(
        service::put(
            &state.pool,
            current.user.id,
            id,
            &month,
            query.occurrence.as_deref(),
            body,
        )
        .await?,
    ))
}

#[utoipa::path(delete, path = "/api/bills/{id}/months/{month}", tag = "bills",
    params(
        ("id" = i64, Path, description = "The bill's id"),
        ("month" = String, Path, description = "YYYY-MM"),
        OccurrenceQuery,
    ),
    responses((status = 204, description = "Cleared")))]
pub async fn delete(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath((id, month)): ApiPath<(i64, String)>,
    ApiQuery(query): ApiQuery<OccurrenceQuery>,
) -> Result<StatusCode, ApiError> {
    service::delete(
        &state.pool,
        current.user.id,
        id,
        &month,
        query.occurrence.as_deref(),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
