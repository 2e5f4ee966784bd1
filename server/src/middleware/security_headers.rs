//! Security headers on every response. Pages set their own CSP (with the
//! per-request script nonce); every other response gets the same policy
//! without a nonce.

use axum::http::{header, HeaderName, HeaderValue};
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

const HSTS: &str = "max-age=63072000; includeSubDomains";

pub fn apply<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    let csp = app::ssr::csp::content_security_policy(None, &Default::default());
    let overriding =
        |name: HeaderName, value: HeaderValue| SetResponseHeaderLayer::overriding(name, value);
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_str(&csp)
                .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'")),
        ))
        .layer(overriding(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        ))
        .layer(overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ))
        .layer(overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
}
