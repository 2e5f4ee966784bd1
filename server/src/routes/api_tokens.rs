//! `/api/tokens`: a user's personal API tokens.

use app::backend::auth::api_tokens;
use app::contract::tokens::{ApiTokenInfo, CreateToken, CreatedToken};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use crate::extract::{ApiJson, ApiPath};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;

#[utoipa::path(
    get,
    path = "/api/tokens",
    tag = "tokens",
    responses((status = 200, body = Vec<ApiTokenInfo>)),
)]
pub async fn list(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Vec<ApiTokenInfo>>, ApiError> {
    Ok(Json(api_tokens::list(&state.pool, current.user.id).await?))
}

/// Returns the token once, in `token`; only its hash is kept. Only a browser
/// session makes tokens: a token that could mint more would outlive its own
/// expiry and revocation.
#[utoipa::path(
    post,
    path = "/api/tokens",
    tag = "tokens",
    request_body = CreateToken,
    responses((status = 201, description = "The token, shown this once", body = CreatedToken)),
)]
pub async fn create(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<CreateToken>,
) -> Result<(StatusCode, Json<CreatedToken>), ApiError> {
    let created = api_tokens::create_requested(&state.pool, &current, &body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

#[utoipa::path(
    delete,
    path = "/api/tokens/{id}",
    tag = "tokens",
    params(("id" = i64, Path, description = "The token's id")),
    responses((status = 204, description = "Done")),
)]
pub async fn revoke(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    api_tokens::revoke_own(&state.pool, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
