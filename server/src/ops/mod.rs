//! `tally ops …`: looking after a running Tally from the operator's own
//! machine, over HTTP with an administrator's API token. Nothing here reads
//! the server's settings or data directory; each command takes flags or
//! their environment variables, never prompts, and never prints a secret.
//!
//! Exit codes: 0 done; 1 the check or the work failed (the message says
//! what); 2 the command line is wrong (clap's own, and a secret given as a
//! flag); `status` adds 3 (down) and 4 (unreachable).
//!
//! The other side is not trusted further than it must be: APIs are called
//! over https (plain http only when the operator says so), no redirect is
//! followed with a key or token (Portainer's and the server's clients
//! follow none; the anonymous registry's only to https), and whatever it
//! sends is printed without control characters ([`text::printable`]).

pub mod backup;
mod client;
pub mod deploy;
pub mod health;
mod image_manifest;
pub mod portainer;
pub mod registry;
pub mod release;
pub mod restore_check;
pub mod secrets;
pub mod stack_file;
pub mod status;
pub mod text;

use std::process::ExitCode;

use text::printable;

/// Prints a line on stdout, without control characters.
fn say(line: &str) {
    println!("{}", printable(line));
}

/// Prints a line on stderr, without control characters.
fn note(line: &str) {
    eprintln!("{}", printable(line));
}

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
    if let Some(refusal) = secret_given_as_flag(&action) {
        note(&format!("error: {refusal}"));
        return ExitCode::from(2);
    }
    exit_with(match action {
        OpsAction::Backup {
            url,
            token_flag: _,
            dir,
            keep,
            transport,
        } => async {
            let token = secrets::read(secrets::TALLY_TOKEN)?;
            let taken = backup::run(backup::BackupArgs {
                url,
                token,
                dir,
                keep,
                allow_http: transport.allow_http,
            })
            .await?;
            say(&format!(
                "saved {} ({} bytes, {} tables, {} rows; integrity ok)",
                taken.path.display(),
                taken.bytes,
                taken.tables,
                taken.rows
            ));
            for name in taken.removed {
                say(&format!("removed {name} (keeping the newest)"));
            }
            Ok(())
        }
        .await,
        OpsAction::RestoreCheck { file, min_rows } => {
            restore_check::run(&file, min_rows).await.map(|replayed| {
                for (table, rows) in &replayed.tables {
                    say(&format!("{table:<40} {rows:>10}"));
                }
                say(&format!("{:<40} {:>10}", "total", replayed.total));
                if min_rows == 0 {
                    note(
                        "warning: RESTORE_MIN_ROWS is 0, so an empty snapshot would pass; set it to the rows you expect at least"
                    );
                }
            })
        }
        OpsAction::Status {
            api_url,
            api_key_flag: _,
            stack,
            endpoint_id,
            url,
            alt_url,
            logs,
            deployed_version,
            transport,
        } => {
            return status_command(
                api_url,
                transport.allow_http,
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
            transport,
        } => release::run(release::ReleaseArgs {
            version,
            registry,
            repository,
            docker,
            context,
            dry_run,
            allow_http: transport.allow_http,
        })
        .await
        .map(|said| {
            for line in said {
                say(&line);
            }
        }),
        OpsAction::Deploy {
            tag,
            allow_floating,
            dry_run,
            api_url,
            api_key_flag: _,
            stack,
            endpoint_id,
            registry,
            repository,
            url,
            alt_url,
            token_flag: _,
            dir,
            keep,
            health_timeout,
            transport,
        } => async {
            let allow_http = transport.allow_http;
            let portainer = portainer::Portainer::new(
                api_url_of("--api-url", &api_url, allow_http)?,
                secrets::read(secrets::PORTAINER_API_KEY)?,
            )?;
            let registry = registry::Registry::new(
                api_url_of("--registry", &registry, allow_http)?,
                repository,
                allow_http,
            )?;
            let token = secrets::read(secrets::TALLY_TOKEN)?;
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
                    allow_http,
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
                    say(&format!("{mark} {}: {}", probe.url, probe.said));
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

/// The refusal for a secret given on the command line, if one was.
fn secret_given_as_flag(action: &crate::cli::OpsAction) -> Option<String> {
    use crate::cli::OpsAction;
    let (api_key, token) = match action {
        OpsAction::Backup { token_flag, .. } => (false, token_flag.is_some()),
        OpsAction::Status { api_key_flag, .. } => (api_key_flag.is_some(), false),
        OpsAction::Deploy {
            api_key_flag,
            token_flag,
            ..
        } => (api_key_flag.is_some(), token_flag.is_some()),
        _ => (false, false),
    };
    if api_key {
        Some(secrets::flag_refused(
            "--api-key",
            secrets::PORTAINER_API_KEY,
        ))
    } else if token {
        Some(secrets::flag_refused("--token", secrets::TALLY_TOKEN))
    } else {
        None
    }
}

/// `ops status`, whose exit code tells down (3) from unreachable (4).
async fn status_command(
    api_url: String,
    allow_http: bool,
    stack: String,
    endpoint: Option<i64>,
    urls: Vec<String>,
    logs: Option<u32>,
    deployed_version: bool,
) -> ExitCode {
    let portainer = match api_url_of("--api-url", &api_url, allow_http).and_then(|base| {
        portainer::Portainer::new(base, secrets::read(secrets::PORTAINER_API_KEY)?)
    }) {
        Ok(portainer) => portainer,
        Err(error) => return exit_with(Err(error)),
    };
    if deployed_version {
        return exit_with(
            status::deployed_version(&portainer, &stack, endpoint)
                .await
                .map(|version| say(version.as_deref().unwrap_or("unknown"))),
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
                    say("up");
                    0
                }
                status::Verdict::Down(why) => {
                    say(&format!("down: {why}"));
                    3
                }
                status::Verdict::Unreachable(why) => {
                    say(&format!("unreachable: {why}"));
                    4
                }
            };
            for line in report.lines {
                say(&line);
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
            note(&format!("error: {error}"));
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
    if response.status().is_redirection() {
        // The key or token would go with it (reqwest keeps `X-API-Key` on
        // another host) and a 307/308 re-sends the body: the stack's
        // variables, secrets included.
        let to = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("nowhere");
        return Err(OpsError::Refused {
            url: url.to_owned(),
            status,
            message: format!(
                "a redirect to {to}, not followed (the key or token would go with it); use the address it points to if you trust it"
            ),
        });
    }
    let text = response.text().await.unwrap_or_default();
    Err(OpsError::Refused {
        url: url.to_owned(),
        status,
        message: message_of(&text).unwrap_or_else(|| text.chars().take(200).collect()),
    })
}

/// The base URL of an API the ops commands call with a key or token, or
/// whose answer decides what is deployed: https, unless the operator
/// allowed plain http (which is then said).
fn api_url_of(flag: &str, raw: &str, allow_http: bool) -> Result<String, OpsError> {
    let base = base_url(flag, raw)?;
    if base.starts_with("http://") {
        if !allow_http {
            return Err(OpsError::Usage(format!(
                "{flag}: {base} is plain http, so what is sent (a key, a token, the stack's variables) and what comes back would cross the network readable and changeable; use https, or --allow-http (TALLY_OPS_ALLOW_HTTP=true) on a network you trust"
            )));
        }
        note(&format!(
            "note: plain http to {base}, allowed by --allow-http (TALLY_OPS_ALLOW_HTTP)"
        ));
    }
    Ok(base)
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
