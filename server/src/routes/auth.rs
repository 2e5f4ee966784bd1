//! `/api/auth/…`: the CSRF token, signing in and out, the current user and
//! password changes.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use app::backend::auth::entrance;
use app::backend::auth::token::random_token;
use app::backend::auth::{account, totp};
use app::contract::account::{CsrfToken, Me, SecondFactorCode, Session, SignIn, SignedOut};
use app::contract::two_factor::{
    ChangePassword, CurrentPassword, RecoveryCodes, TotpCode, TotpEnrolment, TotpStatus,
};

use crate::extract::ApiJson;
use crate::session_answer::{answered, signed_out, signed_out_to, visitor};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::{BrowserSession, CurrentUser};
use app::backend::client_ip::ClientIp;
use app::backend::cookies;

/// `GET /api/auth/csrf-token`: the token to send in `X-CSRF-Token`, also set
/// as the `tally_csrf` cookie: for a browser with a session cookie the
/// token bound to that session, else the one its cookie holds (or a new
/// one).
#[utoipa::path(
    get,
    path = "/api/auth/csrf-token",
    tag = "auth",
    security(()),
    responses((status = 200, description = "Also set as the tally_csrf cookie", body = CsrfToken)),
)]
pub async fn csrf_token(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let token = cookies::csrf_token(&headers, &state.keyring).unwrap_or_else(random_token);
    let cookie = crate::csrf_cookie::cookie(&state, &token);
    let mut response = Json(CsrfToken { csrf_token: token }).into_response();
    if let Some(cookie) = cookie {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// `POST /api/auth/login`: the same answer for an unknown email and a wrong
/// password; throttled per IP and per account.
#[utoipa::path(
    post,
    path = "/api/auth/login",
    tag = "auth",
    request_body = SignIn,
    security(()),
    responses((status = 200, description = "Signed in (with a session cookie), or a second factor is needed", body = app::contract::account::SignInAnswer)),
)]
pub async fn login(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<SignIn>,
) -> Result<Response, ApiError> {
    let answer = entrance::password(&state.services.auth, visitor(client, &headers), body).await?;
    Ok(answered(&state, answer))
}

/// `POST /api/auth/login/totp`: the second step, with a TOTP code or a
/// recovery code.
#[utoipa::path(
    post,
    path = "/api/auth/login/totp",
    tag = "auth",
    request_body = SecondFactorCode,
    security(()),
    responses((status = 200, body = app::contract::account::SignInAnswer)),
)]
pub async fn login_second_factor(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<SecondFactorCode>,
) -> Result<Response, ApiError> {
    let answer = entrance::code(&state.services.auth, visitor(client, &headers), body).await?;
    Ok(answered(&state, answer))
}

/// `POST /api/auth/totp/setup`: a new secret with its QR code (SVG).
#[utoipa::path(
    post,
    path = "/api/auth/totp/setup",
    tag = "auth",
    responses((status = 200, body = TotpEnrolment)),
)]
pub async fn totp_setup(
    State(state): State<AppState>,
    session: BrowserSession,
) -> Result<Json<TotpEnrolment>, ApiError> {
    Ok(Json(
        totp::begin_enrolment(&state.pool, &state.keyring, &session.user).await?,
    ))
}

/// `POST /api/auth/totp/confirm`: turns TOTP on with a first code and
/// returns the recovery codes, once.
#[utoipa::path(
    post,
    path = "/api/auth/totp/confirm",
    tag = "auth",
    request_body = TotpCode,
    responses((status = 200, body = RecoveryCodes)),
)]
pub async fn totp_confirm(
    State(state): State<AppState>,
    session: BrowserSession,
    ApiJson(body): ApiJson<TotpCode>,
) -> Result<Json<RecoveryCodes>, ApiError> {
    let codes =
        totp::confirm_enrolment(&state.pool, &state.keyring, &session.user, &body.code).await?;
    Ok(Json(RecoveryCodes {
        recovery_codes: codes,
    }))
}

/// `GET /api/auth/totp`: whether TOTP is on, recovery codes left.
#[utoipa::path(
    get,
    path = "/api/auth/totp",
    tag = "auth",
    responses((status = 200, body = TotpStatus)),
)]
pub async fn totp_status(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<TotpStatus>, ApiError> {
    Ok(Json(totp::status(&state.pool, current.user.id).await?))
}

/// `POST /api/auth/totp/disable`: turns TOTP off; needs the password, so a
/// borrowed session cannot weaken the account.
#[utoipa::path(
    post,
    path = "/api/auth/totp/disable",
    tag = "auth",
    request_body = CurrentPassword,
    responses((status = 204, description = "Done")),
)]
pub async fn totp_disable(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    current: CurrentUser,
    ApiJson(body): ApiJson<CurrentPassword>,
) -> Result<StatusCode, ApiError> {
    account::turn_off_totp(&state.services.auth, ip, &current, body).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/auth/logout`: ends this session. A session that came from
/// the identity provider answers 200 with where to sign out there too.
#[utoipa::path(
    post,
    path = "/api/auth/logout",
    tag = "auth",
    responses(
        (status = 204, description = "Signed out; the session cookie is cleared"),
        (status = 200, description = "Signed out here; `redirect` signs out at the identity provider", body = SignedOut),
    ),
)]
pub async fn logout(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Response, ApiError> {
    let answer = account::sign_out(&state.services.auth, &current, false).await?;
    Ok(signed_out_to(&state, answer))
}

/// `POST /api/auth/logout-all`: ends every session of the user, this one
/// too, and revokes every API token (a copied token is a way in as well).
#[utoipa::path(
    post,
    path = "/api/auth/logout-all",
    tag = "auth",
    responses((status = 204, description = "Every session ended and every API token revoked")),
)]
pub async fn logout_all(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Response, ApiError> {
    account::sign_out(&state.services.auth, &current, true).await?;
    Ok(signed_out(&state))
}

/// `GET /api/auth/session`: `{"user": …}` or `{"user": null}`, always 200,
/// so pages can ask who is signed in without an error in the console.
#[utoipa::path(
    get,
    path = "/api/auth/session",
    tag = "auth",
    security(()),
    responses((status = 200, body = Session)),
)]
pub async fn session(
    State(state): State<AppState>,
    request: axum::extract::Request,
) -> Json<Session> {
    use axum::extract::FromRequestParts;
    let (mut parts, _) = request.into_parts();
    let user = CurrentUser::from_request_parts(&mut parts, &state)
        .await
        .ok()
        .map(|current| current.user);
    Json(Session { user })
}

/// `GET /api/auth/me`.
#[utoipa::path(
    get,
    path = "/api/auth/me",
    tag = "auth",
    responses((status = 200, body = Me)),
)]
pub async fn me(current: CurrentUser) -> Json<Me> {
    Json(Me { user: current.user })
}

/// `POST /api/auth/password`: needs the current password and a browser
/// session; ends every other session of the user and revokes every API
/// token, so whoever knew the old password or copied a token is out.
#[utoipa::path(
    post,
    path = "/api/auth/password",
    tag = "auth",
    request_body = ChangePassword,
    responses((status = 204, description = "Done")),
)]
pub async fn change_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    current: CurrentUser,
    ApiJson(body): ApiJson<ChangePassword>,
) -> Result<StatusCode, ApiError> {
    account::change_password(&state.services.auth, ip, &current, body).await?;
    Ok(StatusCode::NO_CONTENT)
}
