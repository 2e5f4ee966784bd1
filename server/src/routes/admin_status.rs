//! `GET /api/admin/status`: the instance at a glance for administrators,
//! worded by `app::ssr::status` (the Admin Status page reads the same).

use axum::extract::State;
use axum::Json;

use app::contract::admin::SystemStatus;

use crate::state::AppState;
use app::ssr::api_error::ApiError;
use app::ssr::auth::extractors::AdminUser;

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
        app::ssr::status::system_status(&state.services).await?,
    ))
}
