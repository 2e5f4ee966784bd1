//! The CSRF token's cookie, as the pages, the token route and the answers
//! that start or end a session hand it out (`middleware::csrf` checks
//! what comes back).

use axum::http::{header, HeaderMap, HeaderValue};

use app::backend::auth::token::random_token;
use app::backend::cookies::{self, SessionChange};

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

/// An answer that sets the session cookie (a sign-in, registration,
/// single sign-on, a security key) or clears it (a sign-out) gets the
/// CSRF cookie that goes with it, in place of any it set already: the
/// token bound to the new session, or a fresh one once there is none.
/// So the token changes whenever a session starts (one planted before
/// sign-in is worth nothing after), and the double submit agrees with
/// the bound token when the session cookie runs out before the CSRF
/// cookie. The front door calls it for every answer, whichever door set
/// the session cookie, so no door can forget it.
pub fn follow_session(state: &AppState, answer: &mut HeaderMap) {
    let token = match cookies::session_change(answer) {
        None => return,
        Some(SessionChange::Started(session)) => {
            cookies::bound_csrf_token(&state.keyring, &session)
        }
        Some(SessionChange::Ended) => Some(random_token()),
    };
    cookies::unset(answer, cookies::CSRF);
    if let Some(set) = token.and_then(|token| cookie(state, &token)) {
        answer.append(header::SET_COOKIE, set);
    }
}
