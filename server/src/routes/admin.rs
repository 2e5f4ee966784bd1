//! `/api/admin/…`: users, invitations and open registration. Every handler
//! takes `AdminUser`, so the role is checked on the server.

use app::backend::auth::admin;
use app::backend::auth::invitations;
use app::backend::client_ip::ClientIp;
use app::contract::admin::{
    AccountAction, Invitation, Invite, Invited, RegistrationChange, RegistrationSetting,
    UserSummary,
};
use app::contract::two_factor::CurrentPassword;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use crate::extract::{ApiJson, ApiPath};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::{AdminSession, AdminUser};

#[utoipa::path(
    get,
    path = "/api/admin/users",
    tag = "admin",
    responses((status = 200, body = Vec<UserSummary>)),
)]
pub async fn users(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<Vec<UserSummary>>, ApiError> {
    Ok(Json(admin::list(&state.pool).await?))
}

/// `POST /api/admin/users/{id}/disable`: also ends their sessions.
#[utoipa::path(
    post,
    path = "/api/admin/users/{id}/disable",
    tag = "admin",
    params(("id" = i64, Path, description = "The user's id")),
    request_body = CurrentPassword,
    responses((status = 204, description = "Done")),
)]
pub async fn disable(
    State(state): State<AppState>,
    AdminSession(session): AdminSession,
    ClientIp(ip): ClientIp,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<CurrentPassword>,
) -> Result<StatusCode, ApiError> {
    let admin = admin::confirm(&state.services.auth, session, ip, &body.current_password).await?;
    admin::apply(&state.pool, &admin, id, AccountAction::Disable).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/admin/users/{id}/enable`.
#[utoipa::path(
    post,
    path = "/api/admin/users/{id}/enable",
    tag = "admin",
    params(("id" = i64, Path, description = "The user's id")),
    request_body = CurrentPassword,
    responses((status = 204, description = "Done")),
)]
pub async fn enable(
    State(state): State<AppState>,
    AdminSession(session): AdminSession,
    ClientIp(ip): ClientIp,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<CurrentPassword>,
) -> Result<StatusCode, ApiError> {
    let admin = admin::confirm(&state.services.auth, session, ip, &body.current_password).await?;
    admin::apply(&state.pool, &admin, id, AccountAction::Enable).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/admin/users/{id}/reset-second-factor`: from a browser
/// session only, like every change to second factors; an admin's API token
/// must not be able to strip another account's.
#[utoipa::path(
    post,
    path = "/api/admin/users/{id}/reset-second-factor",
    tag = "admin",
    params(("id" = i64, Path, description = "The user's id")),
    request_body = CurrentPassword,
    responses((status = 204, description = "Done")),
)]
pub async fn reset_second_factor(
    State(state): State<AppState>,
    AdminSession(session): AdminSession,
    ClientIp(ip): ClientIp,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<CurrentPassword>,
) -> Result<StatusCode, ApiError> {
    let admin = admin::confirm(&state.services.auth, session, ip, &body.current_password).await?;
    admin::apply(&state.pool, &admin, id, AccountAction::ResetSecondFactor).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/admin/invitations",
    tag = "admin",
    responses((status = 200, body = Vec<Invitation>)),
)]
pub async fn invitations(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<Vec<Invitation>>, ApiError> {
    Ok(Json(invitations::pending(&state.pool).await?))
}

/// `POST /api/admin/invitations`: a one-time link, shown once.
#[utoipa::path(
    post,
    path = "/api/admin/invitations",
    tag = "admin",
    request_body = Invite,
    responses((status = 201, description = "The invitation and its link", body = Invited)),
)]
pub async fn invite(
    State(state): State<AppState>,
    AdminSession(session): AdminSession,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<Invite>,
) -> Result<(StatusCode, Json<Invited>), ApiError> {
    let admin = admin::confirm(&state.services.auth, session, ip, &body.current_password).await?;
    let invited = admin::invite(&state.services.auth, &admin, &body).await?;
    Ok((StatusCode::CREATED, Json(invited)))
}

/// `DELETE /api/admin/invitations/{id}`.
#[utoipa::path(
    delete,
    path = "/api/admin/invitations/{id}",
    tag = "admin",
    params(("id" = i64, Path, description = "The invitation's id")),
    responses((status = 204, description = "Done")),
)]
pub async fn revoke_invitation(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    admin::withdraw_invitation(&state.pool, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/admin/registration",
    tag = "admin",
    responses((status = 200, body = RegistrationSetting)),
)]
pub async fn registration(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<RegistrationSetting>, ApiError> {
    Ok(Json(RegistrationSetting {
        open: invitations::open_registration(&state.pool).await?,
    }))
}

#[utoipa::path(
    put,
    path = "/api/admin/registration",
    tag = "admin",
    request_body = RegistrationChange,
    responses((status = 200, body = RegistrationSetting)),
)]
pub async fn set_registration(
    State(state): State<AppState>,
    AdminSession(session): AdminSession,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<RegistrationChange>,
) -> Result<Json<RegistrationSetting>, ApiError> {
    let admin = admin::confirm(&state.services.auth, session, ip, &body.current_password).await?;
    admin::set_registration(&state.pool, &admin, body.open).await?;
    Ok(Json(RegistrationSetting { open: body.open }))
}
