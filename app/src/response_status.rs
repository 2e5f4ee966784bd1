//! Setting HTTP details of the page being rendered. On the server these write
//! into Leptos' per-request `ResponseOptions`; in the browser there is no
//! response to change, so they do nothing.

use http::StatusCode;

/// Sets the status code of the server-rendered response (for example 404 for
/// the not-found page).
#[cfg(feature = "ssr")]
pub fn set_status(status: StatusCode) {
    if let Some(response) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(status);
    }
}

#[cfg(not(feature = "ssr"))]
pub fn set_status(_status: StatusCode) {}

/// Sends the page's Content-Security-Policy, allowing the per-request nonce
/// that Leptos puts on its inline hydration script.
#[cfg(feature = "ssr")]
pub fn apply_content_security_policy() {
    use leptos::prelude::use_context;
    let nonce = leptos::nonce::use_nonce();
    let sources = use_context::<crate::backend::csp::ThirdPartySources>().unwrap_or_default();
    let policy = crate::backend::csp::content_security_policy(nonce.as_deref(), &sources);
    if let (Some(response), Ok(value)) = (
        use_context::<leptos_axum::ResponseOptions>(),
        http::HeaderValue::from_str(&policy),
    ) {
        response.insert_header(http::header::CONTENT_SECURITY_POLICY, value);
    }
}

#[cfg(not(feature = "ssr"))]
pub fn apply_content_security_policy() {}
