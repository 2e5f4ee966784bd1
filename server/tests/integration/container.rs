//! No Docker engine runs on the build machines, so this reads the Dockerfile
//! and compose.yaml and checks the deployment facts the specification fixes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

fn repo_file(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Dockerfile instructions of the last stage, continuation lines joined.
fn runtime_stage() -> Vec<String> {
    let text = repo_file("Dockerfile").replace("\\\n", " ");
    let lines: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let froms: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.starts_with("FROM "))
        .map(|(index, _)| index)
        .collect();
    assert!(froms.len() >= 2, "a multi-stage build");
    lines[*froms.last().unwrap()..].to_vec()
}

fn has(stage: &[String], expected: &str) -> bool {
    stage.iter().any(|line| line.contains(expected))
}

#[test]
fn dockerfile_builds_with_cargo_leptos_and_pins_the_tools() {
    let text = repo_file("Dockerfile");
    assert!(text.contains("cargo leptos build --release"));
    assert!(text.contains("cargo-leptos --version 0.3.10"));
    assert!(text.contains("wasm-bindgen-cli --version 0.2.130"));
    let manifest = repo_file("Cargo.toml");
    assert!(
        manifest.contains("wasm-bindgen = \"=0.2.130\""),
        "the CLI matches the pinned crate"
    );
}

#[test]
fn runtime_image_runs_as_1001_on_3001_with_data_and_logs_apart() {
    let stage = runtime_stage();
    assert!(has(&stage, "USER 1001"), "{stage:#?}");
    assert!(has(&stage, "EXPOSE 3001"));
    assert!(has(&stage, "LEPTOS_SITE_ADDR=0.0.0.0:3001"));
    assert!(has(&stage, "DATA_DIR=/data"));
    assert!(has(&stage, "LOG_DIR=/app/logs"));
    assert!(has(&stage, "useradd --uid 1001"));
}

#[test]
fn healthcheck_runs_every_30s_with_3_retries_using_tally_health() {
    let stage = runtime_stage();
    let check = stage
        .iter()
        .find(|line| line.starts_with("HEALTHCHECK"))
        .expect("a HEALTHCHECK");
    assert!(check.contains("--interval=30s"), "{check}");
    assert!(check.contains("--retries=3"), "{check}");
    assert!(check.contains("\"/app/tally\", \"health\""), "{check}");
}

#[test]
fn version_label_comes_from_a_build_argument() {
    let stage = runtime_stage();
    assert!(has(&stage, "ARG VERSION"));
    assert!(
        has(&stage, "org.opencontainers.image.version=\"${VERSION}\""),
        "{stage:#?}"
    );
}

#[test]
fn compose_restarts_unless_stopped_with_named_volumes_and_no_published_port() {
    let compose: serde_yaml::Value = serde_yaml::from_str(&repo_file("compose.yaml")).unwrap();
    let service = &compose["services"]["tally"];
    assert_eq!(service["restart"].as_str(), Some("unless-stopped"));
    assert!(
        service.get("ports").is_none(),
        "the reverse proxy owns the public port"
    );
    assert_eq!(service["expose"][0].as_str(), Some("3001"));

    let volumes: Vec<&str> = service["volumes"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(volumes.contains(&"tally-data:/data"), "{volumes:?}");
    assert!(volumes.contains(&"tally-logs:/app/logs"), "{volumes:?}");
    for name in ["tally-data", "tally-logs"] {
        assert!(
            compose["volumes"].get(name).is_some(),
            "named volume {name} declared"
        );
    }

    let health = &service["healthcheck"];
    assert_eq!(health["interval"].as_str(), Some("30s"));
    assert_eq!(health["retries"].as_u64(), Some(3));
    assert!(service["build"]["args"]["VERSION"].as_str().is_some());
    let image = service["image"].as_str().unwrap();
    assert!(image.starts_with("tally:v"), "numbered tags only: {image}");
}

/// The deployed stack and the repository's compose file share what the
/// running service depends on and differ where the specification says
/// they may (Versioning 9).
#[test]
fn the_deployed_stack_shares_the_service_facts_and_differs_where_it_must() {
    let compose: serde_yaml::Value = serde_yaml::from_str(&repo_file("compose.yaml")).unwrap();
    let stack: serde_yaml::Value = serde_yaml::from_str(&repo_file("deploy/stack.yaml")).unwrap();
    let (local, deployed) = (&compose["services"]["tally"], &stack["services"]["tally"]);

    // Shared: the user, the port, the volumes, the health check, restarts,
    // the addresses inside the container.
    for key in ["user", "restart", "expose", "volumes", "healthcheck"] {
        assert_eq!(local[key], deployed[key], "{key} differs");
    }
    assert_eq!(deployed["user"].as_str(), Some("1001:1001"));
    assert_eq!(deployed["expose"][0].as_str(), Some("3001"));
    for key in ["LEPTOS_SITE_ADDR", "DATA_DIR", "LOG_DIR"] {
        assert_eq!(
            local["environment"][key], deployed["environment"][key],
            "{key} differs"
        );
    }
    for name in ["tally-data", "tally-logs"] {
        assert!(stack["volumes"].get(name).is_some(), "{name} declared");
    }
    assert!(deployed.get("ports").is_none(), "no published port");

    // Different: an image instead of a build, a fixed container name, the
    // updater's opt-out, and every stack variable through stack.env.
    assert!(deployed.get("build").is_none(), "the stack never builds");
    assert!(local.get("build").is_some());
    assert!(deployed["image"]
        .as_str()
        .unwrap()
        .starts_with("${TALLY_IMAGE"));
    assert_eq!(deployed["container_name"].as_str(), Some("tally"));
    assert!(local.get("container_name").is_none());
    assert_eq!(
        deployed["labels"]["com.centurylinklabs.watchtower.enable"].as_str(),
        Some("false")
    );
    assert!(local.get("labels").is_none());
    assert_eq!(deployed["env_file"][0].as_str(), Some("stack.env"));
}
