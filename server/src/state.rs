//! The router's state: the app's [`Services`] (shared with the server
//! functions through the Leptos context) and what only the HTTP server
//! itself needs (its settings, the Leptos options, the page cache). Field
//! access reaches through both, so handlers write `state.pool`.

use std::sync::Arc;

use axum::extract::FromRef;
use leptos::config::LeptosOptions;

use app::backend::services::Services;

use crate::config::Settings;
use crate::metrics::HttpMetrics;
use crate::page_cache::PageCache;

#[derive(Clone)]
pub struct AppState(Arc<ServerState>);

impl AppState {
    pub fn new(state: ServerState) -> Self {
        Self(Arc::new(state))
    }
}

impl std::ops::Deref for AppState {
    type Target = ServerState;

    fn deref(&self) -> &ServerState {
        &self.0
    }
}

pub struct ServerState {
    pub services: Arc<Services>,
    pub settings: Arc<Settings>,
    pub leptos_options: LeptosOptions,
    pub page_cache: PageCache,
    /// Requests counted by the edge, for `/metrics`.
    pub metrics: Arc<HttpMetrics>,
}

impl std::ops::Deref for ServerState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}

impl FromRef<AppState> for Arc<Services> {
    fn from_ref(state: &AppState) -> Self {
        state.services.clone()
    }
}
