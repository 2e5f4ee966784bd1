//! Admin → Authentication (`/api/admin/authentication`): single sign-on's
//! settings and local sign-in, with the safeguards that keep one way in
//! open; and Profile's identities at the provider
//! (`/api/profile/identities`).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use app::backend::api_error::ApiError;
use app::backend::auth::admin;
use app::backend::auth::extractors::{AdminSession, AdminUser, CurrentUser};
use app::backend::client_ip::ClientIp;
use app::backend::sso::{authentication, identities};
use app::contract::authentication::{
    AuthenticationChange, AuthenticationSettings, Discovery, DiscoveryRequest, LinkedIdentities,
};

use crate::extract::{ApiJson, ApiPath};
use crate::state::AppState;

/// The settings in force; the client secret only as `clientSecretSet`.
#[utoipa::path(
    get,
    path = "/api/admin/authentication",
    tag = "admin",
    responses((status = 200, body = AuthenticationSettings)),
)]
pub async fn read(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<AuthenticationSettings>, ApiError> {
    Ok(Json(authentication::read(&state.services.sso).await?))
}

/// A partial change (`{"localLoginEnabled": false, "currentPassword": …}`
/// is a body), from an administrator's browser session with their
/// password asked again: no API token, whatever its scopes (403). A
/// safeguard's refusal is 400 `FAILED_PRECONDITION` saying which condition
/// is missing; a field the environment sets is refused the same way.
#[utoipa::path(
    put,
    path = "/api/admin/authentication",
    tag = "admin",
    request_body = AuthenticationChange,
    responses(
        (status = 200, body = AuthenticationSettings),
        (status = 400, description = "INVALID_ARGUMENT naming the field (currentPassword when missing or wrong), or FAILED_PRECONDITION (a safeguard)"),
        (status = 403, description = "An API token, or not an administrator"),
    ),
)]
pub async fn change(
    State(state): State<AppState>,
    AdminSession(session): AdminSession,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<AuthenticationChange>,
) -> Result<Json<AuthenticationSettings>, ApiError> {
    let services = &state.services;
    let admin = admin::confirm(&services.auth, session, ip, &body.current_password).await?;
    let changed = authentication::change(&services.sso, &services.notifier, &admin, body).await?;
    Ok(Json(changed))
}

/// Fetches the provider's discovery document now (the issuer given, or
/// the one in force) and says what it offers or why it failed.
#[utoipa::path(
    post,
    path = "/api/admin/authentication/discovery",
    tag = "admin",
    request_body = DiscoveryRequest,
    responses((status = 200, body = Discovery)),
)]
pub async fn discovery(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiJson(body): ApiJson<DiscoveryRequest>,
) -> Result<Json<Discovery>, ApiError> {
    Ok(Json(
        authentication::test_discovery(&state.services.sso, body).await?,
    ))
}

/// The identities at the provider linked to the account.
#[utoipa::path(
    get,
    path = "/api/profile/identities",
    tag = "profile",
    responses((status = 200, body = LinkedIdentities)),
)]
pub async fn list_identities(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<LinkedIdentities>, ApiError> {
    Ok(Json(
        identities::list(&state.services.sso, current.user.id).await?,
    ))
}

/// Unlinks an identity; refused (400 `FAILED_PRECONDITION`) while the
/// account has no password.
#[utoipa::path(
    delete,
    path = "/api/profile/identities/{id}",
    tag = "profile",
    params(("id" = i64, Path, description = "The identity's id")),
    responses((status = 204, description = "Unlinked")),
)]
pub async fn unlink_identity(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    identities::unlink(&state.services.sso, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
