//! `GET`/`PUT /api/profile/preferences`: how the tracker shows money and
//! dates for this user (`app::backend::preferences` holds the rules).

use axum::extract::State;
use axum::Json;

use app::backend::preferences;
use app::contract::preferences::{Preferences, UpdatePreferences};

use crate::extract::ApiJson;
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;

#[utoipa::path(
    get,
    path = "/api/profile/preferences",
    tag = "profile",
    responses((status = 200, body = Preferences)),
)]
pub async fn get(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Preferences>, ApiError> {
    Ok(Json(preferences::read(&state.pool, current.user.id).await?))
}

#[utoipa::path(
    put,
    path = "/api/profile/preferences",
    tag = "profile",
    request_body = UpdatePreferences,
    responses((status = 200, body = Preferences)),
)]
pub async fn set(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(wanted): ApiJson<UpdatePreferences>,
) -> Result<Json<Preferences>, ApiError> {
    Ok(Json(
        preferences::set(&state.pool, current.user.id, &wanted).await?,
    ))
}
