//! `tally ops health --url URL [--alt-url URL]`: `/api/health` on each
//! public hostname.

use std::time::Duration;

use super::OpsError;

/// One hostname's answer.
pub struct Probe {
    pub url: String,
    pub healthy: bool,
    pub said: String,
}

pub async fn run(urls: &[String]) -> Result<Vec<Probe>, OpsError> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .map_err(|error| OpsError::Failed(format!("cannot make an HTTP client: {error}")))?;
    let mut probes = Vec::new();
    for (flag, raw) in ["--url", "--alt-url"].iter().zip(urls) {
        let url = format!("{}/api/health", super::base_url(flag, raw)?);
        let probe = match http.get(&url).send().await {
            Err(error) => Probe {
                url,
                healthy: false,
                said: format!("unreachable: {error}"),
            },
            Ok(response) => {
                let status = response.status().as_u16();
                let body: serde_json::Value = response.json().await.unwrap_or_default();
                let healthy = status == 200 && body["status"] == "ok" && body["db"] == "ok";
                Probe {
                    url,
                    healthy,
                    said: format!(
                        "{status}, status {}, db {}",
                        body["status"].as_str().unwrap_or("?"),
                        body["db"].as_str().unwrap_or("?")
                    ),
                }
            }
        };
        probes.push(probe);
    }
    Ok(probes)
}
