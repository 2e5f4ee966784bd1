//! REST routes under `/api`. Pages are served by Leptos (see `startup`).

use axum::http::Uri;
use axum::routing::{any, get};
use axum::Router;

use crate::error::ApiError;
use crate::state::AppState;

pub mod diagnostics;
pub mod health;

pub fn api_router(diagnostics_enabled: bool) -> Router<AppState> {
    let router = Router::new()
        .route("/api/health", get(health::health))
        .route("/api/{*rest}", any(api_not_found));
    if diagnostics_enabled {
        router.merge(diagnostics::router())
    } else {
        router
    }
}

/// Unknown API paths answer with a JSON error, not the HTML not-found page.
async fn api_not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(uri.path().to_owned())
}
