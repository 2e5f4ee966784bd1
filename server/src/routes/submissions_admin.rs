//! `/api/admin/leads`, `/api/admin/support-requests` and `/api/admin/crm`:
//! what the marketing site received, its CRM state, the CRM's health, and
//! re-sending failed posts. Administrators only.

use crate::extract::{ApiPath, ApiQuery};
use app::backend::contact::review;
use app::backend::contact::Kind;
use app::contract::contact::{CrmStatus, Requeued, SubmissionPage};
use axum::extract::State;
use axum::Json;
use serde::Deserialize;

use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::AdminUser;

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    search: Option<String>,
    /// The id of the last row of the previous page.
    before: Option<i64>,
    page_size: Option<i64>,
}

async fn list(
    state: &AppState,
    kind: Kind,
    query: ListQuery,
) -> Result<Json<SubmissionPage>, ApiError> {
    Ok(Json(
        review::page(
            &state.services.contact,
            kind,
            query.search.as_deref(),
            query.page_size,
            query.before,
        )
        .await?,
    ))
}

#[utoipa::path(
    get,
    path = "/api/admin/leads",
    tag = "admin",
    params(ListQuery),
    responses((status = 200, body = SubmissionPage)),
)]
pub async fn leads(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> Result<Json<SubmissionPage>, ApiError> {
    list(&state, Kind::Lead, query).await
}

#[utoipa::path(
    get,
    path = "/api/admin/support-requests",
    tag = "admin",
    params(ListQuery),
    responses((status = 200, body = SubmissionPage)),
)]
pub async fn support_requests(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> Result<Json<SubmissionPage>, ApiError> {
    list(&state, Kind::Support, query).await
}

fn kind_of(segment: &str) -> Result<Kind, ApiError> {
    match segment {
        "leads" => Ok(Kind::Lead),
        "support-requests" => Ok(Kind::Support),
        other => Err(ApiError::NotFound(format!(
            "no API route at /api/admin/{other}"
        ))),
    }
}

/// `POST /api/admin/{leads|support-requests}/{id}/resend`: queues one
/// failed post again.
#[utoipa::path(
    post,
    path = "/api/admin/{kind}/{id}/resend",
    tag = "admin",
    params(("kind" = String, Path, description = "leads or support-requests"), ("id" = i64, Path, description = "The submission's id")),
    responses((status = 200, body = Requeued)),
)]
pub async fn resend(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiPath((segment, id)): ApiPath<(String, i64)>,
) -> Result<Json<Requeued>, ApiError> {
    let kind = kind_of(&segment)?;
    Ok(Json(
        review::resend(&state.services.contact, kind, id).await?,
    ))
}

/// `POST /api/admin/crm/resend-failed`: queues every failed post again.
#[utoipa::path(
    post,
    path = "/api/admin/crm/resend-failed",
    tag = "admin",
    responses((status = 200, body = Requeued)),
)]
pub async fn resend_all(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<Requeued>, ApiError> {
    Ok(Json(review::resend_all(&state.services.contact).await?))
}

/// `GET /api/admin/crm`: the CRM's health and how many posts are in each
/// state.
#[utoipa::path(
    get,
    path = "/api/admin/crm",
    tag = "admin",
    responses((status = 200, body = CrmStatus)),
)]
pub async fn crm(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<CrmStatus>, ApiError> {
    Ok(Json(review::crm_status(&state.services.contact).await?))
}
