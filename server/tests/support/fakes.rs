//! Local stand-ins for the third-party services: a Turnstile-style bot
//! check and a Salesforce-style CRM. Each counts and keeps what it got, and
//! can be switched between behaving and misbehaving while a test runs.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Form, Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::json;

async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{address}")
}

/// `POST /siteverify`: success when the token is "good"; 500 while down;
/// no answer for a minute while stalled.
#[derive(Clone, Default)]
pub struct FakeCaptcha {
    pub calls: Arc<Mutex<Vec<HashMap<String, String>>>>,
    pub down: Arc<Mutex<bool>>,
    pub stalled: Arc<Mutex<bool>>,
}

impl FakeCaptcha {
    pub async fn start() -> (Self, String) {
        let fake = Self::default();
        let app =
            Router::new()
                .route(
                    "/siteverify",
                    post(
                        |State(fake): State<FakeCaptcha>,
                         Form(form): Form<HashMap<String, String>>| async move {
                            let success = form.get("response").is_some_and(|token| token == "good");
                            fake.calls.lock().unwrap().push(form);
                            let stalled = *fake.stalled.lock().unwrap();
                            if stalled {
                                tokio::time::sleep(std::time::Duration::from_secs(60)).await;
                            }
                            if *fake.down.lock().unwrap() {
                                return (StatusCode::INTERNAL_SERVER_ERROR, Json(json!({})))
                                    .into_response();
                            }
                            (StatusCode::OK, Json(json!({ "success": success }))).into_response()
                        },
                    ),
                )
                .with_state(fake.clone());
        let base = serve(app).await;
        (fake, format!("{base}/siteverify"))
    }

    pub fn count(&self) -> usize {
        self.calls.lock().unwrap().len()
    }
}

/// How the fake CRM answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrmMode {
    Ok,
    /// 402 with a "credits exhausted" body.
    Exhausted,
    Failing,
}

/// A form post the fake received: the endpoint (`lead`, `case`) and fields.
pub type Received = (String, HashMap<String, String>);

/// `POST /lead` (Web-to-Lead) and `POST /case` (Web-to-Case).
#[derive(Clone)]
pub struct FakeCrm {
    pub posts: Arc<Mutex<Vec<Received>>>,
    pub mode: Arc<Mutex<CrmMode>>,
}

impl FakeCrm {
    pub async fn start() -> (Self, String) {
        let fake = Self {
            posts: Arc::default(),
            mode: Arc::new(Mutex::new(CrmMode::Ok)),
        };
        let app = Router::new()
            .route(
                "/{kind}",
                post(
                    |State(fake): State<FakeCrm>,
                     Path(kind): Path<String>,
                     Form(form): Form<HashMap<String, String>>| async move {
                        fake.posts.lock().unwrap().push((kind, form));
                        match *fake.mode.lock().unwrap() {
                            CrmMode::Ok => (StatusCode::OK, "ok"),
                            CrmMode::Exhausted => {
                                (StatusCode::PAYMENT_REQUIRED, "API credits exhausted")
                            }
                            CrmMode::Failing => {
                                (StatusCode::INTERNAL_SERVER_ERROR, "CRM is broken")
                            }
                        }
                    },
                ),
            )
            .with_state(fake.clone());
        let base = serve(app).await;
        (fake, base)
    }

    pub fn set(&self, mode: CrmMode) {
        *self.mode.lock().unwrap() = mode;
    }

    pub fn count(&self, kind: &str) -> usize {
        self.posts
            .lock()
            .unwrap()
            .iter()
            .filter(|(k, _)| k == kind)
            .count()
    }
}

/// The manifest digest the fake registry gives `tag`: well-formed
/// (`sha256:` and 64 hex digits, as `ops deploy` demands before it pins an
/// image to it) and readable in a failure (the tag's bytes in hex, padded).
pub fn fake_digest(tag: &str) -> String {
    let hex: String = tag.bytes().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex:0>64}")
}

/// The image registry (`/v2/acme/tally/…`): the tag list; manifests
/// (v1.1.0 an OCI index whose linux/amd64 entry is an OCI manifest, the
/// other tags Docker v2 manifests; the digest of a tag is [`fake_digest`]);
/// config blobs behind a redirect to storage,
/// labelled with the tag's version (v1.0.0 mislabelled `v1.4.2`). Any other
/// repository is unknown (404, as a registry answers before a first push).
pub async fn fake_registry(tags: &'static [&'static str]) -> String {
    use axum::http::header;
    let unknown = |code: &str| {
        (
            StatusCode::NOT_FOUND,
            Json(json!({"errors": [{"code": code, "message": "not known to registry"}]})),
        )
            .into_response()
    };
    let digest_of = |tag: &str| fake_digest(tag);
    let app = Router::new()
        .route(
            "/v2/{owner}/{name}/tags/list",
            axum::routing::get(
                move |Path((owner, name)): Path<(String, String)>| async move {
                    if (owner.as_str(), name.as_str()) == ("acme", "tally") {
                        Json(json!({"name": "acme/tally", "tags": tags})).into_response()
                    } else {
                        unknown("NAME_UNKNOWN")
                    }
                },
            ),
        )
        .route(
            "/v2/acme/tally/manifests/{reference}",
            axum::routing::get(move |Path(reference): Path<String>| async move {
                if let Some(tag) = reference.strip_prefix("sha256:amd-") {
                    // The platform manifest an index points at: OCI, with
                    // the media type only in the header.
                    let body = json!({"schemaVersion": 2,
                        "config": {"digest": format!("sha256:config-{tag}"), "size": 100}});
                    return (
                        [(header::CONTENT_TYPE, "application/vnd.oci.image.manifest.v1+json")],
                        body.to_string(),
                    )
                        .into_response();
                }
                if !tags.contains(&reference.as_str()) {
                    return unknown("MANIFEST_UNKNOWN");
                }
                let (media_type, body) = if reference == "v1.1.0" {
                    let media_type = "application/vnd.oci.image.index.v1+json";
                    (media_type, json!({"schemaVersion": 2, "mediaType": media_type, "manifests": [
                        {"digest": format!("sha256:arm-{reference}"), "platform": {"os": "linux", "architecture": "arm64"}},
                        {"digest": format!("sha256:amd-{reference}"), "platform": {"os": "linux", "architecture": "amd64"}}
                    ]}))
                } else {
                    let media_type = "application/vnd.docker.distribution.manifest.v2+json";
                    (media_type, json!({"schemaVersion": 2, "mediaType": media_type,
                        "config": {"digest": format!("sha256:config-{reference}"), "size": 100}}))
                };
                (
                    [
                        (header::CONTENT_TYPE, media_type.to_owned()),
                        (
                            axum::http::HeaderName::from_static("docker-content-digest"),
                            digest_of(&reference),
                        ),
                    ],
                    body.to_string(),
                )
                    .into_response()
            }),
        )
        .route(
            "/v2/acme/tally/blobs/{digest}",
            axum::routing::get(|Path(digest): Path<String>| async move {
                axum::response::Redirect::temporary(&format!("/storage/{digest}"))
            }),
        )
        .route(
            "/storage/{digest}",
            axum::routing::get(|Path(digest): Path<String>| async move {
                let tag = digest.trim_start_matches("sha256:config-");
                let label = if tag == "v1.0.0" {
                    "v1.4.2"
                } else {
                    tag.trim_start_matches('v')
                };
                Json(json!({"architecture": "amd64", "os": "linux",
                    "config": {"Labels": {"org.opencontainers.image.version": label}}}))
            }),
        );
    serve(app).await
}
