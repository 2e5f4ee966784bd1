//! `/api/subscriptions/…` and `/api/catalog…`: the subscriptions Tally
//! recognises in the user's bank charges, what the user does with them, the
//! catalog, and the bank descriptors the user taught it. Every action is
//! recorded as recommendation feedback (`backend::subscriptions::feedback`).

use app::backend::subscriptions::{catalog_entries, feedback, own_descriptors, recommendations};
use app::contract::bills::{BillRecord, Catalog};
use app::contract::subscriptions::{
    CatalogLink, CatalogQuery, DeclineRecommendation, LinkRecommendation, NewDescriptor,
    OwnDescriptor, OwnDescriptors, Recommendations, RelinkRecommendation, TrackCatalog, Tracked,
    TrackedBills, TrackedServices,
};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;

/// Known services the user appears to pay for, each with its evidence
/// (identity, amount, cadence) and a confidence; unknown recurring
/// merchants apart.
#[utoipa::path(
    get,
    path = "/api/subscriptions/recommendations",
    tag = "subscriptions",
    responses((status = 200, body = Recommendations)),
)]
pub async fn list(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Recommendations>, ApiError> {
    Ok(Json(
        recommendations::recommendations(&state.pool, current.user.id).await?,
    ))
}

/// Tracks the recommendation as a new subscription bill; its charges
/// become the bill's payments.
#[utoipa::path(
    post,
    path = "/api/subscriptions/recommendations/{id}/track",
    tag = "subscriptions",
    params(("id" = String, Path, description = "The recommendation's id (`{catalogId}-{currency}`)")),
    responses((status = 201, body = Tracked)),
)]
pub async fn track(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<String>,
) -> Result<(StatusCode, Json<Tracked>), ApiError> {
    let tracked = feedback::track(&state.pool, current.user.id, &id).await?;
    Ok((StatusCode::CREATED, Json(tracked)))
}

/// Declines the recommendation: it stays away for 180 days, or until the
/// service charges another amount.
#[utoipa::path(
    post,
    path = "/api/subscriptions/recommendations/{id}/decline",
    tag = "subscriptions",
    params(("id" = String, Path, description = "The recommendation's id")),
    request_body = DeclineRecommendation,
    responses((status = 204)),
)]
pub async fn decline(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<String>,
    ApiJson(request): ApiJson<DeclineRecommendation>,
) -> Result<StatusCode, ApiError> {
    feedback::decline(&state.pool, current.user.id, &id, &request).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Links the recommendation to a bill the user already has.
#[utoipa::path(
    post,
    path = "/api/subscriptions/recommendations/{id}/link",
    tag = "subscriptions",
    params(("id" = String, Path, description = "The recommendation's id")),
    request_body = LinkRecommendation,
    responses((status = 200, body = Tracked)),
)]
pub async fn link(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<String>,
    ApiJson(request): ApiJson<LinkRecommendation>,
) -> Result<Json<Tracked>, ApiError> {
    Ok(Json(
        feedback::link(&state.pool, current.user.id, &id, &request).await?,
    ))
}

/// The charges are another service's: Tally learns their merchant as it.
#[utoipa::path(
    post,
    path = "/api/subscriptions/recommendations/{id}/relink",
    tag = "subscriptions",
    params(("id" = String, Path, description = "The recommendation's id")),
    request_body = RelinkRecommendation,
    responses((status = 204)),
)]
pub async fn relink(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<String>,
    ApiJson(request): ApiJson<RelinkRecommendation>,
) -> Result<StatusCode, ApiError> {
    feedback::relink(&state.pool, current.user.id, &id, &request).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Links a bill to a catalog service, or unlinks it with `null`.
#[utoipa::path(
    put,
    path = "/api/bills/{id}/catalog-link",
    tag = "subscriptions",
    params(("id" = i64, Path, description = "The bill's id")),
    request_body = CatalogLink,
    responses((status = 200, body = BillRecord)),
)]
pub async fn catalog_link(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
    ApiJson(request): ApiJson<CatalogLink>,
) -> Result<Json<BillRecord>, ApiError> {
    Ok(Json(
        feedback::catalog_link(&state.pool, current.user.id, id, &request).await?,
    ))
}

/// The known subscription services; `q` keeps those with every word in
/// the name, category or web address.
#[utoipa::path(
    get,
    path = "/api/catalog",
    tag = "subscriptions",
    params(CatalogQuery),
    responses((status = 200, body = Catalog)),
)]
pub async fn catalog(
    State(state): State<AppState>,
    _current: CurrentUser,
    ApiQuery(query): ApiQuery<CatalogQuery>,
) -> Result<Json<Catalog>, ApiError> {
    Ok(Json(catalog_entries::search(&state.pool, &query).await?))
}

/// Subscription bills for catalog services at their starting prices and
/// usual cadence (1 to 50 at once; all or none).
#[utoipa::path(
    post,
    path = "/api/catalog/track",
    tag = "subscriptions",
    request_body = TrackCatalog,
    responses((status = 201, body = TrackedBills)),
)]
pub async fn track_catalog(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(request): ApiJson<TrackCatalog>,
) -> Result<(StatusCode, Json<TrackedBills>), ApiError> {
    let tracked = catalog_entries::track(&state.pool, current.user.id, &request).await?;
    Ok((StatusCode::CREATED, Json(tracked)))
}

/// The user's bills linked to a service, with price drift against the
/// catalog's starting price.
#[utoipa::path(
    get,
    path = "/api/catalog/tracked",
    tag = "subscriptions",
    responses((status = 200, body = TrackedServices)),
)]
pub async fn tracked(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<TrackedServices>, ApiError> {
    Ok(Json(
        catalog_entries::tracked(&state.pool, current.user.id).await?,
    ))
}

/// The bank descriptors the user taught Tally.
#[utoipa::path(
    get,
    path = "/api/catalog/descriptors",
    tag = "subscriptions",
    responses((status = 200, body = OwnDescriptors)),
)]
pub async fn descriptors(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<OwnDescriptors>, ApiError> {
    Ok(Json(
        own_descriptors::list(&state.pool, current.user.id).await?,
    ))
}

/// Teaches Tally that a statement's descriptor is a service's.
#[utoipa::path(
    post,
    path = "/api/catalog/descriptors",
    tag = "subscriptions",
    request_body = NewDescriptor,
    responses((status = 201, body = OwnDescriptor)),
)]
pub async fn add_descriptor(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(request): ApiJson<NewDescriptor>,
) -> Result<(StatusCode, Json<OwnDescriptor>), ApiError> {
    let added = own_descriptors::add(&state.pool, current.user.id, &request).await?;
    Ok((StatusCode::CREATED, Json(added)))
}

/// Forgets one of the user's descriptors.
#[utoipa::path(
    delete,
    path = "/api/catalog/descriptors/{id}",
    tag = "subscriptions",
    params(("id" = i64, Path, description = "The descriptor's id")),
    responses((status = 204)),
)]
pub async fn delete_descriptor(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    own_descriptors::delete(&state.pool, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
