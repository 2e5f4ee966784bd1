//! `POST /login`: the sign-in form as the browser posts it without
//! JavaScript (turned off, or submitted before the page hydrated). The page's
//! form is `method="post"` to here, so the password never lands in the
//! address bar, the history or the next page's `Referer`; with JavaScript
//! the page posts to the `sign-in` server function instead.
//!
//! The same sign-in as every other door (`entrance::password`): throttled,
//! the same answer for an unknown email and a wrong password. It answers
//! with a redirect: to `next` (a path of this site) with the session and
//! device cookies, or back to `/login` with an error code in the address
//! (never a field the person typed). An account with a second factor is
//! sent back to finish in the page, which needs JavaScript for that step.
//!
//! A form post cannot carry the CSRF header; instead the browser's `Origin`
//! must be this site's (`middleware::csrf::FORM_POSTS`), and the cookies it
//! sets are `SameSite`.

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

use app::contract::account::{SignIn, SignInAnswer};
use app::domain::operation::query_value;
use app::domain::redirect;
use app::ssr::api_error::ApiError;
use app::ssr::auth::entrance;
use app::ssr::client_ip::ClientIp;

use crate::session_answer;
use crate::state::AppState;

/// The form's fields. Not `Debug`: it holds the password.
#[derive(Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    next: String,
}

/// Why the form came back, as `/login?error=…` says it (the page words it).
fn error_code(error: &ApiError) -> &'static str {
    match error {
        ApiError::WrongCredentials => "credentials",
        ApiError::TooManyRequests { .. } => "throttled",
        ApiError::InvalidField { .. } | ApiError::BadRequest(_) => "invalid",
        _ => "unavailable",
    }
}

fn see_other(location: &str) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// `/login` with `error` and the `next` the form carried (when safe).
fn back_to_sign_in(error: &str, next: &str) -> Response {
    match redirect::safe_next(next) {
        Some(next) => see_other(&format!("/login?error={error}&next={}", query_value(next))),
        None => see_other(&format!("/login?error={error}")),
    }
}

pub async fn submit(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    Form(form): Form<SignInForm>,
) -> Response {
    if form.email.trim().is_empty() || form.password.is_empty() {
        return back_to_sign_in("missing", &form.next);
    }
    let request = SignIn {
        email: form.email.trim().to_owned(),
        password: form.password,
    };
    let visitor = session_answer::visitor(client, &headers);
    match entrance::password(&state, visitor, request).await {
        Ok(answered) => {
            let second_factor = matches!(answered.answer, SignInAnswer::SecondFactor(_));
            if second_factor {
                return back_to_sign_in("second-factor", &form.next);
            }
            let cookies = session_answer::answered(&state, answered);
            let mut response = see_other(&redirect::next_or_default(Some(&form.next)));
            for cookie in cookies.headers().get_all(header::SET_COOKIE) {
                response
                    .headers_mut()
                    .append(header::SET_COOKIE, cookie.clone());
            }
            response
        }
        Err(error) => back_to_sign_in(error_code(&error), &form.next),
    }
}
