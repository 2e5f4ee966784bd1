//! `POST /register`: creating an account without JavaScript, from an
//! invitation link or while registration is open. The same service as
//! `POST /api/auth/register`; signed in, the person lands where
//! every sign-in does.

use app::backend::api_error::ApiError;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use app::backend::auth::entrance;
use app::backend::client_ip::ClientIp;
use app::contract::account::Register;
use app::domain::form_outcome::FormOutcome;
use app::domain::operation::query_value;
use app::domain::redirect;

use super::answer::{failure, outcome, see_other, with_cookies};
use crate::session_answer;
use crate::state::AppState;

/// The form's fields. Not `Debug`: it holds the password.
#[derive(Deserialize)]
pub struct RegisterForm {
    #[serde(default)]
    invitation: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
    /// Filled in by the page's script when it has run; empty otherwise.
    #[serde(default, rename = "timeZone")]
    time_zone: String,
}

/// The registration page again, for the same invitation.
fn page(invitation: &str) -> String {
    if invitation.is_empty() {
        "/register".to_owned()
    } else {
        format!("/register?invitation={}", query_value(invitation))
    }
}

pub async fn submit(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    Form(form): Form<RegisterForm>,
) -> Response {
    let back = page(&form.invitation);
    if form.email.trim().is_empty() || form.password.is_empty() {
        return outcome(&back, FormOutcome::MissingField);
    }
    let request = Register {
        invitation: (!form.invitation.is_empty()).then_some(form.invitation),
        email: form.email.trim().to_owned(),
        name: form.name.trim().to_owned(),
        password: form.password,
        time_zone: (!form.time_zone.is_empty()).then_some(form.time_zone),
    };
    let visitor = session_answer::visitor(client, &headers);
    match entrance::register(&state.services.auth, visitor, request).await {
        Ok(answered) => {
            let cookies = session_answer::answered(&state, answered);
            with_cookies(see_other(redirect::AFTER_SIGN_IN), &cookies)
        }
        Err(error) => outcome(&back, failure(&ApiError::from(error))),
    }
}
