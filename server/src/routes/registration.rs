//! `/api/auth/registration` and `/api/auth/register`: joining with an
//! invitation link, or without one while open registration is on.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use secrecy::SecretString;
use serde::Deserialize;

use app::contract::account::{InvitationPreview, Register, RegistrationStatus};
use app::ssr::auth::invitations::{self, Registration};
use app::ssr::auth::{sessions, users};

use crate::extract::{ApiJson, ApiQuery};
use crate::session_answer::{signed_in_with_session, user_agent};
use crate::state::AppState;
use app::ssr::api_error::ApiError;
use app::ssr::client_ip::ClientIp;

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
    let open = invitations::open_registration(&state.pool).await?;
    let invitation = match query
        .invitation
        .as_deref()
        .filter(|token| !token.is_empty())
    {
        Some(token) => {
            invitations::find(&state.pool, token)
                .await?
                .map(|found| InvitationPreview {
                    email: found.email,
                    role: found.role,
                    expires_at: found.expires_at,
                })
        }
        None => None,
    };
    Ok(Json(RegistrationStatus {
        open_registration: open,
        invitation,
    }))
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
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<Register>,
) -> Result<Response, ApiError> {
    state
        .sign_in_throttle
        .attempt(ip, &body.email)
        .map_err(|refusal| ApiError::throttled(refusal, "too many attempts; try again later"))?;
    // Checked before an invitation is claimed for it.
    users::check_name(&body.name)?;
    let user = invitations::register(
        &state.pool,
        Registration {
            invitation: body.invitation,
            email: body.email,
            name: body.name,
            password: SecretString::from(body.password),
        },
    )
    .await?;
    tracing::info!(
        user = user.id,
        role = user.role.as_str(),
        "account registered"
    );
    let token = sessions::create(&state.pool, user.id, user_agent(&headers)).await?;
    Ok(signed_in_with_session(&state, user, &token))
}
