//! `/api/tokens`: a user's personal API tokens.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use app::ssr::auth::api_tokens::{self, ApiTokenInfo};

use crate::auth::CurrentUser;
use crate::error::ApiError;
use crate::extract::{ApiJson, ApiPath};
use crate::state::AppState;

pub async fn list(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Vec<ApiTokenInfo>>, ApiError> {
    Ok(Json(api_tokens::list(&state.pool, current.user.id).await?))
}

#[derive(Deserialize)]
pub struct CreateBody {
    name: String,
}

/// Returns the token once, in `token`; only its hash is kept.
pub async fn create(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<CreateBody>,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let (info, token) = api_tokens::create(&state.pool, current.user.id, &body.name).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "token": token, "info": info })),
    ))
}

pub async fn revoke(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    if api_tokens::revoke(&state.pool, current.user.id, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(format!("no API token {id}")))
    }
}
