//! `POST /profile/password`: changing the password without JavaScript.
//! The same service as `POST /api/auth/password` (the current password
//! first; every other session and every API token ends).

use axum::extract::State;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use app::backend::api_error::ApiError;
use app::backend::auth::account;
use app::backend::auth::extractors::CurrentUser;
use app::backend::client_ip::ClientIp;
use app::contract::two_factor::ChangePassword;
use app::domain::form_outcome::FormOutcome;

use super::answer::{failure, outcome, sign_in_first};
use crate::state::AppState;

/// Where the form is, and where it comes back to.
pub const PAGE: &str = "/profile";

/// The form's fields. Not `Debug`: it holds passwords.
#[derive(Deserialize)]
pub struct PasswordForm {
    #[serde(default, rename = "currentPassword")]
    current_password: String,
    #[serde(default, rename = "newPassword")]
    new_password: String,
}

pub async fn submit(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    current: Result<CurrentUser, ApiError>,
    Form(form): Form<PasswordForm>,
) -> Response {
    let Ok(current) = current else {
        return sign_in_first(PAGE);
    };
    if form.current_password.is_empty() || form.new_password.is_empty() {
        return outcome(PAGE, FormOutcome::MissingField);
    }
    let request = ChangePassword {
        current_password: form.current_password,
        new_password: form.new_password,
    };
    match account::change_password(&state.services.auth, ip, &current, request).await {
        Ok(()) => outcome(PAGE, FormOutcome::PasswordChanged),
        Err(error) => outcome(PAGE, failure(&ApiError::from(error))),
    }
}
