//! `tally health`: the client side of `/api/health`, used by the container's
//! HEALTHCHECK and by operators.

use std::time::Duration;

use crate::routes::health::HealthReport;

const TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum HealthCheckError {
    #[error("{url} is not an http:// URL")]
    Url { url: String },
    #[error("cannot reach {url}: {source}")]
    Unreachable { url: String, source: reqwest::Error },
    #[error("{url} answered {status}: {body}")]
    Unhealthy {
        url: String,
        status: u16,
        body: String,
    },
}

/// Probes `base_url` and returns the report when the server is healthy.
pub async fn check(base_url: &str) -> Result<HealthReport, HealthCheckError> {
    let url = format!("{}/api/health", base_url.trim_end_matches('/'));
    if !url.starts_with("http://") {
        return Err(HealthCheckError::Url { url });
    }
    let unreachable = |source| HealthCheckError::Unreachable {
        url: url.clone(),
        source,
    };
    let client = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .build()
        .map_err(unreachable)?;
    let response = client.get(&url).send().await.map_err(unreachable)?;
    let status = response.status();
    let body = response.text().await.map_err(unreachable)?;
    match serde_json::from_str::<HealthReport>(&body) {
        Ok(report) if status.is_success() && report.status == "ok" && report.db == "ok" => {
            Ok(report)
        }
        _ => Err(HealthCheckError::Unhealthy {
            url,
            status: status.as_u16(),
            body,
        }),
    }
}
