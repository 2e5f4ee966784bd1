//! The account forms as a browser posts them without JavaScript (turned
//! off, or submitted before the page hydrated). Every form that carries a
//! secret is `method="post"` to one of these, so a password, code or token
//! name never lands in the address bar, the history or the next page's
//! `Referer`; with JavaScript the page calls its server function instead.
//!
//! Each runs the same service as the other doors. A form post cannot carry
//! the CSRF header: instead it carries the token in its `csrf_token` field,
//! checked against the cookie exactly like the header
//! ([`PATHS`]). Each answers
//! with a redirect carrying a code (`domain::form_outcome`), never a field,
//! or, for what is shown once (a new token, a second factor's key and
//! recovery codes, an invitation link), with a page of its own that no
//! cache keeps.

pub mod answer;
pub mod invitation;
pub mod password;
pub mod register;
pub mod sign_in;
pub mod sign_out;
pub mod sso_link;
pub mod tokens;
pub mod two_factor;

use axum::routing::post;
use axum::Router;

use crate::state::AppState;

/// Where the forms post: the CSRF check reads their token from a field
/// (`middleware::csrf::FORM_POSTS`).
pub const PATHS: &[&str] = &[
    "/login",
    "/register",
    "/profile/password",
    "/profile/tokens",
    "/profile/two-factor",
    "/profile/two-factor/confirm",
    "/profile/two-factor/off",
    "/profile/single-sign-on",
    "/admin/invite",
    "/profile/sign-out",
];

/// The routes for [`PATHS`]; the pages at the same paths stay Leptos's.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(PATHS[0], post(sign_in::submit))
        .route(PATHS[1], post(register::submit))
        .route(PATHS[2], post(password::submit))
        .route(PATHS[3], post(tokens::submit))
        .route(PATHS[4], post(two_factor::start))
        .route(PATHS[5], post(two_factor::confirm))
        .route(PATHS[6], post(two_factor::turn_off))
        .route(PATHS[7], post(sso_link::submit))
        .route(PATHS[8], post(invitation::submit))
        .route(PATHS[9], post(sign_out::submit))
}
