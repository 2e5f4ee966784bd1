//! What every response gets, in one service wrapped around the whole router:
//! a request id, the request's log span and its access line, and the
//! security headers.
//!
//! - **Request id**: the `x-request-id` the request arrived with, when it is
//!   a plausible id (1–128 visible ASCII characters), so a front proxy's id
//!   carries through; otherwise a fresh UUID v4. It is in the span of every
//!   log line the request causes and echoed in the response header.
//! - **Access line**: one JSON line per request with its request id,
//!   method, path, status and latency (target `tally::access`, file only).
//!   It is logged outside the request's span, with the id as a field, so
//!   the JSON formatter does not re-read the span's stored fields for it.
//! - **Metrics**: the response's route template, method, status and
//!   latency are counted for `/metrics` (`metrics::http`).
//! - **Security headers**: pages set their own CSP (with the per-request
//!   script nonce); every other response gets the same policy without one.
//!   HSTS, `nosniff`, the referrer policy and `X-Frame-Options: DENY`
//!   always.
//!
//! As tower-http layers (set id, trace, propagate id, five header setters)
//! applied with `Router::layer`, each was a boxed clone of the inner service
//! and a boxed future per request, and the fresh UUID a `getrandom` system
//! call; together they cost more than the health handler itself. Here they
//! are one boxed future, and the id comes from the thread's random
//! generator.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::Request;
use axum::http::{header, HeaderName, HeaderValue};
use axum::response::Response;
use tower::Service;
use tracing::Instrument;

use crate::metrics::HttpMetrics;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The target of the per-request access line.
pub const ACCESS_TARGET: &str = "tally::access";

const HSTS: &str = "max-age=63072000; includeSubDomains";

/// The longest `x-request-id` taken from a request.
const MAX_REQUEST_ID: usize = 128;

/// The router (or any service) with the edge around it.
#[derive(Clone)]
pub struct Edge<S> {
    inner: S,
    csp: Arc<HeaderValue>,
    metrics: Arc<HttpMetrics>,
}

impl<S> Edge<S> {
    pub fn new(inner: S, metrics: Arc<HttpMetrics>) -> Self {
        let csp = app::backend::csp::content_security_policy(None, &Default::default());
        let csp = HeaderValue::from_str(&csp)
            .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
        Self {
            inner,
            csp: Arc::new(csp),
            metrics,
        }
    }
}

impl<S> Service<Request> for Edge<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let started = Instant::now();
        let id = request_id(&request);
        request.headers_mut().insert(REQUEST_ID, id.clone());
        let method = request.method().clone();
        let path = request.uri().path().to_owned();
        let id_text = id.to_str().unwrap_or_default().to_owned();
        // The id alone: method and path are on the access line, and each
        // span field is formatted once per log layer for every request.
        let span = tracing::info_span!("request", request_id = %id_text);
        // The ready service answers this request; a fresh clone waits for
        // the next (tower's usual take-the-ready-one pattern).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let csp = self.csp.clone();
        let metrics = self.metrics.clone();
        Box::pin(async move {
            let Ok(mut response) = inner.call(request).instrument(span).await;
            secure(&mut response, &csp);
            response.headers_mut().insert(REQUEST_ID, id);
            let elapsed = started.elapsed();
            metrics.record(&method, &path, response.status().as_u16(), elapsed);
            tracing::info!(
                target: ACCESS_TARGET,
                request_id = %id_text,
                method = %method,
                path = %super::token_paths::loggable(&path),
                status = response.status().as_u16(),
                latency_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
                "request answered"
            );
            Ok(response)
        })
    }
}

/// The request's own id when it is a plausible one, otherwise a fresh one.
fn request_id(request: &Request) -> HeaderValue {
    request
        .headers()
        .get(REQUEST_ID)
        .filter(|value| plausible_id(value.as_bytes()))
        .cloned()
        .unwrap_or_else(fresh_id)
}

fn plausible_id(bytes: &[u8]) -> bool {
    (1..=MAX_REQUEST_ID).contains(&bytes.len()) && bytes.iter().all(u8::is_ascii_graphic)
}

/// A UUID v4 from the thread's generator (seeded from the OS, no system
/// call per id).
fn fresh_id() -> HeaderValue {
    let bytes: [u8; 16] = rand::random();
    let id = uuid::Builder::from_random_bytes(bytes).into_uuid();
    let mut text = uuid::Uuid::encode_buffer();
    HeaderValue::from_str(id.hyphenated().encode_lower(&mut text))
        .unwrap_or_else(|_| HeaderValue::from_static("unknown"))
}

fn secure(response: &mut Response, csp: &HeaderValue) {
    let headers = response.headers_mut();
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(header::CONTENT_SECURITY_POLICY, csp.clone());
    }
    headers.insert(
        header::STRICT_TRANSPORT_SECURITY,
        HeaderValue::from_static(HSTS),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_ids_are_distinct_uuid_v4() {
        let first = fresh_id();
        let second = fresh_id();
        assert_ne!(first, second);
        let parsed = uuid::Uuid::parse_str(first.to_str().unwrap()).unwrap();
        assert_eq!(parsed.get_version_num(), 4);
    }

    #[test]
    fn only_plausible_ids_are_taken_from_the_request() {
        assert!(plausible_id(b"proxy-id-123"));
        assert!(!plausible_id(b""));
        assert!(!plausible_id(b"has space"));
        assert!(!plausible_id(&[b'a'; MAX_REQUEST_ID + 1]));
        assert!(plausible_id(&[b'a'; MAX_REQUEST_ID]));
    }
}
