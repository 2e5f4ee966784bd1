//! `tally ops status` against a local fake of the container-management API
//! (Portainer's stacks and the Docker Engine API it proxies) and a real
//! Tally for the health probe: up, down (exited, unhealthy, missing),
//! unreachable (the API, or the service's address), the restart count, the
//! digest, the logs, and the deployed version (unknown without a label, a
//! failure when unreadable). The API key is checked by the fake and never
//! printed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::process::Output;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;
use support::operations::{said, tally_ops};
use support::spawn_app;

const KEY: &str = "portainer-key-for-tests";

#[derive(Clone)]
struct Container {
    status: &'static str,
    health: Option<&'static str>,
    restarts: i64,
    exists: bool,
    labelled: bool,
    image_fails: bool,
}

impl Default for Container {
    fn default() -> Self {
        Self {
            status: "running",
            health: Some("healthy"),
            restarts: 0,
            exists: true,
            labelled: true,
            image_fails: false,
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

async fn stacks(headers: HeaderMap) -> Response {
    if let Some(refusal) = refused(&headers) {
        return refusal;
    }
    Json(json!([
        {"Id": 1, "Name": "other", "EndpointId": 9, "Env": []},
        {"Id": 3, "Name": "tally", "EndpointId": 2,
         "Env": [{"name": "PUBLIC_BASE_URL", "value": "https://tally.example.com"}]}
    ]))
    .into_response()
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
            let labels = if container.labelled {
                json!({"org.opencontainers.image.version": "v1.4.2"})
            } else {
                json!({})
            };
            Json(json!({
                "Id": "sha256:1mage",
                "RepoDigests": ["registry.example.com/acme/tally@sha256:d1gest"],
                "Config": {"Labels": labels}
            }))
            .into_response()
        }
        "containers/c0ffee/logs" => {
            assert!(query.contains("tail=2"), "{query}");
            let mut bytes = Vec::new();
            for line in ["started\n", "listening on http://0.0.0.0:3001\n"] {
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
        .route("/api/endpoints/{endpoint}/docker/{*rest}", get(docker))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (fake, address)
}

async fn status(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut all = vec![("PORTAINER_API_KEY", KEY), ("PORTAINER_STACK", "tally")];
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
        text.contains("registry.example.com/acme/tally@sha256:d1gest"),
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
    // A wrong key is a refusal in words.
    let wrong = status(&["--api-key", "nope-nope"], &env).await;
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
