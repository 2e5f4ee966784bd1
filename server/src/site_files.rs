//! What no route has: a file of the site root (`/favicon.svg`,
//! `/robots.txt`, the helper scripts), or else the not-found page.
//!
//! This replaces Leptos's `file_and_error_handler`. That one answers a file
//! inside a reactive owner made with `Owner::new()`, whose parent is the
//! worker thread's current owner, and then moves the `ResponseOptions` it
//! finds up that chain onto the file. When the thread's current owner was
//! another request's page, the file took that page's headers: its
//! Content-Security-Policy (so the page went out without the nonce its
//! scripts carry, and never hydrated), and it could as well have taken a
//! `Set-Cookie` meant for someone else. Here a file is a plain
//! `ServeDir` answer with no reactive owner at all, and the not-found page
//! renders under a root owner of its own.

use std::convert::Infallible;
use std::pin::Pin;

use app::backend::csp::ThirdPartySources;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use futures::stream::{once, Stream, StreamExt};
use leptos::prelude::provide_context;
use leptos::tachys::view::RenderHtml;
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::state::AppState;

type Html = Pin<Box<dyn Stream<Item = String> + Send>>;

/// The router's fallback.
pub async fn fallback(state: AppState, sources: ThirdPartySources, request: Request) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD) {
        // ServeDir takes a request; it needs only the head.
        let mut probe = Request::new(Body::empty());
        *probe.method_mut() = request.method().clone();
        *probe.uri_mut() = request.uri().clone();
        *probe.headers_mut() = request.headers().clone();
        if let Some(file) = site_file(&state, probe).await {
            return file;
        }
    }
    not_found(state, sources, request).await
}

/// The file at the request's path under the site root, if there is one.
async fn site_file(state: &AppState, probe: Request) -> Option<Response> {
    let served: Result<_, Infallible> = ServeDir::new(&state.settings.site_root)
        .append_index_html_on_directories(false)
        .precompressed_br()
        .precompressed_gzip()
        .oneshot(probe)
        .await;
    let response = match served {
        Ok(response) => response,
        Err(never) => match never {},
    };
    // A directory, a missing file and a bad path all answer 404 here:
    // those are the not-found page's.
    (response.status() != StatusCode::NOT_FOUND).then(|| response.into_response())
}

/// The application's own not-found page (status 404), with the same
/// context as every page: the services (so the header knows who is signed
/// in) and the third-party sources of the page's policy.
async fn not_found(state: AppState, sources: ThirdPartySources, request: Request) -> Response {
    let options = state.leptos_options.clone();
    let services = state.services.clone();
    let mut response = leptos_axum::handle_response_inner(
        move || {
            provide_context(state.clone());
            provide_context(sources.clone());
            provide_context(services.clone());
        },
        move || app::shell(options),
        request,
        |app, chunks, _supports_out_of_order| {
            Box::pin(async move {
                let app = app.to_html_stream_in_order().collect::<String>().await;
                let chunks = chunks();
                Box::pin(once(async move { app }).chain(chunks)) as Html
            })
        },
    )
    .await;
    // A page that set its own status (a redirect) keeps it.
    if response.status() == StatusCode::OK {
        *response.status_mut() = StatusCode::NOT_FOUND;
    }
    response
}
