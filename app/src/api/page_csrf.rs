//! The CSRF token a server-rendered form carries: the request's
//! `tally_csrf` cookie, which the server's front door put there (and sets
//! on the answer) when the browser had none.

use leptos::prelude::*;

use crate::domain::csrf::well_formed;
use crate::ssr::cookies;

/// The token of the request being rendered, or empty outside a request.
pub fn page_token() -> Signal<String> {
    let token = use_context::<http::request::Parts>()
        .and_then(|parts| cookies::get(&parts.headers, cookies::CSRF).map(str::to_owned))
        .filter(|token| well_formed(token))
        .unwrap_or_default();
    Signal::stored(token)
}
