//! `tally ops …`: looking after a running Tally from the operator's own
//! machine, over HTTP with an administrator's API token. Nothing here reads
//! the server's settings or data directory; each command takes flags or
//! their environment variables, never prompts, and never prints a secret.
//!
//! Exit codes: 0 done; 1 the check or the work failed (the message says
//! what); 2 the command line is wrong (clap's own); `status` adds 3
//! (down) and 4 (unreachable).

pub mod backup;
mod client;
pub mod deploy;
pub mod health;
mod image_manifest;
pub mod portainer;
pub mod registry;
pub mod release;
pub mod restore_check;
pub mod status;

use std::process::ExitCode;

/// What went wrong, in words for the operator.
#[derive(Debug, thiserror::Error)]
pub enum OpsError {
    #[error("{0}")]
    Usage(String),
    #[error("cannot reach {url}: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("{url} answered {status}: {message}")]
    Refused {
        url: String,
        status: u16,
        message: String,
    },
    #[error("{0}")]
    Failed(String),
    #[error("{path}: {source}")]
    Io {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Runs one `tally ops` command and reports it; answers the exit code.
pub async fn run(action: crate::cli::OpsAction) -> ExitCode {
    use crate::cli::OpsAction;
    exit_with(match action {
        OpsAction::Backup {
            url,
            token,
            dir,
            keep,
        } => backup::run(backup::BackupArgs {
            url,
            token,
            dir,
            keep,
        })
        .await
        .map(|taken| {
            println!(
                "saved {} ({} bytes, {} tables, {} rows; integrity ok)",
                taken.path.display(),
                taken.bytes,
                taken.tables,
                taken.rows
            );
            for name in taken.removed {
                println!("removed {name} (keeping the newest)");
            }
        }),
        OpsAction::RestoreCheck { file, min_rows } => {
            restore_check::run(&file, min_rows).await.map(|replayed| {
                for (table, rows) in &replayed.tables {
                    println!("{table:<40} {rows:>10}");
                }
                println!("{:<40} {:>10}", "total", replayed.total);
                if min_rows == 0 {
                    eprintln!(
                        "warning: RESTORE_MIN_ROWS is 0, so an empty snapshot would pass; set it to the rows you expect at least"
                    );
                }
            })
        }
        OpsAction::Status {
            api_url,
            api_key,
            stack,
            endpoint_id,
            url,
            alt_url,
            logs,
            deployed_version,
        } => {
            return status_command(
                api_url,
                api_key,
                stack,
                endpoint_id,
                url.into_iter().chain(alt_url).collect(),
                logs,
                deployed_version,
            )
            .await
        }
        OpsAction::Release {
            version,
            registry,
            repository,
            docker,
            context,
            dry_run,
        } => release::run(release::ReleaseArgs {
            version,
            registry,
            repository,
            docker,
            context,
            dry_run,
        })
        .await
        .map(|said| {
            for line in said {
                println!("{line}");
            }
        }),
        OpsAction::Deploy {
            tag,
            allow_floating,
            dry_run,
            api_url,
            api_key,
            stack,
            endpoint_id,
            registry,
            repository,
            url,
            alt_url,
            token,
            dir,
            keep,
            health_timeout,
        } => async {
            let portainer = portainer::Portainer::new(base_url("--api-url", &api_url)?, api_key)?;
            let registry =
                registry::Registry::new(base_url("--registry", &registry)?, repository)?;
            let urls: Vec<String> = std::iter::once(url.clone()).chain(alt_url).collect();
            deploy::run(deploy::DeployArgs {
                portainer,
                stack,
                endpoint: endpoint_id,
                registry,
                tag,
                allow_floating,
                dry_run,
                urls,
                healthy_within: std::time::Duration::from_secs(health_timeout),
                backup: backup::BackupArgs {
                    url,
                    token,
                    dir,
                    keep,
                },
            })
            .await
        }
        .await
        .map(|_said_as_it_went| ()),
        OpsAction::Health { url, alt_url } => {
            let urls: Vec<String> = std::iter::once(url).chain(alt_url).collect();
            health::run(&urls).await.and_then(|probes| {
                for probe in &probes {
                    let mark = if probe.healthy { "ok  " } else { "DOWN" };
                    println!("{mark} {}: {}", probe.url, probe.said);
                }
                if probes.iter().all(|probe| probe.healthy) {
                    Ok(())
                } else {
                    Err(OpsError::Failed("not every hostname is healthy".into()))
                }
            })
        }
    })
}

/// `ops status`, whose exit code tells down (3) from unreachable (4).
async fn status_command(
    api_url: String,
    api_key: secrecy::SecretString,
    stack: String,
    endpoint: Option<i64>,
    urls: Vec<String>,
    logs: Option<u32>,
    deployed_version: bool,
) -> ExitCode {
    let portainer = match base_url("--api-url", &api_url)
        .and_then(|base| portainer::Portainer::new(base, api_key))
    {
        Ok(portainer) => portainer,
        Err(error) => return exit_with(Err(error)),
    };
    if deployed_version {
        return exit_with(
            status::deployed_version(&portainer, &stack, endpoint)
                .await
                .map(|version| println!("{}", version.as_deref().unwrap_or("unknown"))),
        );
    }
    let report = status::run(status::StatusArgs {
        portainer,
        stack,
        endpoint,
        urls,
        logs,
    })
    .await;
    match report {
        Err(error) => exit_with(Err(error)),
        Ok(report) => {
            let code = match &report.verdict {
                status::Verdict::Up => {
                    println!("up");
                    0
                }
                status::Verdict::Down(why) => {
                    println!("down: {why}");
                    3
                }
                status::Verdict::Unreachable(why) => {
                    println!("unreachable: {why}");
                    4
                }
            };
            for line in report.lines {
                println!("{line}");
            }
            ExitCode::from(code)
        }
    }
}

/// Prints the error and gives the exit code.
pub fn exit_with(result: Result<(), OpsError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Sends `request`; a success is the response, anything else an error
/// naming the URL, with the message `message_of` finds in the body (else
/// the body's start).
async fn answered(
    request: reqwest::RequestBuilder,
    url: &str,
    message_of: fn(&str) -> Option<String>,
) -> Result<reqwest::Response, OpsError> {
    let response = request
        .send()
        .await
        .map_err(|error| OpsError::Unreachable {
            url: url.to_owned(),
            reason: error.to_string(),
        })?;
    if response.status().is_success() {
        return Ok(response);
    }
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    Err(OpsError::Refused {
        url: url.to_owned(),
        status,
        message: message_of(&text).unwrap_or_else(|| text.chars().take(200).collect()),
    })
}

/// `http(s)://host[:port]`, without a trailing slash.
fn base_url(flag: &str, raw: &str) -> Result<String, OpsError> {
    let trimmed = raw.trim().trim_end_matches('/');
    if !(trimmed.starts_with("https://") || trimmed.starts_with("http://")) {
        return Err(OpsError::Usage(format!(
            "{flag}: {raw:?} is not a base URL; include the scheme, e.g. https://tally.example.com"
        )));
    }
    Ok(trimmed.to_owned())
}
