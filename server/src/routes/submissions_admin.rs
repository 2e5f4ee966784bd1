//! `/api/admin/leads`, `/api/admin/support-requests` and `/api/admin/crm`:
//! what the marketing site received, its CRM state, the CRM's health, and
//! re-sending failed posts. Administrators only.

use crate::extract::{ApiPath, ApiQuery};
use app::contract::contact::{CrmStatus, Requeued, Submission, SubmissionPage};
use app::ssr::contact::store;
use app::ssr::contact::Kind;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;

use crate::auth::AdminUser;
use crate::state::AppState;
use app::ssr::api_error::ApiError;

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
    let page_size = query.page_size.unwrap_or(25);
    if !(1..=200).contains(&page_size) {
        return Err(ApiError::invalid("pageSize: use 1 to 200"));
    }
    let rows: Vec<Submission> = store::list(
        &state.pool,
        kind,
        query.search.as_deref(),
        page_size,
        query.before,
    )
    .await?;
    let next = (rows.len() as i64 == page_size)
        .then(|| rows.last().map(|row| row.id))
        .flatten();
    Ok(Json(SubmissionPage {
        items: rows,
        next_before: next,
    }))
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
    let queued = store::resend_failed(&state.pool, kind, Some(id)).await?;
    if queued == 0 {
        return Err(ApiError::NotFound(format!(
            "no failed CRM post at /api/admin/{segment}/{id}"
        )));
    }
    state.outbox.wake();
    Ok(Json(Requeued { queued }))
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
    let mut queued = 0;
    for kind in Kind::ALL {
        queued += store::resend_failed(&state.pool, kind, None).await?;
    }
    state.outbox.wake();
    Ok(Json(Requeued { queued }))
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
    let counts = store::crm_counts(&state.pool).await?.into_iter().collect();
    Ok(Json(CrmStatus {
        health: state.outbox.health(),
        counts,
    }))
}
