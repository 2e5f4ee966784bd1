//! `GET /api/admin/status`: the instance at a glance for administrators,
//! worded by `app::backend::status` (the Admin Status page reads the same).

use axum::extract::State;
use axum::Json;

use app::contract::admin::SystemStatus;

use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::AdminUser;

/// The status rows.
#[utoipa::path(
    get,
    path = "/api/admin/status",
    tag = "admin",
    responses((status = 200, body = SystemStatus)),
)]
pub async fn status(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<SystemStatus>, ApiError> {
    Ok(Json(
        app::backend::status::system_status(&state.services).await?,
    ))
}
