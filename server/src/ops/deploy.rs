//! `tally ops deploy [--tag vX.Y.Z] [--allow-floating] [--dry-run]`: moves
//! the stack to a published image, pinned to the digest the registry gave
//! for the tag (`registry/repository:tag@sha256:…`), so what runs is what
//! was checked even if the tag moves meanwhile. The Tally service's image
//! is named in the stack file (the specification's stack: only that value
//! of the file changes) or read from the stack variable `TALLY_IMAGE`
//! (`deploy/stack.yaml`: only that variable changes). An update replaces
//! the stack's whole desired state, so every variable is read, counted,
//! sent back and counted again. Before the irreversible step a verified backup is taken
//! (as `ops backup`); after it the container's health check and
//! `/api/health` on both hostnames must pass. The image digest and version
//! label from before and after are printed. Rollback is a deploy of an
//! earlier numbered tag.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::backup::BackupArgs;
use super::portainer::Portainer;
use super::registry::{Registry, Version};
use super::stack_file::{self, ImageSource};
use super::status::deployed;
use super::OpsError;

const POLL: Duration = Duration::from_secs(2);

pub struct DeployArgs {
    pub portainer: Portainer,
    pub stack: String,
    pub endpoint: Option<i64>,
    pub registry: Registry,
    pub tag: Option<String>,
    pub allow_floating: bool,
    pub dry_run: bool,
    /// Both public base URLs.
    pub urls: Vec<String>,
    /// How long the new container and both hostnames may take to answer
    /// healthy after the update.
    pub healthy_within: Duration,
    /// How the verified backup is taken.
    pub backup: BackupArgs,
}

/// Says a step as it happens (a deploy takes minutes) and keeps it.
fn said(lines: &mut Vec<String>, line: String) {
    super::say(&line);
    lines.push(line);
}

fn digest_and_version(found: Option<super::status::Deployed>) -> String {
    match found {
        None => "no container".into(),
        Some(found) => format!(
            "{} (version {})",
            found.digest,
            found.version.as_deref().unwrap_or("unknown")
        ),
    }
}

pub async fn run(args: DeployArgs) -> Result<Vec<String>, OpsError> {
    let mut lines = Vec::new();
    // Which image.
    let tags = args.registry.tags().await?;
    let tag = match args.tag {
        None => {
            let newest = super::registry::newest(&tags).ok_or_else(|| {
                OpsError::Failed("the registry holds no numbered version to deploy".into())
            })?;
            said(&mut lines, format!("deploying {newest}, the newest published version"));
            newest.to_string()
        }
        Some(tag) if Version::parse(&tag).is_some() => tag,
        Some(tag) if args.allow_floating => {
            said(
                &mut lines,
                format!("warning: {tag:?} is a floating tag; production should run a numbered version"),
            );
            tag
        }
        Some(tag) => {
            return Err(OpsError::Usage(format!(
                "--tag: {tag:?} is a floating tag; deploy a numbered version (v<major>.<minor>.<patch>) or pass --allow-floating"
            )))
        }
    };
    if !tags.contains(&tag) {
        return Err(OpsError::Failed(format!(
            "the registry does not hold {tag}; publish it first (tally ops release)"
        )));
    }
    let image = args.registry.image_tagged(&tag);
    let published = args.registry.published(&tag).await?.ok_or_else(|| {
        OpsError::Failed(format!(
            "the registry lists {tag} but holds no manifest for it; publish it again"
        ))
    })?;
    said(
        &mut lines,
        format!(
            "{image}: {} (version {})",
            published.digest,
            published.version.as_deref().unwrap_or("unknown")
        ),
    );
    if let (Some(wanted), Some(label)) = (Version::parse(&tag), published.version.as_deref()) {
        if Version::parse(&format!("v{}", label.trim_start_matches('v'))) != Some(wanted) {
            said(
                &mut lines,
                format!("warning: the image tagged {tag} is labelled version {label}"),
            );
        }
    }

    // The stack as it is.
    let stack = args.portainer.stack(&args.stack, args.endpoint).await?;
    let count = stack.env.len();
    if count == 0 {
        return Err(OpsError::Failed(format!(
            "stack {:?} reports no environment variables; an update would run it without its settings and secrets",
            stack.name
        )));
    }
    let file = args
        .portainer
        .get(&format!("/api/stacks/{}/file", stack.id))
        .await?;
    let content = file["StackFileContent"]
        .as_str()
        .ok_or_else(|| OpsError::Failed("Portainer sent no stack file".into()))?;
    let pinned = args.registry.image_pinned(&tag, &published.digest)?;
    let source = stack_file::locate(content, &args.registry.image_name())
        .map_err(|problem| OpsError::Failed(format!("stack {:?}: {problem}", stack.name)))?;
    let (content, env, change) = match source {
        ImageSource::Written(written) => {
            let edited = stack_file::with_image(content, &written, &pinned).map_err(|problem| {
                OpsError::Failed(format!("stack {:?}: {problem}", stack.name))
            })?;
            let change = format!(
                "stack file, service {:?}: {} → {pinned} (nothing else in the file changes); {count} variables sent back unchanged",
                written.service, written.image
            );
            (edited, stack.env.clone(), change)
        }
        ImageSource::Variable { service, name } => {
            let mut env = stack.env.clone();
            let slot = env
                .iter_mut()
                .find(|variable| variable["name"].as_str() == Some(name.as_str()))
                .ok_or_else(|| {
                    OpsError::Failed(format!(
                        "stack {:?} has no {name} variable, which its service {service:?} reads the image from",
                        stack.name
                    ))
                })?;
            let previous = slot["value"].as_str().unwrap_or_default().to_owned();
            slot["value"] = Value::String(pinned.clone());
            let change = format!(
                "{name}: {previous} → {pinned}; {count} variables sent back unchanged otherwise"
            );
            (content.to_owned(), env, change)
        }
    };
    let before = match args
        .portainer
        .container(stack.endpoint_id, &stack.name)
        .await?
    {
        Some(container) => Some(deployed(&args.portainer, stack.endpoint_id, &container).await?),
        None => None,
    };
    said(
        &mut lines,
        format!("before: {}", digest_and_version(before)),
    );
    said(&mut lines, change);
    if args.dry_run {
        // Every read and check the real deploy makes before its backup,
        // and whether that backup could be taken.
        super::backup::preflight(&args.backup)
            .await
            .map_err(|error| {
                OpsError::Failed(format!("no deploy: a backup could not be taken: {error}"))
            })?;
        said(
            &mut lines,
            "dry run: the backup would be taken (token and address accepted); no backup taken, nothing changed".into(),
        );
        return Ok(lines);
    }

    // A verified backup first; no backup, no deploy.
    let taken = super::backup::run(args.backup)
        .await
        .map_err(|error| OpsError::Failed(format!("no deploy: the backup failed: {error}")))?;
    said(
        &mut lines,
        format!(
            "backup: {} ({} rows; integrity ok)",
            taken.path.display(),
            taken.rows
        ),
    );

    // The irreversible step.
    args.portainer
        .put(
            &format!("/api/stacks/{}?endpointId={}", stack.id, stack.endpoint_id),
            &json!({ "StackFileContent": content, "Env": env, "Prune": false, "PullImage": true }),
        )
        .await?;
    let after_update = args
        .portainer
        .stack(&args.stack, Some(stack.endpoint_id))
        .await?;
    if after_update.env.len() != count {
        return Err(OpsError::Failed(format!(
            "the stack had {count} variables and now has {}; restore them in Portainer now",
            after_update.env.len()
        )));
    }
    let names = |env: &[Value]| {
        let mut names: Vec<String> = env
            .iter()
            .map(|variable| variable["name"].as_str().unwrap_or_default().to_owned())
            .collect();
        names.sort();
        names
    };
    if names(&after_update.env) != names(&stack.env) {
        return Err(OpsError::Failed(format!(
            "the stack's variables are now {:?}, not the {count} sent; restore them in Portainer now",
            names(&after_update.env)
        )));
    }

    // Healthy again, inside and out.
    let started = Instant::now();
    let container = loop {
        let found = args
            .portainer
            .container(stack.endpoint_id, &stack.name)
            .await?;
        let healthy = found.as_ref().is_some_and(|container| {
            let state = &container["State"];
            let running = state["Running"].as_bool().unwrap_or(false);
            running
                && state["Health"]["Status"]
                    .as_str()
                    .is_none_or(|health| health == "healthy")
        });
        if let (true, Some(container)) = (healthy, found) {
            break container;
        }
        if started.elapsed() > args.healthy_within {
            return Err(OpsError::Failed(format!(
                "the new container is not healthy after {} s; roll back with --tag and an earlier version",
                args.healthy_within.as_secs()
            )));
        }
        tokio::time::sleep(POLL).await;
    };
    let mut answered = false;
    while !answered {
        let probes = super::health::run(&args.urls).await?;
        answered = probes.iter().all(|probe| probe.healthy);
        if !answered && started.elapsed() > args.healthy_within {
            let down: Vec<String> = probes
                .iter()
                .filter(|probe| !probe.healthy)
                .map(|probe| format!("{} ({})", probe.url, probe.said))
                .collect();
            return Err(OpsError::Failed(format!(
                "not healthy from outside: {}",
                down.join(", ")
            )));
        }
        if !answered {
            tokio::time::sleep(POLL).await;
        }
    }
    let after = deployed(&args.portainer, stack.endpoint_id, &container).await?;
    if after.digest.rsplit('@').next() != Some(published.digest.as_str()) {
        said(
            &mut lines,
            format!(
                "warning: the container runs {}, not the registry's {} for {tag}",
                after.digest, published.digest
            ),
        );
    }
    said(
        &mut lines,
        format!("after: {}", digest_and_version(Some(after))),
    );
    said(
        &mut lines,
        format!("deployed {tag}; both hostnames answer healthy"),
    );
    Ok(lines)
}
