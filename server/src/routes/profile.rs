//! `/api/profile…`: the signed-in user's name and email, privacy choices and
//! recent sign-ins.

use axum::extract::State;
use axum::Json;

use app::backend::auth::{account, geolocation};
use app::contract::account::{Me, PrivacySettings, SignInRecord, UpdateProfile};

use crate::extract::ApiJson;
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;
use app::backend::client_ip::ClientIp;

/// `PUT /api/profile`: name and email. A new email needs the current
/// password, so a borrowed session cannot take over the account; and a
/// browser session, as the email is how the account is signed in to.
#[utoipa::path(
    put,
    path = "/api/profile",
    tag = "profile",
    request_body = UpdateProfile,
    responses((status = 200, body = Me)),
)]
pub async fn update(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    current: CurrentUser,
    ApiJson(body): ApiJson<UpdateProfile>,
) -> Result<Json<Me>, ApiError> {
    Ok(Json(
        account::update_profile(&state.services.auth, ip, &current, body).await?,
    ))
}

/// `GET /api/profile/privacy`.
#[utoipa::path(
    get,
    path = "/api/profile/privacy",
    tag = "profile",
    responses((status = 200, body = PrivacySettings)),
)]
pub async fn privacy(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<PrivacySettings>, ApiError> {
    Ok(Json(PrivacySettings {
        geolocation_enabled: geolocation::enabled(&state.pool, current.user.id).await?,
    }))
}

/// `PUT /api/profile/privacy`.
#[utoipa::path(
    put,
    path = "/api/profile/privacy",
    tag = "profile",
    request_body = PrivacySettings,
    responses((status = 200, body = PrivacySettings)),
)]
pub async fn set_privacy(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<PrivacySettings>,
) -> Result<Json<PrivacySettings>, ApiError> {
    geolocation::set_enabled(&state.pool, current.user.id, body.geolocation_enabled).await?;
    Ok(Json(body))
}

/// `GET /api/profile/sign-ins`: the latest attempts on this account.
#[utoipa::path(
    get,
    path = "/api/profile/sign-ins",
    tag = "profile",
    responses((status = 200, body = Vec<SignInRecord>)),
)]
pub async fn sign_ins(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Vec<SignInRecord>>, ApiError> {
    Ok(Json(
        state
            .services
            .auth
            .login_history
            .recent(&state.pool, &state.keyring, current.user.id)
            .await?,
    ))
}
