//! Canonical hosts. Tally answers on `PUBLIC_BASE_URL` and
//! `PUBLIC_ALT_BASE_URL` alike; a `www.` host answers 301 to the root of the
//! base URL; plain HTTP (as a trusted proxy reports it in
//! `X-Forwarded-Proto`) answers 301 to the same address over HTTPS. HSTS is
//! set on every response by `edge`.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::config::Settings;

fn moved(location: &str) -> Response {
    let mut response = StatusCode::MOVED_PERMANENTLY.into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// The redirect to the canonical host or to HTTPS, when one is due.
pub fn redirect(settings: &Settings, request: &Request) -> Option<Response> {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if host.starts_with("www.") {
        return Some(moved(&format!("{}/", settings.public_base_url)));
    }
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    if let Some(peer) = peer {
        if settings
            .trusted_proxies
            .forwarded_plain_http(peer, request.headers())
            && !host.is_empty()
        {
            let path = request
                .uri()
                .path_and_query()
                .map_or("/", |path| path.as_str());
            return Some(moved(&format!("https://{host}{path}")));
        }
    }
    None
}
