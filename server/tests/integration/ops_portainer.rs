//! `tally ops status` and `tally ops deploy` against a local fake of the
//! container-management API (Portainer's stacks and the Docker Engine API
//! it proxies), a fake registry, and a real Tally for backups and health.
//! Status: up, down (exited, unhealthy, missing), unreachable (the API, or
//! the service's address), the restart count, the digest, the logs, the
//! deployed version (unknown without a label, a failure when unreadable).
//! Deploy: the newest version by default, floating tags refused unless
//! allowed, unpublished tags refused, every variable sent back and
//! counted, the backup first, before and after printed. The API key is
//! checked by the fake and never printed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::process::Output;
use std::sync::{Arc, Mutex};

use app::contract::tokens::{CreateToken, CreatedToken};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use reqwest::Method;
use serde_json::json;
use support::fakes::{fake_digest, fake_registry};
use support::operations::{said, tally_ops};
use support::{spawn_app, with_admin};

const KEY: &str = "portainer-key-for-tests";

#[derive(Clone)]
struct Container {
    status: &'static str,
    health: Option<&'static str>,
    restarts: i64,
    exists: bool,
    labelled: bool,
    image_fails: bool,
    /// The stack's variables.
    env: Vec<serde_json::Value>,
    /// The stack file.
    file: String,
    /// Stack updates received (their bodies).
    updates: Vec<serde_json::Value>,
    /// An update that loses a variable (a broken stack update).
    drops_a_variable: bool,
    /// Where the stack list is redirected (307), if anywhere: a moved or
    /// hostile Portainer.
    redirect_list_to: Option<String>,
    /// Where stack updates are redirected (307), if anywhere.
    redirect_updates_to: Option<String>,
    /// The container's log lines.
    logs: Vec<&'static str>,
}

/// The stack file of the variable style: the image comes from the stack
/// variable `TALLY_IMAGE` (as in `deploy/stack.yaml`).
const VARIABLE_FILE: &str = "services:\n  tally:\n    image: ${TALLY_IMAGE}\n";

impl Default for Container {
    fn default() -> Self {
        Self {
            status: "running",
            health: Some("healthy"),
            restarts: 0,
            exists: true,
            labelled: true,
            image_fails: false,
            env: vec![
                json!({"name": "PUBLIC_BASE_URL", "value": "https://tally.example.com"}),
                json!({"name": "CRM_TOKEN", "value": "crm-secret-value"}),
                json!({"name": "TALLY_IMAGE", "value": "registry.example.com/acme/tally:v1.0.0"}),
            ],
            file: VARIABLE_FILE.to_owned(),
            updates: Vec::new(),
            drops_a_variable: false,
            redirect_list_to: None,
            redirect_updates_to: None,
            logs: vec!["started", "listening on http://0.0.0.0:3001"],
        }
    }
}

type Fake = Arc<Mutex<Container>>;

/// The refusal for a request without the right `X-API-Key`, if it lacks it.
fn refused(headers: &HeaderMap) -> Option<Response> {
    (headers.get("x-api-key").and_then(|v| v.to_str().ok()) != Some(KEY)).then(|| {
        (
            StatusCode::UNAUTHORIZED,
            Json(json!({"message": "Invalid API key"})),
        )
            .into_response()
    })
}

async fn stacks(State(fake): State<Fake>, headers: HeaderMap) -> Response {
    if let Some(to) = fake.lock().unwrap().redirect_list_to.clone() {
        return axum::response::Redirect::temporary(&format!("{to}/api/stacks")).into_response();
    }
    if let Some(refusal) = refused(&headers) {
        return refusal;
    }
    let env = fake.lock().unwrap().env.clone();
    Json(json!([
        {"Id": 1, "Name": "other", "EndpointId": 9, "Env": []},
        {"Id": 3, "Name": "tally", "EndpointId": 2, "Env": env}
    ]))
    .into_response()
}

async fn stack_file(State(fake): State<Fake>, headers: HeaderMap) -> Response {
    if let Some(refusal) = refused(&headers) {
        return refusal;
    }
    let file = fake.lock().unwrap().file.clone();
    Json(json!({"StackFileContent": file})).into_response()
}

async fn update_stack(
    State(fake): State<Fake>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    Json(body): Json<serde_json::Value>,
) -> Response {
    if let Some(refusal) = refused(&headers) {
        return refusal;
    }
    assert_eq!(query.as_deref(), Some("endpointId=2"));
    let mut state = fake.lock().unwrap();
    if let Some(to) = state.redirect_updates_to.clone() {
        return axum::response::Redirect::temporary(&format!("{to}/api/stacks/3?endpointId=2"))
            .into_response();
    }
    state.updates.push(body.clone());
    let mut env = body["Env"].as_array().unwrap().clone();
    if state.drops_a_variable {
        env.pop();
    }
    state.env = env;
    state.file = body["StackFileContent"].as_str().unwrap().to_owned();
    Json(json!({"Id": 3})).into_response()
}

/// The image reference the stack runs now: the Tally service's `image:`
/// in the stack file, or the `TALLY_IMAGE` variable it reads.
fn running_image(container: &Container) -> String {
    let in_file = container
        .file
        .lines()
        .filter_map(|line| line.trim().strip_prefix("image:"))
        .map(|value| value.split(" #").next().unwrap_or_default())
        .map(|value| value.trim().trim_matches(['"', '\'']))
        .find(|value| value.contains("acme/tally"));
    match in_file {
        Some(image) if !image.contains('$') => image.to_owned(),
        _ => container
            .env
            .iter()
            .find(|v| v["name"] == "TALLY_IMAGE")
            .and_then(|v| v["value"].as_str())
            .unwrap_or("none:none")
            .to_owned(),
    }
}

/// The tag and the registry digest of the image the stack runs: the
/// digest it is pinned to, else the fake registry's for the tag.
fn running_tag_and_digest(container: &Container) -> (String, String) {
    let image = running_image(container);
    let (name, pinned) = match image.split_once('@') {
        Some((name, digest)) => (name.to_owned(), Some(digest.to_owned())),
        None => (image.clone(), None),
    };
    let tag = name.rsplit(':').next().unwrap_or("none").to_owned();
    let digest = pinned.unwrap_or_else(|| fake_digest(&tag));
    (tag, digest)
}

async fn docker(
    State(fake): State<Fake>,
    headers: HeaderMap,
    Path((endpoint, rest)): Path<(i64, String)>,
    RawQuery(query): RawQuery,
) -> Response {
    if let Some(refusal) = refused(&headers) {
        return refusal;
    }
    assert_eq!(endpoint, 2, "the stack's endpoint");
    let container = fake.lock().unwrap().clone();
    let query = query.unwrap_or_default();
    match rest.as_str() {
        "containers/json" => {
            assert!(
                query.contains("com.docker.compose.project%3Dtally"),
                "found by the project label: {query}"
            );
            if container.exists {
                Json(json!([{"Id": "c0ffee"}])).into_response()
            } else {
                Json(json!([])).into_response()
            }
        }
        "containers/c0ffee/json" => Json(json!({
            "Id": "c0ffee", "Name": "/tally", "Image": "sha256:1mage",
            "RestartCount": container.restarts,
            "State": {"Status": container.status, "Running": container.status == "running",
                      "Health": container.health.map(|h| json!({"Status": h}))}
        }))
        .into_response(),
        "images/sha256:1mage/json" if container.image_fails => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({"message": "boom"})),
        )
            .into_response(),
        "images/sha256:1mage/json" => {
            let (tag, digest) = running_tag_and_digest(&container);
            let labels = if !container.labelled {
                json!({})
            } else if tag == "v1.0.0" {
                json!({"org.opencontainers.image.version": "v1.4.2"})
            } else {
                json!({"org.opencontainers.image.version": tag.trim_start_matches('v')})
            };
            Json(json!({
                "Id": "sha256:1mage",
                "RepoDigests": [format!("registry.example.com/acme/tally@{digest}")],
                "Config": {"Labels": labels}
            }))
            .into_response()
        }
        "containers/c0ffee/logs" => {
            assert!(query.contains("tail=2"), "{query}");
            let mut bytes = Vec::new();
            for line in container.logs.iter().map(|line| format!("{line}\n")) {
                bytes.extend_from_slice(&[1, 0, 0, 0]);
                bytes.extend_from_slice(&(line.len() as u32).to_be_bytes());
                bytes.extend_from_slice(line.as_bytes());
            }
            bytes.into_response()
        }
        other => panic!("unexpected Docker call {other}"),
    }
}

async fn fake_portainer() -> (Fake, String) {
    let fake: Fake = Arc::new(Mutex::new(Container::default()));
    let router = Router::new()
        .route("/api/stacks", get(stacks))
        .route("/api/stacks/3/file", get(stack_file))
        .route("/api/stacks/3", axum::routing::put(update_stack))
        .route("/api/endpoints/{endpoint}/docker/{*rest}", get(docker))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (fake, address)
}

async fn status(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut all = vec![
        ("PORTAINER_API_KEY", KEY),
        ("PORTAINER_STACK", "tally"),
        ("TALLY_OPS_ALLOW_HTTP", "true"),
    ];
    all.extend_from_slice(env);
    let args: Vec<&str> = ["status"].into_iter().chain(args.iter().copied()).collect();
    tally_ops(&args, &all).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_tells_up_from_down_from_unreachable() {
    let (fake, portainer) = fake_portainer().await;
    let tally = spawn_app(&[]).await;
    let env = [
        ("PORTAINER_URL", portainer.as_str()),
        ("TALLY_URL", tally.address.as_str()),
    ];

    let up = status(&["--logs", "2"], &env).await;
    assert_eq!(up.status.code(), Some(0), "{}", said(&up));
    let text = said(&up);
    assert!(text.starts_with("up"), "{text}");
    assert!(text.contains("restarted 0 times"), "{text}");
    assert!(
        text.contains(&format!(
            "registry.example.com/acme/tally@{}",
            fake_digest("v1.0.0")
        )),
        "{text}"
    );
    assert!(text.contains("version: v1.4.2"), "{text}");
    assert!(
        text.contains("  listening on http://0.0.0.0:3001"),
        "{text}"
    );
    assert!(!text.contains(KEY), "the API key is never printed");

    // A crash loop: running, but restarted again and again.
    fake.lock().unwrap().restarts = 7;
    let looping = status(&[], &env).await;
    assert_eq!(looping.status.code(), Some(0));
    assert!(said(&looping).contains("restarted 7 times"));

    for (change, expected) in [
        (
            Container {
                status: "exited",
                health: None,
                ..Container::default()
            },
            "the container is exited",
        ),
        (
            Container {
                health: Some("unhealthy"),
                ..Container::default()
            },
            "the container is unhealthy",
        ),
        (
            Container {
                exists: false,
                ..Container::default()
            },
            "has no container",
        ),
    ] {
        *fake.lock().unwrap() = change;
        let down = status(&[], &env).await;
        assert_eq!(down.status.code(), Some(3), "{}", said(&down));
        assert!(said(&down).starts_with("down"), "{}", said(&down));
        assert!(said(&down).contains(expected), "{}", said(&down));
    }

    // The service runs, but its address does not answer.
    *fake.lock().unwrap() = Container::default();
    let unreachable = status(
        &["--url", "http://127.0.0.1:9"],
        &[("PORTAINER_URL", portainer.as_str())],
    )
    .await;
    assert_eq!(unreachable.status.code(), Some(4), "{}", said(&unreachable));
    assert!(said(&unreachable).starts_with("unreachable"));
    assert!(said(&unreachable).contains("http://127.0.0.1:9/api/health"));
    // The container-management API does not answer.
    let no_api = status(&[], &[("PORTAINER_URL", "http://127.0.0.1:9")]).await;
    assert_eq!(no_api.status.code(), Some(4), "{}", said(&no_api));
    assert!(said(&no_api).contains("container-management API does not answer"));
    // Portainer answers, but the Docker host behind it fails (a 5xx from
    // the proxied Docker API): unreachable too, not "cannot tell".
    fake.lock().unwrap().image_fails = true;
    let no_host = status(&[], &env).await;
    assert_eq!(no_host.status.code(), Some(4), "{}", said(&no_host));
    assert!(
        said(&no_host).starts_with("unreachable"),
        "{}",
        said(&no_host)
    );
    assert!(said(&no_host).contains("Docker host"), "{}", said(&no_host));
    assert!(
        said(&no_host).contains("restarted 0 times"),
        "what was seen is kept"
    );
    fake.lock().unwrap().image_fails = false;
    // A wrong key is a refusal in words.
    let wrong = status(&[], &[env[0], env[1], ("PORTAINER_API_KEY", "nope-nope")]).await;
    assert_eq!(wrong.status.code(), Some(1), "{}", said(&wrong));
    assert!(said(&wrong).contains("401"), "{}", said(&wrong));
    assert!(!said(&wrong).contains("nope-nope"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deployed_version_is_the_label_unknown_without_one_and_a_failure_unread() {
    let (fake, portainer) = fake_portainer().await;
    let env = [("PORTAINER_URL", portainer.as_str())];
    let version = status(&["--deployed-version"], &env).await;
    assert_eq!(version.status.code(), Some(0), "{}", said(&version));
    assert_eq!(String::from_utf8_lossy(&version.stdout).trim(), "v1.4.2");

    fake.lock().unwrap().labelled = false;
    let unknown = status(&["--deployed-version"], &env).await;
    assert_eq!(unknown.status.code(), Some(0), "{}", said(&unknown));
    assert_eq!(String::from_utf8_lossy(&unknown.stdout).trim(), "unknown");

    fake.lock().unwrap().image_fails = true;
    let unread = status(&["--deployed-version"], &env).await;
    assert_eq!(unread.status.code(), Some(1), "{}", said(&unread));
    assert!(said(&unread).contains("500"), "{}", said(&unread));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deploy_counts_every_variable_backs_up_first_and_checks_health_after() {
    let (fake, portainer) = fake_portainer().await;
    let registry = fake_registry(&["v1.0.0", "v1.1.0", "latest", "dev"]).await;
    let host = registry.trim_start_matches("http://").to_owned();
    let (tally, admin) = with_admin(&[]).await;
    let token: CreatedToken = admin
        .call(
            Method::POST,
            "/api/tokens",
            &CreateToken {
                name: "deploy".into(),
                expires_in_days: None,
                scopes: Some(vec!["admin:backup".into()]),
            },
        )
        .await
        .unwrap()
        .unwrap();
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("backups");
    let dir_text = dir.to_str().unwrap().to_owned();
    let env = [
        ("PORTAINER_URL", portainer.as_str()),
        ("PORTAINER_API_KEY", KEY),
        ("TALLY_REGISTRY", registry.as_str()),
        ("TALLY_REPOSITORY", "acme/tally"),
        ("TALLY_URL", tally.address.as_str()),
        ("TALLY_ALT_URL", tally.address.as_str()),
        ("TALLY_TOKEN", token.token.as_str()),
        ("TALLY_BACKUP_DIR", dir_text.as_str()),
        ("TALLY_OPS_ALLOW_HTTP", "true"),
    ];
    let deploy = |args: &'static [&'static str]| async move {
        let all: Vec<&str> = ["deploy"].into_iter().chain(args.iter().copied()).collect();
        tally_ops(&all, &env).await
    };
    let backups = || std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);

    // No tag: the newest numbered version; a dry run changes nothing.
    let dry = deploy(&["--dry-run"]).await;
    assert!(dry.status.success(), "{}", said(&dry));
    let text = said(&dry);
    assert!(
        text.contains("deploying v1.1.0, the newest published version"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "→ {host}/acme/tally:v1.1.0@{}; 3 variables",
            fake_digest("v1.1.0")
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "before: registry.example.com/acme/tally@{} (version v1.4.2)",
            fake_digest("v1.0.0")
        )),
        "{text}"
    );
    // The registry's digest and label for the tag: an OCI index, its
    // linux/amd64 manifest, the config blob behind a redirect.
    assert!(
        text.contains(&format!(
            "{host}/acme/tally:v1.1.0: {} (version 1.1.0)",
            fake_digest("v1.1.0")
        )),
        "{text}"
    );
    assert!(!text.contains("warning"), "{text}");
    assert!(fake.lock().unwrap().updates.is_empty());
    assert_eq!(backups(), 0, "a dry run takes no backup");
    assert!(!dir.exists(), "nor makes its directory");
    // A dry run checks that the backup it would take can be taken.
    let mut no_token = env.to_vec();
    no_token.retain(|(name, _)| *name != "TALLY_TOKEN");
    no_token.push(("TALLY_TOKEN", "tly_not-a-token-the-server-knows"));
    let refused = tally_ops(&["deploy", "--dry-run"], &no_token).await;
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    assert!(
        said(&refused).contains("a backup could not be taken") && said(&refused).contains("401"),
        "{}",
        said(&refused)
    );
    assert!(
        !said(&refused).contains("tly_not-a-token"),
        "{}",
        said(&refused)
    );
    // A Docker v2 manifest whose label disagrees with its tag is said.
    let mislabelled = deploy(&["--tag", "v1.0.0", "--dry-run"]).await;
    assert!(mislabelled.status.success(), "{}", said(&mislabelled));
    assert!(
        said(&mislabelled).contains(&format!("{} (version v1.4.2)", fake_digest("v1.0.0")))
            && said(&mislabelled)
                .contains("warning: the image tagged v1.0.0 is labelled version v1.4.2"),
        "{}",
        said(&mislabelled)
    );

    // Floating and unpublished tags.
    let floating = deploy(&["--tag", "latest"]).await;
    assert_eq!(floating.status.code(), Some(1), "{}", said(&floating));
    assert!(said(&floating).contains("floating tag"));
    let allowed = deploy(&["--tag", "dev", "--allow-floating", "--dry-run"]).await;
    assert!(allowed.status.success(), "{}", said(&allowed));
    assert!(said(&allowed).contains("warning: \"dev\" is a floating tag"));
    let missing = deploy(&["--tag", "v9.9.9"]).await;
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        said(&missing).contains("does not hold v9.9.9"),
        "{}",
        said(&missing)
    );

    // The real thing: backup, update with every variable, healthy after.
    let done = deploy(&["--tag", "v1.1.0"]).await;
    assert!(done.status.success(), "{}", said(&done));
    let text = said(&done);
    assert!(text.contains("backup: "), "{text}");
    assert!(
        text.contains(&format!(
            "after: registry.example.com/acme/tally@{} (version 1.1.0)",
            fake_digest("v1.1.0")
        )),
        "{text}"
    );
    assert!(
        text.contains("deployed v1.1.0; both hostnames answer healthy"),
        "{text}"
    );
    assert!(
        !text.contains("crm-secret-value"),
        "stack secrets are never printed"
    );
    assert!(!text.contains(KEY));
    assert_eq!(backups(), 1);
    let update = fake.lock().unwrap().updates[0].clone();
    let sent = update["Env"].as_array().unwrap();
    assert_eq!(sent.len(), 3, "every variable sent back");
    assert!(sent.contains(&json!({"name": "CRM_TOKEN", "value": "crm-secret-value"})));
    assert!(sent
        .contains(&json!({"name": "TALLY_IMAGE", "value": format!("{host}/acme/tally:v1.1.0@{}", fake_digest("v1.1.0"))})),
        "the image is pinned to the digest deploy checked: {sent:?}");
    assert_eq!(
        update["StackFileContent"], VARIABLE_FILE,
        "the file is sent back as it was"
    );
    assert_eq!(update["PullImage"], true);

    // An update that loses a variable is caught and said.
    fake.lock().unwrap().drops_a_variable = true;
    let lost = deploy(&["--tag", "v1.0.0"]).await;
    assert_eq!(lost.status.code(), Some(1), "{}", said(&lost));
    assert!(
        said(&lost).contains("had 3 variables and now has 2"),
        "{}",
        said(&lost)
    );

    // A stack without variables is refused before anything happens.
    {
        let mut state = fake.lock().unwrap();
        state.env.clear();
        state.updates.clear();
    }
    let bare = deploy(&["--tag", "v1.0.0"]).await;
    assert_eq!(bare.status.code(), Some(1));
    assert!(said(&bare).contains("reports no environment variables"));
    assert!(fake.lock().unwrap().updates.is_empty());

    // No backup, no deploy.
    *fake.lock().unwrap() = Container::default();
    let before = backups();
    let mut wrong_token = env.to_vec();
    wrong_token.retain(|(name, _)| *name != "TALLY_TOKEN");
    wrong_token.push(("TALLY_TOKEN", "tally_pat_wrong"));
    let unbacked = tally_ops(&["deploy", "--tag", "v1.1.0"], &wrong_token).await;
    assert_eq!(unbacked.status.code(), Some(1), "{}", said(&unbacked));
    assert!(
        said(&unbacked).contains("no deploy: the backup failed"),
        "{}",
        said(&unbacked)
    );
    assert!(fake.lock().unwrap().updates.is_empty());
    assert_eq!(backups(), before);

    // A stack file that reads the image from TALLY_IMAGE, on a stack that
    // does not set it, is refused.
    fake.lock()
        .unwrap()
        .env
        .retain(|variable| variable["name"] != "TALLY_IMAGE");
    let no_image = deploy(&["--tag", "v1.1.0"]).await;
    assert_eq!(no_image.status.code(), Some(1), "{}", said(&no_image));
    assert!(
        said(&no_image).contains("has no TALLY_IMAGE variable"),
        "{}",
        said(&no_image)
    );
    assert!(fake.lock().unwrap().updates.is_empty());

    // The new container never turns healthy: the deploy says so, and how
    // to roll back, instead of reporting success.
    *fake.lock().unwrap() = Container {
        health: Some("unhealthy"),
        ..Container::default()
    };
    let sick = deploy(&["--tag", "v1.1.0", "--health-timeout", "1"]).await;
    assert_eq!(sick.status.code(), Some(1), "{}", said(&sick));
    assert!(
        said(&sick).contains("not healthy after 1 s") && said(&sick).contains("roll back"),
        "{}",
        said(&sick)
    );
    assert_eq!(fake.lock().unwrap().updates.len(), 1, "the update was made");

    // A registry without one numbered version has nothing to deploy by
    // default.
    *fake.lock().unwrap() = Container::default();
    let floating_only = fake_registry(&["latest", "dev"]).await;
    let mut only_floating = env.to_vec();
    only_floating.retain(|(name, _)| *name != "TALLY_REGISTRY");
    only_floating.push(("TALLY_REGISTRY", floating_only.as_str()));
    let nothing = tally_ops(&["deploy", "--dry-run"], &only_floating).await;
    assert_eq!(nothing.status.code(), Some(1), "{}", said(&nothing));
    assert!(
        said(&nothing).contains("holds no numbered version"),
        "{}",
        said(&nothing)
    );
}

/// Everything a deploy needs: the Portainer fake, the fake registry, a real
/// Tally with an administrator's token (for the backup), a backup folder.
struct Deployment {
    fake: Fake,
    portainer: String,
    registry: String,
    /// The registry's host, as image references name it.
    host: String,
    tally: support::TestApp,
    token: String,
    root: tempfile::TempDir,
    dir: String,
}

impl Deployment {
    async fn start() -> Self {
        let (fake, portainer) = fake_portainer().await;
        let registry = fake_registry(&["v1.0.0", "v1.1.0", "latest"]).await;
        let host = registry.trim_start_matches("http://").to_owned();
        let (tally, admin) = with_admin(&[]).await;
        let token: CreatedToken = admin
            .call(
                Method::POST,
                "/api/tokens",
                &CreateToken {
                    name: "deploy".into(),
                    expires_in_days: None,
                    scopes: Some(vec!["admin:backup".into()]),
                },
            )
            .await
            .unwrap()
            .unwrap();
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("backups").to_str().unwrap().to_owned();
        Self {
            fake,
            portainer,
            registry,
            host,
            tally,
            token: token.token,
            root,
            dir,
        }
    }

    /// Every setting but the secrets, plain http allowed (the fakes
    /// listen on loopback without TLS).
    fn settings(&self) -> Vec<(&str, &str)> {
        vec![
            ("PORTAINER_URL", self.portainer.as_str()),
            ("TALLY_REGISTRY", self.registry.as_str()),
            ("TALLY_REPOSITORY", "acme/tally"),
            ("TALLY_URL", self.tally.address.as_str()),
            ("TALLY_ALT_URL", self.tally.address.as_str()),
            ("TALLY_BACKUP_DIR", self.dir.as_str()),
            ("TALLY_OPS_ALLOW_HTTP", "true"),
        ]
    }

    /// The settings with both secrets in the environment.
    fn env(&self) -> Vec<(&str, &str)> {
        let mut env = self.settings();
        env.push(("PORTAINER_API_KEY", KEY));
        env.push(("TALLY_TOKEN", self.token.as_str()));
        env
    }

    /// A file holding `text`, for a `…_FILE` variable.
    fn secret_file(&self, name: &str, text: &str) -> String {
        let path = self.root.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    }
}

/// A server that records every request it receives: method, path, whether
/// an `X-API-Key` came with it, and the body.
async fn recorder() -> (Arc<Mutex<Vec<String>>>, String) {
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let record = seen.clone();
    let router = Router::new().fallback(
        move |method: Method, uri: axum::http::Uri, headers: HeaderMap, body: String| {
            let record = record.clone();
            async move {
                record.lock().unwrap().push(format!(
                    "{method} {uri} key={} body={body}",
                    headers.contains_key("x-api-key")
                ));
                Json(json!([]))
            }
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    // Another host name than the fake Portainer's 127.0.0.1.
    let address = format!("http://localhost:{}", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (seen, address)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_are_not_followed_so_the_key_and_the_variables_stay_home() {
    let deployment = Deployment::start().await;
    let (seen, elsewhere) = recorder().await;
    let env = deployment.env();

    // A read answered with a 307 to another host.
    deployment.fake.lock().unwrap().redirect_list_to = Some(elsewhere.clone());
    let read = tally_ops(&["status"], &env).await;
    assert_eq!(read.status.code(), Some(1), "{}", said(&read));
    assert!(
        said(&read).contains("307") && said(&read).contains("not followed"),
        "{}",
        said(&read)
    );
    assert!(
        seen.lock().unwrap().is_empty(),
        "nothing reached the other host: {:?}",
        seen.lock().unwrap()
    );

    // The stack update (the variables, secrets included, in its body)
    // answered with a 307: not sent again anywhere.
    {
        let mut state = deployment.fake.lock().unwrap();
        state.redirect_list_to = None;
        state.redirect_updates_to = Some(elsewhere.clone());
    }
    let update = tally_ops(&["deploy", "--tag", "v1.1.0"], &env).await;
    assert_eq!(update.status.code(), Some(1), "{}", said(&update));
    assert!(said(&update).contains("not followed"), "{}", said(&update));
    assert!(
        seen.lock().unwrap().is_empty(),
        "nothing reached the other host: {:?}",
        seen.lock().unwrap()
    );
    assert!(deployment.fake.lock().unwrap().updates.is_empty());
    assert!(!said(&update).contains(KEY) && !said(&update).contains("crm-secret-value"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_http_is_refused_unless_the_operator_allows_it() {
    let deployment = Deployment::start().await;
    let mut env = deployment.env();
    env.retain(|(name, _)| *name != "TALLY_OPS_ALLOW_HTTP");

    for (args, flag) in [
        (&["status"][..], "--api-url"),
        (&["deploy", "--dry-run", "--tag", "v1.1.0"][..], "--api-url"),
        (&["backup"][..], "--url"),
        (
            &[
                "release",
                "--version",
                "v9.0.0",
                "--dry-run",
                "--context",
                concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
            ][..],
            "--registry",
        ),
    ] {
        let refused = tally_ops(args, &env).await;
        assert_eq!(
            refused.status.code(),
            Some(1),
            "{args:?}: {}",
            said(&refused)
        );
        let text = said(&refused);
        assert!(
            text.contains(flag) && text.contains("https") && text.contains("--allow-http"),
            "{args:?}: {text}"
        );
        assert!(!text.contains(KEY) && !text.contains(&deployment.token));
    }
    assert!(deployment.fake.lock().unwrap().updates.is_empty());

    // Allowed by the flag, or by TALLY_OPS_ALLOW_HTTP=true; with a warning.
    let flagged = tally_ops(&["status", "--allow-http"], &env).await;
    assert_eq!(flagged.status.code(), Some(0), "{}", said(&flagged));
    assert!(said(&flagged).contains("plain http"), "{}", said(&flagged));
    let mut allowed = env.clone();
    allowed.push(("TALLY_OPS_ALLOW_HTTP", "true"));
    let by_variable = tally_ops(&["status"], &allowed).await;
    assert_eq!(by_variable.status.code(), Some(0), "{}", said(&by_variable));
    // A value that means neither is a wrong command line, not a yes.
    let mut unclear = env.clone();
    unclear.push(("TALLY_OPS_ALLOW_HTTP", "perhaps"));
    let wrong = tally_ops(&["status"], &unclear).await;
    assert_eq!(wrong.status.code(), Some(2), "{}", said(&wrong));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_text_is_printed_without_terminal_control_characters() {
    let deployment = Deployment::start().await;
    deployment.fake.lock().unwrap().logs = vec![
        "\x1b[31mred alert\x1b[0m",
        "\x1b]0;window title\x07 rings",
        "over\rwritten",
    ];
    let shown = tally_ops(&["status", "--logs", "2"], &deployment.env()).await;
    assert_eq!(shown.status.code(), Some(0), "{}", said(&shown));
    let text = said(&shown);
    for control in ['\x1b', '\x07', '\r'] {
        assert!(!text.contains(control), "{control:?} in {text:?}");
    }
    assert!(text.contains("[31mred alert[0m"), "{text:?}");
    assert!(text.contains("overwritten"), "{text:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_come_from_the_environment_or_a_file_never_a_flag() {
    let deployment = Deployment::start().await;
    let settings = deployment.settings();

    // A secret on the command line is refused (it would be in `ps` and the
    // shell's history), and not echoed.
    for (args, variable) in [
        (
            &["status", "--api-key", "flagged-secret"][..],
            "PORTAINER_API_KEY",
        ),
        (&["backup", "--token", "flagged-secret"][..], "TALLY_TOKEN"),
        (
            &["deploy", "--dry-run", "--token=flagged-secret"][..],
            "TALLY_TOKEN",
        ),
    ] {
        let refused = tally_ops(args, &deployment.env()).await;
        assert_eq!(
            refused.status.code(),
            Some(2),
            "{args:?}: {}",
            said(&refused)
        );
        let text = said(&refused);
        assert!(
            text.contains(variable) && text.contains(&format!("{variable}_FILE")),
            "{args:?}: {text}"
        );
        assert!(!text.contains("flagged-secret"), "{text}");
    }

    // From a file (a Docker or systemd secret), its final newline dropped.
    let key_file = deployment.secret_file("portainer-key", &format!("{KEY}\n"));
    let mut from_file = settings.clone();
    from_file.push(("PORTAINER_API_KEY_FILE", key_file.as_str()));
    let read = tally_ops(&["status"], &from_file).await;
    assert_eq!(read.status.code(), Some(0), "{}", said(&read));

    // Both ways at once is ambiguous; neither, or an unreadable file, is
    // said plainly.
    let mut both = from_file.clone();
    both.push(("PORTAINER_API_KEY", KEY));
    let ambiguous = tally_ops(&["status"], &both).await;
    assert_eq!(ambiguous.status.code(), Some(1), "{}", said(&ambiguous));
    assert!(said(&ambiguous).contains("both"), "{}", said(&ambiguous));
    let missing = tally_ops(&["status"], &settings).await;
    assert_eq!(missing.status.code(), Some(1), "{}", said(&missing));
    assert!(
        said(&missing).contains("PORTAINER_API_KEY_FILE"),
        "{}",
        said(&missing)
    );
    let mut unreadable = settings.clone();
    unreadable.push(("PORTAINER_API_KEY_FILE", "/nonexistent/portainer-key"));
    let unread = tally_ops(&["status"], &unreadable).await;
    assert_eq!(unread.status.code(), Some(1), "{}", said(&unread));
    assert!(
        said(&unread).contains("/nonexistent/portainer-key"),
        "{}",
        said(&unread)
    );
}

/// A stack file written as the lead-site specification describes the
/// deployed stack: the image named in the file, on the Tally service,
/// beside another service, with comments.
fn spec_stack_file(host: &str) -> String {
    format!(
        r#"# Tally in production (Portainer stack "tally").
# The image is moved by `tally ops deploy`, never by hand.
name: tally

services:
  tally:
    image: {host}/acme/tally:v1.0.0   # a numbered release
    container_name: tally
    restart: unless-stopped
    user: "1001:1001"
    labels:
      com.centurylinklabs.watchtower.enable: "false"
    env_file: [stack.env]
    healthcheck:
      test: ["CMD", "/app/tally", "health"]
      interval: 30s
      retries: 3

  # The reverse proxy: not Tally's image, never touched.
  proxy:
    image: 'caddy:2.8'
    depends_on: [tally]

volumes:
  tally-data: {{}}
"#
    )
}

/// The stack's twelve variables, none of them the image.
fn twelve_variables() -> Vec<serde_json::Value> {
    [
        ("PUBLIC_BASE_URL", "https://tally.example.com"),
        ("ALT_BASE_URL", "https://www.tally.example.com"),
        ("CRM_URL", "https://crm.example.com/servlet/WebToLead"),
        ("CRM_TOKEN", "crm-secret-value"),
        ("CAPTCHA_SITE_KEY", "site-key"),
        ("CAPTCHA_SECRET", "captcha-secret-value"),
        ("RATE_LIMIT_PER_MINUTE", "5"),
        ("TRUSTED_PROXIES", "172.18.0.0/16"),
        ("CORS_ORIGIN", "https://tally.example.com"),
        ("BACKUP_KEEP", "7"),
        (
            "TOKEN_ENCRYPTION_KEY",
            "a2V5LWZvci10ZXN0cy1vbmx5LW5vdC1hLXJlYWwta2V5",
        ),
        ("RUST_LOG", "info"),
    ]
    .map(|(name, value)| json!({"name": name, "value": value}))
    .to_vec()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deploy_moves_the_image_named_in_the_stack_file_and_sends_every_variable_back_unchanged() {
    let deployment = Deployment::start().await;
    let host = deployment.host.clone();
    let file = spec_stack_file(&host);
    {
        let mut state = deployment.fake.lock().unwrap();
        state.file = file.clone();
        state.env = twelve_variables();
    }
    // The administrator's token from a file this time.
    let token_file = deployment.secret_file("tally-token", &deployment.token);
    let mut env = deployment.settings();
    env.push(("PORTAINER_API_KEY", KEY));
    env.push(("TALLY_TOKEN_FILE", token_file.as_str()));
    let pinned = format!("{host}/acme/tally:v1.1.0@{}", fake_digest("v1.1.0"));

    let dry = tally_ops(&["deploy", "--tag", "v1.1.0", "--dry-run"], &env).await;
    assert_eq!(dry.status.code(), Some(0), "{}", said(&dry));
    assert!(
        said(&dry).contains(&format!(
            "service \"tally\": {host}/acme/tally:v1.0.0 → {pinned}"
        )) && said(&dry).contains("12 variables"),
        "{}",
        said(&dry)
    );
    assert!(deployment.fake.lock().unwrap().updates.is_empty());

    let done = tally_ops(&["deploy", "--tag", "v1.1.0"], &env).await;
    assert_eq!(done.status.code(), Some(0), "{}", said(&done));
    let text = said(&done);
    assert!(
        text.contains(&format!(
            "after: registry.example.com/acme/tally@{} (version 1.1.0)",
            fake_digest("v1.1.0")
        )),
        "{text}"
    );
    assert!(
        !text.contains("secret-value") && !text.contains(KEY),
        "{text}"
    );
    let update = deployment.fake.lock().unwrap().updates[0].clone();
    // Only the Tally service's image value changed, byte for byte.
    let expected = file.replace(&format!("{host}/acme/tally:v1.0.0"), &pinned);
    assert_ne!(expected, file);
    assert_eq!(update["StackFileContent"].as_str().unwrap(), expected);
    // All twelve variables, as they were read.
    assert_eq!(update["Env"], json!(twelve_variables()));

    // Two services running Tally's image, or none: refused, nothing sent.
    deployment.fake.lock().unwrap().updates.clear();
    for (stack_file, expected) in [
        (
            file.replace("'caddy:2.8'", &format!("{host}/acme/tally:v1.0.0")),
            "more than one service",
        ),
        (
            file.replace(
                &format!("{host}/acme/tally"),
                "elsewhere.example/acme/tally",
            ),
            "no service",
        ),
    ] {
        deployment.fake.lock().unwrap().file = stack_file;
        let refused = tally_ops(&["deploy", "--tag", "v1.1.0"], &env).await;
        assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
        assert!(said(&refused).contains(expected), "{}", said(&refused));
        assert!(deployment.fake.lock().unwrap().updates.is_empty());
    }
}
