//! Cache lifetimes. Files under `/pkg/` carry a content hash in their names
//! (cargo-leptos `hash-files`), so browsers may keep them for a year; other
//! static assets for an hour; pages and API answers are not cached.

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const ASSET: &str = "public, max-age=3600";
const DYNAMIC: &str = "no-cache";

pub async fn cache_control(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let mut response = next.run(request).await;
    let is_html_or_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|kind| kind.starts_with("text/html") || kind.starts_with("application/json"));
    let value = if !response.status().is_success() || is_html_or_json {
        DYNAMIC
    } else if path.starts_with("/pkg/") {
        IMMUTABLE
    } else {
        ASSET
    };
    response
        .headers_mut()
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static(value));
    response
}
