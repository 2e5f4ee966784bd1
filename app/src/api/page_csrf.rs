//! The CSRF token a server-rendered form carries: the request's
//! `tally_csrf` cookie, which the server's front door put there (and sets
//! on the answer) when the browser had none.

use leptos::prelude::*;

use crate::backend::cookies;

/// The token of the request being rendered, or empty outside a request.
pub fn page_token() -> Signal<String> {
    let token = use_context::<http::request::Parts>()
        .and_then(|parts| cookies::csrf_token(&parts.headers).map(str::to_owned))
        .unwrap_or_default();
    Signal::stored(token)
}
