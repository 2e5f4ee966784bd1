//! Request ids: each request gets a UUID (or keeps the `x-request-id` it
//! arrived with, so a front proxy's id carries through), the id is in every
//! log line of that request's span, and it is echoed in the `x-request-id`
//! response header.

use axum::http::{HeaderName, Request};
use axum::Router;
use tower_http::request_id::{
    MakeRequestUuid, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

pub const HEADER: HeaderName = HeaderName::from_static("x-request-id");

pub fn apply<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    // Layers run outside-in from the last one added: the id is set first,
    // then the trace span reads it, then the response header is copied.
    router
        .layer(PropagateRequestIdLayer::new(HEADER))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request<_>| {
                    let request_id = request
                        .extensions()
                        .get::<RequestId>()
                        .and_then(|id| id.header_value().to_str().ok())
                        .unwrap_or_default();
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        path = %request.uri().path(),
                        request_id = %request_id,
                    )
                })
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(SetRequestIdLayer::new(HEADER, MakeRequestUuid))
}
