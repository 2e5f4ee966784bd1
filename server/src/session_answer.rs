//! The HTTP side of a session: the answer that signs a browser in (the
//! user, or the challenge of the second step, with the session cookie), the
//! one that signs it out, and the `User-Agent` a session is recorded with.
//! Shared by the sign-in, registration and security-key routes.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use app::contract::account::{Me, SecondFactorChallenge, SignInAnswer};
use app::ssr::auth::sessions;
use app::ssr::auth::sign_in::{SignInError, SignedIn};
use app::ssr::auth::users::User;

use crate::state::AppState;
use app::ssr::api_error::ApiError;
use app::ssr::cookies;

const SESSION_MAX_AGE: i64 = sessions::LIFETIME_DAYS * 24 * 3600;

/// The `User-Agent` a sign-in is recorded with.
pub fn user_agent(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::USER_AGENT)
        .and_then(|value| value.to_str().ok())
}

/// The answer to either sign-in step: a session cookie and the user, or the
/// challenge for the second factor.
pub fn signed_in_response(
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

/// `{"user": …}` with the new session's cookie.
pub fn signed_in_with_session(state: &AppState, user: User, token: &str) -> Response {
    let mut response = Json(Me { user }).into_response();
    if let Some(cookie) = session_cookie(state, token, SESSION_MAX_AGE) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

fn session_cookie(state: &AppState, token: &str, max_age: i64) -> Option<HeaderValue> {
    cookies::session(token, max_age, state.secure_cookies())
}

/// No content, and the session cookie cleared.
pub fn signed_out(state: &AppState) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    if let Some(cookie) = session_cookie(state, "", 0) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}
