//! `tally ops release --version vX.Y.Z [--dry-run]`: builds the image from
//! the repository's `Dockerfile` with the version as its
//! `org.opencontainers.image.version` label, tags it
//! `<registry host>/<repository>:vX.Y.Z` and pushes it, through the
//! `docker` CLI. Refuses anything but a numbered version, and a version the
//! registry already holds (releases are never replaced). `--dry-run` makes
//! every check and prints the commands instead of running them.

use std::path::PathBuf;
use std::process::Command;

use super::registry::{Registry, Version};
use super::OpsError;

pub struct ReleaseArgs {
    pub version: String,
    pub registry: String,
    pub repository: String,
    pub docker: PathBuf,
    /// The build context (the repository, with its `Dockerfile`).
    pub context: PathBuf,
    pub dry_run: bool,
    /// Whether the registry may be plain http.
    pub allow_http: bool,
}

pub async fn run(args: ReleaseArgs) -> Result<Vec<String>, OpsError> {
    let version = Version::parse(&args.version).ok_or_else(|| {
        OpsError::Usage(format!(
            "--version: {:?} is not a numbered release; use v<major>.<minor>.<patch>, e.g. v1.4.2",
            args.version
        ))
    })?;
    if !args.context.join("Dockerfile").is_file() {
        return Err(OpsError::Usage(format!(
            "{}: no Dockerfile here; run from the repository or pass --context",
            args.context.display()
        )));
    }
    let registry = Registry::new(
        super::api_url_of("--registry", &args.registry, args.allow_http)?,
        args.repository,
        args.allow_http,
    )?;
    if registry.tags().await?.contains(&version.to_string()) {
        return Err(OpsError::Failed(format!(
            "{} is already published; a release is never replaced, so choose the next version",
            registry.image(version)
        )));
    }
    let image = registry.image(version);
    let build_arg = format!("VERSION={}.{}.{}", version.0, version.1, version.2);
    let context = args.context.display().to_string();
    let steps: Vec<Vec<String>> = vec![
        [
            "build",
            "--build-arg",
            &build_arg,
            "--tag",
            &image,
            &context,
        ]
        .map(str::to_owned)
        .to_vec(),
        ["push", &image].map(str::to_owned).to_vec(),
    ];
    let mut said = Vec::new();
    for step in steps {
        let shown = format!("{} {}", args.docker.display(), step.join(" "));
        if args.dry_run {
            said.push(format!("would run: {shown}"));
            continue;
        }
        super::note(&format!("running: {shown}"));
        let status = Command::new(&args.docker)
            .args(&step)
            .status()
            .map_err(|source| OpsError::Io {
                path: args.docker.clone(),
                source,
            })?;
        if !status.success() {
            return Err(OpsError::Failed(format!(
                "`{shown}` failed ({status}); nothing further was done"
            )));
        }
        said.push(format!("done: {shown}"));
    }
    said.push(if args.dry_run {
        format!("dry run: {image} would be published")
    } else {
        format!("published {image}")
    });
    Ok(said)
}
