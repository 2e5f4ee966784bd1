//! Security keys: registering and removing them in Profile
//! (`/api/auth/security-keys…`) and answering the second sign-in step with
//! one (`/api/auth/login/security-key…`).

use app::backend::auth::{account, entrance, security_keys};
use app::contract::security_keys::{
    KeyChallenge, KeyInfo, KeySignIn, KeySignInOptions, RegisterKey, RegistrationStarted,
    RemoveKey, WebAuthnJson,
};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;

use crate::extract::{ApiBytes, ApiJson, ApiPath};
use crate::session_answer::{answered, visitor};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::{BrowserSession, CurrentUser};
use app::backend::client_ip::ClientIp;

#[utoipa::path(
    get,
    path = "/api/auth/security-keys",
    tag = "security-keys",
    responses((status = 200, body = Vec<KeyInfo>)),
)]
pub async fn list(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Vec<KeyInfo>>, ApiError> {
    Ok(Json(
        security_keys::list(&state.pool, current.user.id).await?,
    ))
}

/// `POST /api/auth/security-keys/options`: starts registering a key; the
/// browser passes `publicKey` to `navigator.credentials.create`.
#[utoipa::path(
    post,
    path = "/api/auth/security-keys/options",
    tag = "security-keys",
    responses((status = 200, body = RegistrationStarted)),
)]
pub async fn registration_options(
    State(state): State<AppState>,
    session: BrowserSession,
) -> Result<Json<RegistrationStarted>, ApiError> {
    let (ceremony, options) = state
        .services
        .auth
        .security_keys
        .begin_registration(&state.pool, &session.user)
        .await?;
    Ok(Json(RegistrationStarted {
        ceremony,
        options: WebAuthnJson(options),
    }))
}

/// `POST /api/auth/security-keys`: finishes registering, with a name.
#[utoipa::path(
    post,
    path = "/api/auth/security-keys",
    tag = "security-keys",
    request_body = RegisterKey,
    responses((status = 201, description = "Registered", body = KeyInfo)),
)]
pub async fn register(
    State(state): State<AppState>,
    session: BrowserSession,
    ApiJson(body): ApiJson<RegisterKey>,
) -> Result<(StatusCode, Json<KeyInfo>), ApiError> {
    let key = state
        .services
        .auth
        .security_keys
        .finish_registration(
            &state.pool,
            &session.user,
            &body.ceremony,
            &body.name,
            body.credential.0,
        )
        .await?;
    Ok((StatusCode::CREATED, Json(key)))
}

/// `DELETE /api/auth/security-keys/{id}` with `{"currentPassword": …}`:
/// removing a key weakens the account, so it takes the password (like
/// turning TOTP off), from a browser session. Someone else's key is 404
/// before any password is asked for.
#[utoipa::path(
    delete,
    path = "/api/auth/security-keys/{id}",
    tag = "security-keys",
    params(("id" = i64, Path, description = "The key's id")),
    request_body(content = Option<RemoveKey>, description = "The current password, when this is the last second factor"),
    responses((status = 204, description = "Done")),
)]
pub async fn remove(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
    ApiBytes(body): ApiBytes,
) -> Result<StatusCode, ApiError> {
    // No body at all asks for the password like an empty one.
    let body: RemoveKey = if body.is_empty() {
        RemoveKey::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|error| ApiError::BadRequest(format!("the body is not valid JSON: {error}")))?
    };
    account::remove_security_key(&state.services.auth, ip, &current, id, body).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/auth/login/security-key/options`: after a correct password,
/// the options for `navigator.credentials.get`.
#[utoipa::path(
    post,
    path = "/api/auth/login/security-key/options",
    tag = "security-keys",
    request_body = KeyChallenge,
    security(()),
    responses((status = 200, body = KeySignInOptions)),
)]
pub async fn sign_in_options(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<KeyChallenge>,
) -> Result<Json<KeySignInOptions>, ApiError> {
    Ok(Json(
        entrance::key_options(&state.services.auth, &body.challenge).await?,
    ))
}

/// `POST /api/auth/login/security-key`: the key's answer; a session on
/// success.
#[utoipa::path(
    post,
    path = "/api/auth/login/security-key",
    tag = "security-keys",
    request_body = KeySignIn,
    security(()),
    responses((status = 200, description = "Signed in", body = app::contract::account::Me)),
)]
pub async fn sign_in(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<KeySignIn>,
) -> Result<Response, ApiError> {
    let answer = entrance::key(&state.services.auth, visitor(client, &headers), body).await?;
    Ok(answered(&state, answer))
}
