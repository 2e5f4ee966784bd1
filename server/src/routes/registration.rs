//! `/api/auth/registration` and `/api/auth/register`: joining with an
//! invitation link, or without one while open registration is on.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;

use app::backend::auth::entrance;
use app::contract::account::{Register, RegistrationStatus};

use crate::extract::{ApiJson, ApiQuery};
use crate::session_answer::{answered, visitor};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::client_ip::ClientIp;

#[derive(Deserialize)]
pub struct RegistrationQuery {
    invitation: Option<String>,
}

/// `GET /api/auth/registration[?invitation=…]`: whether open registration
/// is on and, for a link's token, the invitation it opens (null when the
/// link is not valid).
#[utoipa::path(
    get,
    path = "/api/auth/registration",
    tag = "auth",
    params(("invitation" = Option<String>, Query, description = "An invitation link's token")),
    security(()),
    responses((status = 200, body = RegistrationStatus)),
)]
pub async fn status(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<RegistrationQuery>,
) -> Result<Json<RegistrationStatus>, ApiError> {
    Ok(Json(
        entrance::registration(&state.services.auth, query.invitation.as_deref()).await?,
    ))
}

/// `POST /api/auth/register`: creates the account and signs it in.
#[utoipa::path(
    post,
    path = "/api/auth/register",
    tag = "auth",
    request_body = Register,
    security(()),
    responses((status = 200, description = "Registered and signed in", body = app::contract::account::Me)),
)]
pub async fn register(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<Register>,
) -> Result<Response, ApiError> {
    let answer = entrance::register(&state.services.auth, visitor(client, &headers), body).await?;
    Ok(answered(&state, answer))
}
