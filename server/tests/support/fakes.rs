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

/// The image registry's tag list (`GET /v2/acme/tally/tags/list`); any other
/// repository is unknown (404, as a registry answers before a first push).
pub async fn fake_registry(tags: &'static [&'static str]) -> String {
    let app = Router::new().route(
        "/v2/{owner}/{name}/tags/list",
        axum::routing::get(
            move |Path((owner, name)): Path<(String, String)>| async move {
                if (owner.as_str(), name.as_str()) == ("acme", "tally") {
                    Json(json!({"name": "acme/tally", "tags": tags})).into_response()
                } else {
                    (
                        StatusCode::NOT_FOUND,
                        Json(json!({"errors": [{"code": "NAME_UNKNOWN",
                            "message": "repository name not known to registry"}]})),
                    )
                        .into_response()
                }
            },
        ),
    );
    serve(app).await
}
