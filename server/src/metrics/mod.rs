//! `GET /metrics` in the Prometheus text format, for an operator's
//! alerting ("up, but every submission fails"): requests by route, method
//! and status with latency histograms (counted in the edge, in memory since
//! start), and, read from the database when scraped, operations by kind and
//! outcome, the CRM outbox, bank connections and the database's size.
//! Behind a bearer token from `METRICS_TOKEN`; off (404) when it is unset.
//! This module counts and writes the format; the handler is
//! `routes::metrics`.

pub mod http;
pub mod route_label;
pub mod text;

pub use http::HttpMetrics;
