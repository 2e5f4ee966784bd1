//! Cache lifetimes. Only static files may be kept: files under `/pkg/`
//! carry a content hash in their names (cargo-leptos `hash-files`), so
//! browsers may keep them for a year; the other public files (favicon,
//! scripts) for an hour. Everything else is `no-store`: every API answer
//! (JSON, CSV exports, text, errors) and every page, because they may carry
//! a user's data and a stored copy outlives the session (shared computers,
//! proxies, the disk cache). `no-cache` would not save a request either:
//! these answers have no validators, so revalidating means fetching again.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const ASSET: &str = "public, max-age=3600";
const NO_STORE: &str = "no-store";

/// The API surfaces: REST under `/api`, operations under `/v1`.
const API_PREFIXES: &[&str] = &["/api/", "/v1/"];

/// How a response may be cached, from what it is. A handler's own choice
/// for a file is kept; for anything else it is overridden.
enum Policy {
    NoStore,
    File(&'static str),
}

fn policy(path: &str, status: StatusCode, content_type: Option<&str>) -> Policy {
    let api = API_PREFIXES.iter().any(|prefix| path.starts_with(prefix));
    // A 304 answers a revalidation of a stored file: it must not turn the
    // stored copy into `no-store`.
    let file_answer = status.is_success() || status == StatusCode::NOT_MODIFIED;
    let page_or_data = content_type
        .is_some_and(|kind| kind.starts_with("text/html") || kind.starts_with("application/json"));
    if api || !file_answer || page_or_data {
        Policy::NoStore
    } else if path.starts_with("/pkg/") {
        Policy::File(IMMUTABLE)
    } else {
        Policy::File(ASSET)
    }
}

/// Sets the policy on the response to a request for `path`.
pub fn apply(path: &str, response: &mut Response) {
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok());
    let policy = policy(path, response.status(), content_type);
    let headers = response.headers_mut();
    match policy {
        // Overrides anything set on the way: personal data is never stored.
        Policy::NoStore => {
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE));
        }
        Policy::File(value) => {
            headers
                .entry(header::CACHE_CONTROL)
                .or_insert(HeaderValue::from_static(value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(path: &str, status: u16, content_type: Option<&str>) -> &'static str {
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        match policy(path, status, content_type) {
            Policy::NoStore => NO_STORE,
            Policy::File(value) => value,
        }
    }

    #[test]
    fn api_answers_are_never_stored_whatever_their_type() {
        for kind in [
            Some("text/csv; charset=utf-8"),
            Some("application/json"),
            Some("text/plain"),
            None,
        ] {
            assert_eq!(
                value("/api/data/bills.csv", 200, kind),
                NO_STORE,
                "{kind:?}"
            );
            assert_eq!(value("/v1/operations", 200, kind), NO_STORE, "{kind:?}");
            assert_eq!(value("/api/health", 503, kind), NO_STORE, "{kind:?}");
            assert_eq!(value("/api/bills", 304, kind), NO_STORE, "{kind:?}");
        }
    }

    #[test]
    fn pages_and_errors_are_never_stored() {
        assert_eq!(value("/", 200, Some("text/html; charset=utf-8")), NO_STORE);
        assert_eq!(value("/bills", 200, Some("text/html")), NO_STORE);
        assert_eq!(value("/missing.svg", 404, Some("text/plain")), NO_STORE);
        assert_eq!(value("/favicon.svg", 500, None), NO_STORE);
    }

    #[test]
    fn static_files_keep_their_lifetimes() {
        assert_eq!(
            value("/pkg/tally.0123.wasm", 200, Some("application/wasm")),
            IMMUTABLE
        );
        assert_eq!(value("/favicon.svg", 200, Some("image/svg+xml")), ASSET);
        assert_eq!(value("/webauthn.js", 304, None), ASSET);
    }
}
