//! `tally ops release` with a fake docker CLI (a script that records its
//! arguments) and a local fake registry (Docker Registry HTTP API v2):
//! a numbered version is built with its version and pushed; floating or
//! malformed versions, versions already published, and a failing build are
//! refused; `--dry-run` runs nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::path::{Path, PathBuf};

use support::fakes::fake_registry;
use support::operations::{said, tally_ops};

/// A docker CLI that appends its arguments to `calls` and exits with
/// `code` (set through the file `code` beside it).
fn fake_docker(dir: &Path) -> PathBuf {
    let script = dir.join("docker");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$@\" >> {calls}\nexit $(cat {code} 2>/dev/null || echo 0)\n",
            calls = dir.join("calls").display(),
            code = dir.join("code").display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    script
}

fn calls(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("calls"))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_numbered_version_is_built_labelled_and_pushed_and_nothing_else_is() {
    let registry = fake_registry(&["v1.0.0", "v1.1.0", "latest"]).await;
    let dir = tempfile::tempdir().unwrap();
    let docker = fake_docker(dir.path());
    let context = env!("CARGO_MANIFEST_DIR").to_owned() + "/..";
    let host = registry.trim_start_matches("http://").to_owned();
    let env = [
        ("TALLY_REGISTRY", registry.as_str()),
        ("TALLY_REPOSITORY", "acme/tally"),
        ("TALLY_DOCKER", docker.to_str().unwrap()),
        ("TALLY_OPS_ALLOW_HTTP", "true"),
    ];
    let release = |version: &'static str, extra: &'static [&'static str]| {
        let mut args = vec!["release", "--version", version, "--context", &context];
        args.extend_from_slice(extra);
        let args: Vec<String> = args.into_iter().map(str::to_owned).collect();
        async move {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            tally_ops(&args, &env).await
        }
    };

    // A dry run checks everything and runs nothing.
    let dry = release("v1.2.0", &["--dry-run"]).await;
    assert!(dry.status.success(), "{}", said(&dry));
    assert!(
        said(&dry).contains(&format!(
            "would run: {} build --build-arg VERSION=1.2.0 --tag {host}/acme/tally:v1.2.0",
            docker.display()
        )),
        "{}",
        said(&dry)
    );
    assert!(said(&dry).contains("would be published"));
    assert!(calls(dir.path()).is_empty(), "a dry run runs nothing");

    let done = release("v1.2.0", &[]).await;
    assert!(done.status.success(), "{}", said(&done));
    assert!(said(&done).contains(&format!("published {host}/acme/tally:v1.2.0")));
    let image = format!("{host}/acme/tally:v1.2.0");
    assert_eq!(
        calls(dir.path()),
        vec![
            format!("build --build-arg VERSION=1.2.0 --tag {image} {context}"),
            format!("push {image}"),
        ]
    );

    for (version, expected) in [
        ("latest", "not a numbered release"),
        ("1.2.0", "not a numbered release"),
        ("v1.2", "not a numbered release"),
        ("v1.2.0-rc1", "not a numbered release"),
        ("v1.1.0", "already published"),
    ] {
        let refused = release(version, &[]).await;
        assert_eq!(
            refused.status.code(),
            Some(1),
            "{version}: {}",
            said(&refused)
        );
        assert!(
            said(&refused).contains(expected),
            "{version}: {}",
            said(&refused)
        );
    }
    assert_eq!(calls(dir.path()).len(), 2, "no refusal ran docker");

    // A failing build stops before the push.
    std::fs::write(dir.path().join("code"), "1").unwrap();
    let failed = release("v1.3.0", &[]).await;
    assert_eq!(failed.status.code(), Some(1), "{}", said(&failed));
    assert!(said(&failed).contains("failed"), "{}", said(&failed));
    let all = calls(dir.path());
    assert_eq!(all.len(), 3);
    assert!(all[2].starts_with("build "));

    // A first release into a repository the registry does not know yet.
    std::fs::write(dir.path().join("code"), "0").unwrap();
    let first = tally_ops(
        &[
            "release",
            "--version",
            "v0.1.0",
            "--context",
            &context,
            "--dry-run",
            "--repository",
            "acme/new",
        ],
        &env,
    )
    .await;
    assert!(first.status.success(), "{}", said(&first));
}
