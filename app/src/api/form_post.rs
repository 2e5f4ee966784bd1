//! A form the browser posted itself, without JavaScript: Leptos answers
//! such a post by sending the browser back to the page it came from (with
//! the error in the address, which `ServerAction` reads to show it). A
//! server function whose success belongs on another page (a new bill's
//! own page, the contact form's thank-you) says where with [`then_open`].

use axum::http::header::ACCEPT;
use axum::http::request::Parts;
use leptos::prelude::use_context;

/// After a successful post without JavaScript, opens `path` instead of
/// the page the form was on. A call from the page's script (which takes
/// the answer itself) is left alone.
pub fn then_open(path: &str) {
    if plain_form_post() {
        leptos_axum::redirect(path);
    }
}

/// A browser's own form post asks for a page (`text/html`); the server
/// function client asks for data.
fn plain_form_post() -> bool {
    use_context::<Parts>().is_some_and(|parts| {
        parts
            .headers
            .get(ACCEPT)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|accept| accept.contains("text/html"))
    })
}
