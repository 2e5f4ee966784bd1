//! `/api/admin/…`: users, invitations and open registration. Every handler
//! takes `AdminUser`, so the role is checked on the server.

use app::contract::admin::{Invitation, Invite, Invited, RegistrationSetting, UserSummary};
use app::domain::role::Role;
use app::ssr::auth::admin;
use app::ssr::auth::invitations;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use crate::auth::AdminUser;
use crate::extract::{ApiJson, ApiPath};
use crate::state::AppState;
use app::ssr::api_error::ApiError;

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

fn user_not_found(id: i64) -> ApiError {
    ApiError::NotFound(format!("no user {id}"))
}

/// `POST /api/admin/users/{id}/disable`: also ends their sessions.
#[utoipa::path(
    post,
    path = "/api/admin/users/{id}/disable",
    tag = "admin",
    params(("id" = i64, Path, description = "The user's id")),
    responses((status = 204, description = "Done")),
)]
pub async fn disable(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    if admin::set_disabled(&state.pool, admin.user.id, id, true).await? {
        tracing::info!(user = id, by = admin.user.id, "account disabled");
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(user_not_found(id))
    }
}

/// `POST /api/admin/users/{id}/enable`.
#[utoipa::path(
    post,
    path = "/api/admin/users/{id}/enable",
    tag = "admin",
    params(("id" = i64, Path, description = "The user's id")),
    responses((status = 204, description = "Done")),
)]
pub async fn enable(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    if admin::set_disabled(&state.pool, admin.user.id, id, false).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(user_not_found(id))
    }
}

/// `POST /api/admin/users/{id}/reset-second-factor`: from a browser
/// session only, like every change to second factors; an admin's API token
/// must not be able to strip another account's.
#[utoipa::path(
    post,
    path = "/api/admin/users/{id}/reset-second-factor",
    tag = "admin",
    params(("id" = i64, Path, description = "The user's id")),
    responses((status = 204, description = "Done")),
)]
pub async fn reset_second_factor(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    let admin = admin.browser_session()?;
    if admin::reset_second_factor(&state.pool, id).await? {
        tracing::info!(user = id, by = admin.user.id, "second factor reset");
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(user_not_found(id))
    }
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
    AdminUser(admin): AdminUser,
    ApiJson(body): ApiJson<Invite>,
) -> Result<(StatusCode, Json<Invited>), ApiError> {
    let made = invitations::create(
        &state.pool,
        Some(admin.user.id),
        body.email.as_deref(),
        body.role.unwrap_or(Role::User),
    )
    .await?;
    let link = state.settings.invitation_link(&made.token);
    Ok((
        StatusCode::CREATED,
        Json(Invited {
            link,
            invitation: made.invitation,
        }),
    ))
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
    if invitations::revoke(&state.pool, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(format!("no invitation {id}")))
    }
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
    request_body = RegistrationSetting,
    responses((status = 200, body = RegistrationSetting)),
)]
pub async fn set_registration(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiJson(body): ApiJson<RegistrationSetting>,
) -> Result<Json<RegistrationSetting>, ApiError> {
    invitations::set_open_registration(&state.pool, body.open).await?;
    Ok(Json(body))
}
