//! The CSRF token's cookie, as the pages, the token route and single
//! sign-on hand it out (`middleware::csrf` checks what comes back).

use axum::http::HeaderValue;

use app::backend::cookies;

use crate::state::AppState;

/// How long a CSRF cookie lives (renewed whenever a token is handed out).
pub const MAX_AGE: i64 = 30 * 24 * 3600;

/// The `Set-Cookie` of a CSRF token: [`MAX_AGE`], SameSite=Strict,
/// HttpOnly unless the settings say otherwise, Secure behind https.
pub fn cookie(state: &AppState, token: &str) -> Option<HeaderValue> {
    cookies::set(
        cookies::CSRF,
        token,
        MAX_AGE,
        state.settings.accounts.csrf_http_only,
        state.secure_cookies(),
        "Strict",
    )
}
