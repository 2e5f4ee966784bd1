//! `POST /profile/sign-out`: Profile's "Sign out" and "Sign out
//! everywhere" without JavaScript. The same service as `POST
//! /api/auth/logout` and `…/logout-all`. The session cookie is cleared and
//! the browser goes to `/login`, or, when the session came from an
//! identity provider, on to its sign-out through a page of its own (the
//! pages' `form-action 'self'` would stop a redirect to another site).

use axum::extract::State;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use app::backend::api_error::ApiError;
use app::backend::auth::account;
use app::backend::auth::extractors::CurrentUser;

use super::answer::{failure, onward, outcome, see_other, with_cookies};
use crate::session_answer::signed_out;
use crate::state::AppState;

/// Where the form is.
const PAGE: &str = "/profile";

/// Where a browser signed out here goes.
const SIGNED_OUT: &str = "/login";

/// The pressed button: `everywhere=true` ends every session and revokes
/// every API token.
#[derive(Deserialize)]
pub struct SignOutForm {
    #[serde(default)]
    everywhere: Option<String>,
}

pub async fn submit(
    State(state): State<AppState>,
    current: Result<CurrentUser, ApiError>,
    Form(form): Form<SignOutForm>,
) -> Response {
    let Ok(current) = current else {
        return see_other(SIGNED_OUT);
    };
    let everywhere = form.everywhere.as_deref() == Some("true");
    let answer = match account::sign_out(&state.services.auth, &current, everywhere).await {
        Ok(answer) => answer,
        Err(error) => return outcome(PAGE, failure(&ApiError::from(error))),
    };
    let next = match answer.redirect {
        Some(provider) => onward(
            &state,
            "Signing out",
            &provider,
            "Continue to sign out at your identity provider",
        ),
        None => see_other(SIGNED_OUT),
    };
    with_cookies(next, &signed_out(&state))
}
