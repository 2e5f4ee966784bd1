//! `POST /profile/single-sign-on`: Profile → Security's "Link" button. It
//! starts a provider sign-in that adds the identity to the account signed
//! in (no new session) and comes back to `/profile`. A form post, so the
//! CSRF token rides in its `csrf_token` field; starting by a plain link
//! would let another site start a linking in someone's browser. It answers
//! with a page that moves on to the provider (`answer::onward`): the
//! pages' `form-action 'self'` would stop a redirect to another site.

use axum::extract::State;
use axum::response::Response;

use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;
use app::backend::client_ip::ClientIp;
use app::backend::sso::service;

use super::answer::{onward, sign_in_first};
use crate::routes::sso::{refused_start, with_browser_cookie};
use crate::state::AppState;

/// Where the browser comes back to after linking.
const BACK: &str = "/profile";

pub async fn submit(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    current: Result<CurrentUser, ApiError>,
) -> Response {
    let Ok(current) = current else {
        return sign_in_first(BACK);
    };
    match service::start(&state.services.sso, ip, Some(BACK), Some(current.user.id)).await {
        Ok(started) => {
            let page = onward(
                &state,
                "Linking your account",
                &started.location,
                "Continue to your identity provider",
            );
            with_browser_cookie(&state, page, &started)
        }
        Err(error) => refused_start(ip, &error),
    }
}
