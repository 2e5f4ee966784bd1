//! REST routes under `/api` and `/v1`. Pages are served by Leptos (see
//! `startup`). The routes are mounted from the use cases' declarations
//! ([`use_cases`]), so tests can walk every one of them (the CSRF test
//! sends each state-changing route a request without the token; the
//! caller walk asks each for every refusal its declaration implies).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::Uri;
use axum::routing::{any, MethodRouter};
use axum::Router;
use tower_http::cors::CorsLayer;

use crate::extract::MAX_API_BODY;
use crate::state::AppState;
use app::backend::api_error::ApiError;
use use_case::Caller;

pub mod admin;
pub mod admin_backups;
pub mod admin_status;
pub mod api_tokens;
pub mod attachment;
pub mod auth;
pub mod authentication;
pub mod bank;
pub mod bill_months;
pub mod bills;
pub mod contact;
pub mod data;
pub mod diagnostics;
pub mod drift;
pub mod forms;
pub mod health;
pub mod history;
pub mod imports;
pub mod metrics;
pub mod notifications;
pub mod openapi;
pub mod operations;
pub mod personal_data;
pub mod policy;
pub mod preferences;
pub mod profile;
pub mod registration;
pub mod security_keys;
pub mod sso;
pub mod submissions_admin;
pub mod subscriptions;
pub mod use_case;
pub mod use_cases;

/// One path of the API with the methods it answers, who may call each,
/// and the largest body it reads: the use cases' REST routes
/// ([`use_cases::declared`]) gathered by path.
pub struct ApiRoute {
    pub path: &'static str,
    pub methods: Vec<&'static str>,
    /// Who may call each of [`Self::methods`], in the same order.
    pub callers: Vec<Caller>,
    pub route: MethodRouter<AppState>,
    /// [`MAX_API_BODY`], or more for a path whose body is a whole file.
    pub body_limit: usize,
}

/// Every API route; the diagnostics routes only when enabled.
pub fn api_routes(diagnostics_enabled: bool) -> Vec<ApiRoute> {
    let mut routes: Vec<ApiRoute> = Vec::new();
    for case in use_cases::declared(diagnostics_enabled) {
        for rest in case.rest {
            match routes.iter_mut().find(|route| route.path == rest.path) {
                Some(route) => {
                    route.methods.push(rest.method);
                    route.callers.push(case.caller);
                    route.body_limit = route.body_limit.max(rest.body_limit);
                    route.route = std::mem::take(&mut route.route).merge(rest.route);
                }
                None => routes.push(ApiRoute {
                    path: rest.path,
                    methods: vec![rest.method],
                    callers: vec![case.caller],
                    route: rest.route,
                    body_limit: rest.body_limit,
                }),
            }
        }
    }
    routes
}

/// The account forms without JavaScript (`routes::forms`), each mounted
/// at the path its use case declares (`.page_form`); the pages at the
/// same paths stay Leptos's.
pub fn page_form_router() -> Router<AppState> {
    use_cases::declared(false)
        .into_iter()
        .filter_map(|case| case.page_form)
        .fold(Router::new(), |router, form| {
            router.route(form.path, form.route)
        })
}

/// The API; every route reads at most [`MAX_API_BODY`] of a body (the
/// extractors answer more with 413 in the JSON error shape), and a request
/// that says it carries more is answered 413 before any route sees it,
/// whether or not the route reads a body. Each route's caller is checked
/// before its handler runs ([`policy::admit`]); the routes another site
/// may call (the public forms and their configuration) answer
/// `CORS_ORIGIN`.
pub fn api_router(state: &AppState, cors: CorsLayer) -> Router<AppState> {
    let diagnostics_enabled = state.settings.diagnostics;
    let routes = api_routes(diagnostics_enabled);
    // The paths whose body may be larger (all literal paths).
    let file_limits: HashMap<&'static str, usize> = routes
        .iter()
        .filter(|api| api.body_limit != MAX_API_BODY)
        .map(|api| (api.path, api.body_limit))
        .collect();
    routes
        .into_iter()
        .fold(Router::new(), |router, api| {
            let route = if policy::policy().cross_origin().contains(&api.path) {
                api.route.layer(cors.clone())
            } else {
                api.route
            };
            router.route(api.path, route)
        })
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            policy::admit,
        ))
        .route("/api/{*rest}", any(api_not_found))
        .layer(DefaultBodyLimit::max(MAX_API_BODY))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(file_limits),
            refuse_declared_oversize,
        ))
}

/// 413 for a request whose `Content-Length` is over its route's body limit
/// ([`MAX_API_BODY`] unless the route is an [`upload`]); a body without one
/// is still cut off by the extractors that read it.
async fn refuse_declared_oversize(
    State(file_limits): State<Arc<HashMap<&'static str, usize>>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if let Some(length) = declared {
        let limit = file_limits
            .get(request.uri().path())
            .copied()
            .unwrap_or(MAX_API_BODY);
        if length > limit as u64 {
            return ApiError::PayloadTooLarge { limit }.into_response();
        }
    }
    next.run(request).await
}

/// Unknown API paths answer with a JSON error, not the HTML not-found page.
async fn api_not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!("no API route at {}", uri.path()))
}
