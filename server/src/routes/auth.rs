//! `/api/auth/…`: the CSRF token, signing in and out, the current user and
//! password changes.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use secrecy::SecretString;

use app::contract::account::{
    CsrfToken, Me, SecondFactorChallenge, SecondFactorCode, Session, SignIn, SignInAnswer,
};
use app::contract::two_factor::{
    ChangePassword, CurrentPassword, RecoveryCodes, TotpCode, TotpEnrolment, TotpStatus,
};
use app::ssr::auth::sign_in::{self, Attempt, SignInError, SignedIn};
use app::ssr::auth::throttle::Refusal;
use app::ssr::auth::token::random_token;
use app::ssr::auth::users::{self, User};
use app::ssr::auth::{api_tokens, sessions, totp};

use crate::auth::{BrowserSession, Credential, CurrentUser};
use crate::client_ip::ClientIp;
use crate::cookies;
use crate::error::ApiError;
use crate::extract::ApiJson;
use crate::state::AppState;

const CSRF_MAX_AGE: i64 = 30 * 24 * 3600;
const SESSION_MAX_AGE: i64 = sessions::LIFETIME_DAYS * 24 * 3600;

/// `GET /api/auth/csrf-token`: the token to send in `X-CSRF-Token`, also set
/// as the `tally_csrf` cookie (kept when the browser already has one).
pub async fn csrf_token(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let token = cookies::get(&headers, cookies::CSRF)
        .filter(|existing| {
            existing.len() == 43
                && existing
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
        .map(str::to_owned)
        .unwrap_or_else(random_token);
    let cookie = cookies::set(
        cookies::CSRF,
        &token,
        CSRF_MAX_AGE,
        state.settings.csrf_http_only,
        state.settings.secure_cookies(),
        "Strict",
    );
    let mut response = Json(CsrfToken { csrf_token: token }).into_response();
    if let Some(cookie) = cookie {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// The `User-Agent` a sign-in is recorded with.
pub(crate) fn user_agent(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::USER_AGENT)
        .and_then(|value| value.to_str().ok())
}

/// `POST /api/auth/login`: the same answer for an unknown email and a wrong
/// password; throttled per IP and per account.
pub async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<SignIn>,
) -> Result<Response, ApiError> {
    let attempt = Attempt {
        email: body.email,
        password: SecretString::from(body.password),
        ip,
        user_agent: user_agent(&headers).map(str::to_owned),
    };
    let answer = sign_in::sign_in(
        &state.pool,
        &state.keyring,
        &state.login_history,
        &state.sign_in_throttle,
        attempt,
    )
    .await;
    signed_in_response(&state, answer)
}

/// The answer to either sign-in step: a session cookie and the user, or the
/// challenge for the second factor.
pub(crate) fn signed_in_response(
    state: &AppState,
    answer: Result<SignedIn, SignInError>,
) -> Result<Response, ApiError> {
    match answer {
        Ok(SignedIn::Session { user, token }) => Ok(signed_in_with_session(state, user, &token)),
        Ok(SignedIn::SecondFactor { challenge, methods }) => {
            Ok(Json(SignInAnswer::SecondFactor(SecondFactorChallenge {
                second_factor: methods.first().copied(),
                methods,
                challenge,
            }))
            .into_response())
        }
        Err(SignInError::WrongCredentials) => Err(ApiError::WrongCredentials),
        Err(error @ SignInError::EmailTooLong) => Err(ApiError::invalid(&error.to_string())),
        Err(SignInError::WrongCode) => Err(ApiError::invalid(
            "code: that code is not right, or was already used",
        )),
        Err(error @ SignInError::WrongKey) => {
            Err(ApiError::invalid(&format!("credential: {error}")))
        }
        Err(error @ SignInError::Throttled(wait)) => Err(ApiError::TooManyRequests {
            message: error.to_string(),
            retry_after: wait,
        }),
        Err(SignInError::Auth(error)) => Err(error.into()),
    }
}

/// `POST /api/auth/login/totp`: the second step, with a TOTP code or a
/// recovery code.
pub async fn login_second_factor(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<SecondFactorCode>,
) -> Result<Response, ApiError> {
    let user_agent = user_agent(&headers);
    let answer = sign_in::second_factor(
        &state.pool,
        &state.keyring,
        &state.sign_in_throttle,
        ip,
        &body.challenge,
        &body.code,
        user_agent,
    )
    .await;
    signed_in_response(&state, answer)
}

/// `POST /api/auth/totp/setup`: a new secret with its QR code (SVG).
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

/// `{"user": …}` with the new session's cookie.
pub(crate) fn signed_in_with_session(state: &AppState, user: User, token: &str) -> Response {
    let mut response = Json(Me { user }).into_response();
    if let Some(cookie) = session_cookie(state, token, SESSION_MAX_AGE) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// `GET /api/auth/totp`: whether TOTP is on, recovery codes left.
pub async fn totp_status(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<TotpStatus>, ApiError> {
    Ok(Json(totp::status(&state.pool, current.user.id).await?))
}

/// `POST /api/auth/totp/disable`: turns TOTP off; needs the password, so a
/// borrowed session cannot weaken the account.
pub async fn totp_disable(
    State(state): State<AppState>,
    client: ClientIp,
    session: BrowserSession,
    ApiJson(body): ApiJson<CurrentPassword>,
) -> Result<StatusCode, ApiError> {
    confirm_password(&state, client, &session.user, body.current_password).await?;
    totp::turn_off(&state.pool, session.user.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Checks the signed-in user's current password before a sensitive change
/// (new password, new email, turning a second factor off, removing a
/// security key); the attempt counts against the sign-in throttle.
pub(crate) async fn confirm_password(
    state: &AppState,
    ClientIp(ip): ClientIp,
    user: &User,
    current_password: String,
) -> Result<(), ApiError> {
    state
        .sign_in_throttle
        .attempt(ip, &user.email)
        .map_err(|refusal| refused(refusal, "too many password attempts; try again later"))?;
    let password = SecretString::from(current_password);
    if users::password_matches(&state.pool, user.id, password).await? {
        Ok(())
    } else {
        Err(ApiError::invalid(
            "currentPassword: this is not your current password",
        ))
    }
}

/// A sign-in throttle's refusal outside sign-in itself: a too-long email
/// names the field; otherwise `message` and how long to wait.
pub(crate) fn refused(refusal: Refusal, message: &str) -> ApiError {
    match refusal {
        Refusal::EmailTooLong => ApiError::invalid(&refusal.to_string()),
        Refusal::Wait(wait) => ApiError::TooManyRequests {
            message: message.into(),
            retry_after: wait,
        },
    }
}

fn session_cookie(state: &AppState, token: &str, max_age: i64) -> Option<axum::http::HeaderValue> {
    cookies::set(
        cookies::SESSION,
        token,
        max_age,
        true,
        state.settings.secure_cookies(),
        "Lax",
    )
}

fn signed_out(state: &AppState) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    if let Some(cookie) = session_cookie(state, "", 0) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// `POST /api/auth/logout`: ends this session.
pub async fn logout(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Response, ApiError> {
    if let Credential::Session { session_id } = &current.credential {
        sessions::end(&state.pool, session_id).await?;
    }
    Ok(signed_out(&state))
}

/// `POST /api/auth/logout-all`: ends every session of the user, this one
/// too, and revokes every API token (a copied token is a way in as well).
pub async fn logout_all(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Response, ApiError> {
    sessions::end_all(&state.pool, current.user.id, None).await?;
    api_tokens::revoke_all(&state.pool, current.user.id).await?;
    Ok(signed_out(&state))
}

/// `GET /api/auth/session`: `{"user": …}` or `{"user": null}`, always 200,
/// so pages can ask who is signed in without an error in the console.
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
pub async fn me(current: CurrentUser) -> Json<Me> {
    Json(Me { user: current.user })
}

/// `POST /api/auth/password`: needs the current password and a browser
/// session; ends every other session of the user and revokes every API
/// token, so whoever knew the old password or copied a token is out.
pub async fn change_password(
    State(state): State<AppState>,
    client: ClientIp,
    session: BrowserSession,
    ApiJson(body): ApiJson<ChangePassword>,
) -> Result<StatusCode, ApiError> {
    confirm_password(&state, client, &session.user, body.current_password).await?;
    users::set_password(
        &state.pool,
        &session.user,
        SecretString::from(body.new_password),
    )
    .await?;
    sessions::end_all(&state.pool, session.user.id, Some(&session.session_id)).await?;
    api_tokens::revoke_all(&state.pool, session.user.id).await?;
    Ok(StatusCode::NO_CONTENT)
}
