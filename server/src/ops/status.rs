//! `tally ops status`: whether the service is up, **down** (its container
//! is not running or is unhealthy) or **unreachable** (the
//! container-management API, or the service's own address, does not
//! answer); the restart count (under `restart: unless-stopped` a crash loop
//! looks like a running service); the image's registry digest; the last
//! log lines; and the deployed version from the image's
//! `org.opencontainers.image.version` label ("unknown" without one).

use serde_json::Value;

use super::portainer::{Portainer, VERSION_LABEL};
use super::OpsError;

/// The settings `status` reads.
pub struct StatusArgs {
    pub portainer: Portainer,
    pub stack: String,
    pub endpoint: Option<i64>,
    /// The public base URLs to probe (`/api/health`).
    pub urls: Vec<String>,
    pub logs: Option<u32>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Up,
    Down(String),
    Unreachable(String),
}

pub struct Report {
    pub verdict: Verdict,
    pub lines: Vec<String>,
}

/// What the image says about itself.
pub struct Deployed {
    /// `repository@sha256:…`, or the image id, said to be one, when the
    /// image has no registry digest.
    pub digest: String,
    pub version: Option<String>,
}

pub async fn deployed(
    portainer: &Portainer,
    endpoint: i64,
    container: &Value,
) -> Result<Deployed, OpsError> {
    let image_id = container["Image"].as_str().unwrap_or_default();
    let image = portainer.image(endpoint, image_id).await?;
    // An image built on the host (never pulled) has no registry digest:
    // its local id is shown, said to be one, never passed off as a digest.
    let digest = image["RepoDigests"]
        .as_array()
        .and_then(|all| all.first())
        .and_then(Value::as_str)
        .map_or_else(
            || format!("{image_id} (local image id: no registry digest)"),
            str::to_owned,
        );
    let version = image["Config"]["Labels"][VERSION_LABEL]
        .as_str()
        .filter(|version| !version.is_empty())
        .map(str::to_owned);
    Ok(Deployed { digest, version })
}

/// Only the deployed version: `Ok(None)` for an image without the label,
/// an error when it cannot be read at all.
pub async fn deployed_version(
    portainer: &Portainer,
    stack: &str,
    endpoint: Option<i64>,
) -> Result<Option<String>, OpsError> {
    let stack = portainer.stack(stack, endpoint).await?;
    let container = portainer
        .container(stack.endpoint_id, &stack.name)
        .await?
        .ok_or_else(|| OpsError::Failed(format!("stack {:?} has no container", stack.name)))?;
    Ok(deployed(portainer, stack.endpoint_id, &container)
        .await?
        .version)
}

pub async fn run(args: StatusArgs) -> Result<Report, OpsError> {
    let mut lines = Vec::new();
    match observe(&args, &mut lines).await {
        Ok(verdict) => Ok(Report { verdict, lines }),
        Err(error) => match not_answering(&error) {
            Some(why) => Ok(Report {
                verdict: Verdict::Unreachable(why),
                lines,
            }),
            None => Err(error),
        },
    }
}

/// Whether a failed call means the other side does not answer, rather than
/// that it refused (a wrong key, an unknown stack): no answer at all, or a
/// 5xx, which is what Portainer gives when the Docker host behind it is
/// gone.
fn not_answering(error: &OpsError) -> Option<String> {
    match error {
        OpsError::Unreachable { url, reason } => Some(format!(
            "the container-management API does not answer ({url}: {reason})"
        )),
        OpsError::Refused {
            url,
            status,
            message,
        } if *status >= 500 => Some(format!(
            "the container-management API or its Docker host does not answer ({url} answered {status}: {message})"
        )),
        _ => None,
    }
}

async fn observe(args: &StatusArgs, lines: &mut Vec<String>) -> Result<Verdict, OpsError> {
    let stack = args.portainer.stack(&args.stack, args.endpoint).await?;
    let Some(container) = args
        .portainer
        .container(stack.endpoint_id, &stack.name)
        .await?
    else {
        return Ok(Verdict::Down(format!(
            "stack {:?} has no container",
            stack.name
        )));
    };
    let state = &container["State"];
    let status = state["Status"].as_str().unwrap_or("unknown");
    let health = state["Health"]["Status"].as_str();
    let restarts = container["RestartCount"].as_i64().unwrap_or_default();
    lines.push(format!(
        "container: {} ({status}{}), restarted {restarts} times{}",
        container["Name"]
            .as_str()
            .unwrap_or("?")
            .trim_start_matches('/'),
        health.map(|h| format!(", {h}")).unwrap_or_default(),
        if restarts > 0 {
            " — a crash loop looks like a running service"
        } else {
            ""
        }
    ));
    let image = deployed(&args.portainer, stack.endpoint_id, &container).await?;
    lines.push(format!("image: {}", image.digest));
    lines.push(format!(
        "version: {}",
        image
            .version
            .as_deref()
            .unwrap_or("unknown (the image has no version label)")
    ));
    if let Some(tail) = args.logs {
        let id = container["Id"].as_str().unwrap_or_default();
        lines.push(format!("last {tail} log lines:"));
        for line in args.portainer.logs(stack.endpoint_id, id, tail).await? {
            lines.push(format!("  {line}"));
        }
    }
    let running = state["Running"].as_bool().unwrap_or(status == "running");
    if !running || health == Some("unhealthy") {
        return Ok(Verdict::Down(format!(
            "the container is {}",
            if running { "unhealthy" } else { status }
        )));
    }
    for url in &args.urls {
        let probe = super::health::run(std::slice::from_ref(url)).await?;
        if let Some(probe) = probe.first() {
            lines.push(format!("{}: {}", probe.url, probe.said));
            if !probe.healthy {
                return Ok(Verdict::Unreachable(format!(
                    "the container runs but {} does not answer healthy",
                    probe.url
                )));
            }
        }
    }
    Ok(Verdict::Up)
}
