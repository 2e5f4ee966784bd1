//! The CSRF token a server-rendered form carries: for a browser with a
//! session cookie the token bound to its session, else the request's
//! `tally_csrf` cookie, which the server's front door put there (and sets
//! on the answer) when the browser had none (`cookies::csrf_token`, as
//! the server checks it).

use std::sync::Arc;

use leptos::prelude::*;

use crate::backend::cookies;
use crate::backend::services::Services;

/// The token of the request being rendered, or empty outside a request.
pub fn page_token() -> Signal<String> {
    let token = use_context::<http::request::Parts>()
        .zip(use_context::<Arc<Services>>())
        .and_then(|(parts, services)| cookies::csrf_token(&parts.headers, &services.keyring))
        .unwrap_or_default();
    Signal::stored(token)
}

/// Nothing to forget on the server: each request reads its own token.
pub fn forget() {}
