//! Requests by route, method and status, and their latency per route, as
//! counted by the edge for every response since the server started.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use axum::http::Method;

use super::route_label::RouteLabels;
use super::text::{header, sample};

/// Upper bounds of the latency buckets, in seconds.
pub const BUCKETS: [f64; 11] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

#[derive(Default)]
struct Latency {
    /// Cumulative counts per bucket, as Prometheus reads them.
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum_seconds: f64,
}

#[derive(Default)]
struct Counts {
    requests: BTreeMap<(&'static str, &'static str, u16), u64>,
    latency: BTreeMap<&'static str, Latency>,
}

pub struct HttpMetrics {
    labels: RouteLabels,
    counts: Mutex<Counts>,
}

/// A bounded method label.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

impl HttpMetrics {
    /// Counting for these API route templates (everything else is a page,
    /// the bundle, or unmatched).
    pub fn new(templates: impl IntoIterator<Item = &'static str>) -> Self {
        Self {
            labels: RouteLabels::new(templates),
            counts: Mutex::new(Counts::default()),
        }
    }

    pub fn record(&self, method: &Method, path: &str, status: u16, elapsed: Duration) {
        let route = self.labels.label(path);
        let seconds = elapsed.as_secs_f64();
        // A poisoned lock only means a panic mid-update of plain numbers:
        // keep counting.
        let mut counts = self
            .counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *counts
            .requests
            .entry((route, method_label(method), status))
            .or_default() += 1;
        let latency = counts.latency.entry(route).or_default();
        for (bucket, bound) in latency.buckets.iter_mut().zip(BUCKETS) {
            if seconds <= bound {
                *bucket += 1;
            }
        }
        latency.count += 1;
        latency.sum_seconds += seconds;
    }

    pub fn render(&self, out: &mut String) {
        let counts = self
            .counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        header(
            out,
            "tally_http_requests_total",
            "counter",
            "Requests answered since start, by route template, method and status.",
        );
        for ((route, method, status), count) in &counts.requests {
            sample(
                out,
                "tally_http_requests_total",
                &[
                    ("route", route),
                    ("method", method),
                    ("status", &status.to_string()),
                ],
                count,
            );
        }
        header(
            out,
            "tally_http_request_duration_seconds",
            "histogram",
            "Time to answer, by route template.",
        );
        for (route, latency) in &counts.latency {
            for (bound, count) in BUCKETS.iter().zip(latency.buckets) {
                sample(
                    out,
                    "tally_http_request_duration_seconds_bucket",
                    &[("route", route), ("le", &bound.to_string())],
                    count,
                );
            }
            sample(
                out,
                "tally_http_request_duration_seconds_bucket",
                &[("route", route), ("le", "+Inf")],
                latency.count,
            );
            sample(
                out,
                "tally_http_request_duration_seconds_sum",
                &[("route", route)],
                latency.sum_seconds,
            );
            sample(
                out,
                "tally_http_request_duration_seconds_count",
                &[("route", route)],
                latency.count,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_by_template_and_bucketed_cumulatively() {
        let metrics = HttpMetrics::new(["/api/bills/{id}"]);
        metrics.record(&Method::GET, "/api/bills/1", 200, Duration::from_millis(3));
        metrics.record(&Method::GET, "/api/bills/2", 200, Duration::from_millis(30));
        metrics.record(
            &Method::DELETE,
            "/api/bills/2",
            404,
            Duration::from_secs(20),
        );
        let mut out = String::new();
        metrics.render(&mut out);
        for line in [
            r#"tally_http_requests_total{route="/api/bills/{id}",method="GET",status="200"} 2"#,
            r#"tally_http_requests_total{route="/api/bills/{id}",method="DELETE",status="404"} 1"#,
            r#"tally_http_request_duration_seconds_bucket{route="/api/bills/{id}",le="0.005"} 1"#,
            r#"tally_http_request_duration_seconds_bucket{route="/api/bills/{id}",le="0.05"} 2"#,
            r#"tally_http_request_duration_seconds_bucket{route="/api/bills/{id}",le="10"} 2"#,
            r#"tally_http_request_duration_seconds_bucket{route="/api/bills/{id}",le="+Inf"} 3"#,
            r#"tally_http_request_duration_seconds_count{route="/api/bills/{id}"} 3"#,
        ] {
            assert!(out.contains(line), "{line} missing from:\n{out}");
        }
        assert!(!out.contains("/api/bills/1"), "paths never become labels");
    }
}
