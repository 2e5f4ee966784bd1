//! Local servers that speak the push services' APIs as far as Tally uses
//! them (ntfy's JSON publish, Gotify's `POST /message`, Discord webhooks,
//! Telegram's `sendMessage`) and a webhook receiver: each keeps every
//! request it got (when, path, headers, body) and answers from a script of
//! statuses (200 once the script is used up).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;

/// One request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    pub at: Instant,
    pub path: String,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Received {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|value| value.to_str().unwrap().to_owned())
    }
}

/// An answer from the script: a status and an optional `Retry-After`.
#[derive(Clone, Copy, Debug)]
pub struct Answer(pub u16, pub Option<u64>);

#[derive(Clone, Default)]
pub struct Receiver {
    got: Arc<Mutex<Vec<Received>>>,
    script: Arc<Mutex<VecDeque<Answer>>>,
    /// How long each answer waits (none unless [`Receiver::slow`]).
    delay: Arc<Mutex<Duration>>,
    pub url: String,
}

async fn record(
    State(receiver): State<Receiver>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    receiver.got.lock().unwrap().push(Received {
        at: Instant::now(),
        path: uri.path().to_owned(),
        headers,
        body,
    });
    let answer = receiver.script.lock().unwrap().pop_front();
    let delay = *receiver.delay.lock().unwrap();
    tokio::time::sleep(delay).await;
    match answer {
        Some(Answer(status, retry_after)) => {
            let mut response = StatusCode::from_u16(status).unwrap().into_response();
            if let Some(seconds) = retry_after {
                response
                    .headers_mut()
                    .insert("retry-after", seconds.to_string().parse().unwrap());
            }
            response
        }
        None => (StatusCode::OK, r#"{"ok":true,"id":"1"}"#).into_response(),
    }
}

impl Receiver {
    pub async fn start() -> Self {
        let mut receiver = Self::default();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        receiver.url = format!("http://{}", listener.local_addr().unwrap());
        let app = Router::new().fallback(record).with_state(receiver.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        receiver
    }

    pub fn script(&self, answers: &[Answer]) {
        *self.script.lock().unwrap() = answers.iter().copied().collect();
    }

    /// Makes every answer wait `delay` (a slow service, to hold a run
    /// in its send while another starts).
    pub fn slow(&self, delay: Duration) {
        *self.delay.lock().unwrap() = delay;
    }

    pub fn got(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    pub fn forget(&self) {
        self.got.lock().unwrap().clear();
    }

    /// Waits up to `timeout` for at least `n` requests.
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> Vec<Received> {
        let until = Instant::now() + timeout;
        loop {
            let got = self.got();
            if got.len() >= n || Instant::now() > until {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
