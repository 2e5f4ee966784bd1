//! `POST /login`: the sign-in form without JavaScript.
//!
//! The same sign-in as every other door (`entrance::password`): throttled,
//! the same answer for an unknown email and a wrong password. It answers
//! with a redirect: to `next` (a path of this site) with the session and
//! device cookies, or back to `/login` with an error code in the address
//! (never a field the person typed). An account with a second factor is
//! sent back to finish in the page, which needs JavaScript for that step.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use app::backend::api_error::ApiError;
use app::backend::auth::entrance;
use app::backend::client_ip::ClientIp;
use app::contract::account::{SignIn, SignInAnswer};
use app::domain::operation::query_value;
use app::domain::redirect;

use super::answer::{see_other, with_cookies};
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
        ApiError::Forbidden(_) => "password_off",
        ApiError::InvalidField { .. } | ApiError::BadRequest(_) => "invalid",
        _ => "unavailable",
    }
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
    match entrance::password(&state.services.auth, visitor, request).await {
        Ok(answered) => {
            let second_factor = matches!(answered.answer, SignInAnswer::SecondFactor(_));
            if second_factor {
                return back_to_sign_in("second-factor", &form.next);
            }
            let cookies = session_answer::answered(&state, answered);
            with_cookies(
                see_other(&redirect::next_or_default(Some(&form.next))),
                &cookies,
            )
        }
        Err(error) => back_to_sign_in(error_code(&ApiError::from(error)), &form.next),
    }
}
