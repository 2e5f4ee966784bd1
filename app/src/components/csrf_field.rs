//! The CSRF token as a hidden form field, for the forms that work without
//! JavaScript: the server checks it exactly as it checks the
//! `X-CSRF-Token` header (bound to the session when signed in, else double
//! submit against the `tally_csrf` cookie).
//! With JavaScript the same forms go through the server function client,
//! which sends the header as well.

use leptos::prelude::*;

use crate::api::page_csrf::page_token;
pub use crate::domain::csrf::FIELD;

/// `<input type="hidden" name="csrf_token">` with this browser's token.
/// Rendered on the server from the request's cookies (the session's token,
/// or the CSRF cookie, which the server sets on the page's answer when the
/// browser had none); hydration keeps
/// the server's value, and a form drawn later in the browser gets the
/// token the page fetched.
#[component]
pub fn CsrfField() -> impl IntoView {
    let token = page_token();
    view! { <input type="hidden" name=FIELD value=move || token.get()/> }
}
