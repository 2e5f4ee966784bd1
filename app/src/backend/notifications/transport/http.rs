//! The channels that are HTTP APIs: ntfy (JSON publish), Gotify
//! (`POST /message`), Discord (webhook with an embed), Telegram
//! (`sendMessage`) and signed webhooks. Every request goes through the
//! outbound guard: vetted before connecting, pinned to the vetted
//! addresses, no redirects, a 10 s limit. Errors name the class of failure
//! and the answer's status, never a URL (Discord's and Telegram's carry the
//! secret) or the answer's body.

use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use reqwest::Url;
use serde_json::{json, Value};

use super::super::render::{cut, Message};
use super::super::rules::AttemptFailure;
use super::signature;
use super::{Failed, Sent};
use crate::backend::outbound::{read_capped, redact, Outbound};

/// Each request's limit.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// The most of an answer read (its status is what matters).
const ANSWER_CAP: usize = 64 * 1024;

/// A request ready to go: where, what, with which headers.
pub struct Request {
    pub field: &'static str,
    pub url: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

fn failed(message: impl Into<String>, status: Option<u16>, permanent: bool) -> Failed {
    Failed {
        failure: AttemptFailure {
            status,
            retry_after: None,
            permanent,
        },
        error: message.into(),
    }
}

/// Parses and checks a channel URL: https unless `allow_http`.
pub fn parse_url(text: &str, allow_http: bool) -> Result<Url, Failed> {
    let url = Url::parse(text.trim())
        .map_err(|_| failed("the channel's address is not a valid URL", None, true))?;
    match url.scheme() {
        "https" => Ok(url),
        "http" if allow_http => Ok(url),
        _ => Err(failed(
            "the channel's address must be https (NOTIFY_ALLOW_HTTP=true allows http)",
            None,
            true,
        )),
    }
}

/// Sends one request through the guard.
pub async fn post(outbound: &Outbound, request: Request, allow_http: bool) -> Result<Sent, Failed> {
    let url = parse_url(&request.url, allow_http)?;
    let vetted = outbound.vet(&url).await.map_err(|refused| {
        failed(
            format!("Tally does not send to that address: {refused}"),
            None,
            true,
        )
    })?;
    let client = outbound
        .client_for(&vetted, TIMEOUT)
        .map_err(|_| failed("the request could not be prepared", None, false))?;
    let answer = client
        .post(url.clone())
        .headers(request.headers)
        .body(request.body)
        .send()
        .await
        .map_err(|error| {
            tracing::info!(to = %redact(&url), timeout = error.is_timeout(), "notification send failed");
            if error.is_timeout() {
                failed("the server did not answer within 10 s", None, false)
            } else {
                failed("the server could not be reached", None, false)
            }
        })?;
    let status = answer.status().as_u16();
    let retry_after = answer
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    // Drain (capped) so the connection closes cleanly; the body is not shown.
    let _ = read_capped(answer, ANSWER_CAP).await;
    if (200..300).contains(&status) {
        Ok(Sent {
            status: Some(status),
        })
    } else if (300..400).contains(&status) {
        Err(failed(
            format!("the server answered {status} (a redirect, which Tally does not follow)"),
            Some(status),
            true,
        ))
    } else {
        Err(Failed {
            failure: AttemptFailure {
                status: Some(status),
                retry_after,
                permanent: false,
            },
            error: format!("the server answered {status}"),
        })
    }
}

fn json_headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers
}

fn body(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

fn bearer(token: &str, headers: &mut HeaderMap) {
    if let Ok(value) = HeaderValue::from_str(&format!("Bearer {token}")) {
        headers.insert(AUTHORIZATION, value);
    }
}

/// ntfy's JSON publish: `POST <server>/` with the topic in the body.
pub fn ntfy(server: &str, topic: &str, token: Option<&str>, message: &Message) -> Request {
    let mut headers = json_headers();
    if let Some(token) = token.filter(|token| !token.is_empty()) {
        bearer(token, &mut headers);
    }
    let tags: Vec<&str> = if message.urgent {
        vec!["warning"]
    } else {
        vec!["calendar"]
    };
    Request {
        field: "serverUrl",
        url: format!("{}/", server.trim_end_matches('/')),
        headers,
        body: body(&json!({
            "topic": topic,
            "title": cut(&message.title, 250),
            "message": cut(&message.text, 4000),
            "priority": if message.urgent { 4 } else { 3 },
            "tags": tags,
            "click": message.click_url,
        })),
    }
}

/// Gotify: `POST <server>/message` with the application token.
pub fn gotify(server: &str, token: &str, message: &Message) -> Request {
    let mut headers = json_headers();
    if let Ok(value) = HeaderValue::from_str(token) {
        headers.insert(HeaderName::from_static("x-gotify-key"), value);
    }
    Request {
        field: "serverUrl",
        url: format!("{}/message", server.trim_end_matches('/')),
        headers,
        body: body(&json!({
            "title": cut(&message.title, 250),
            "message": cut(&message.text, 4000),
            "priority": if message.urgent { 8 } else { 5 },
            "extras": {
                "client::notification": {"click": {"url": message.click_url}},
            },
        })),
    }
}

/// Discord: the webhook with the title as content and the lines in an
/// embed (Discord's limits: 2,000 and 4,096 characters).
pub fn discord(webhook_url: &str, message: &Message) -> Request {
    Request {
        field: "webhookUrl",
        url: webhook_url.to_owned(),
        headers: json_headers(),
        body: body(&json!({
            "content": cut(&message.title, 2000),
            "embeds": [{
                "title": cut(&message.title, 256),
                "description": cut(&message.text, 4096),
                "url": message.click_url,
                "color": if message.urgent { 0x00d9_4f4f } else { 0x0031_6dca },
            }],
            "allowed_mentions": {"parse": []},
        })),
    }
}

/// Telegram's `sendMessage` (4,096 characters at most).
pub fn telegram(api: &str, bot_token: &str, chat_id: &str, message: &Message) -> Request {
    Request {
        field: "botToken",
        url: format!("{}/bot{bot_token}/sendMessage", api.trim_end_matches('/')),
        headers: json_headers(),
        body: body(&json!({
            "chat_id": chat_id,
            "text": cut(&format!("{}\n\n{}", message.title, message.text), 4096),
            "disable_web_page_preview": true,
        })),
    }
}

/// A signed webhook: JSON, and the Standard Webhooks headers.
pub fn webhook(url: &str, secret: &str, message: &Message, now: i64) -> Request {
    let id = format!("msg_{}", message.id);
    let events: Vec<Value> = message
        .items
        .iter()
        .map(|item| {
            json!({
                "event": item.event.map_or("test", |event| event.name()),
                "line": item.line,
            })
        })
        .collect();
    let payload = body(&json!({
        "type": if message.items.iter().all(|item| item.event.is_none()) {
            "tally.test"
        } else {
            "tally.reminders"
        },
        "timestamp": jiff::Timestamp::from_second(now).map(|t| t.to_string()).unwrap_or_default(),
        "data": {
            "title": message.title,
            "text": message.text,
            "url": message.click_url,
            "events": events,
        },
    }));
    let mut headers = json_headers();
    let mut set = |name: &'static str, value: String| {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(HeaderName::from_static(name), value);
        }
    };
    set("webhook-id", id.clone());
    set("webhook-timestamp", now.to_string());
    if let Some(signature) = signature::sign(secret, &id, now, &payload) {
        set("webhook-signature", signature);
    }
    Request {
        field: "url",
        url: url.to_owned(),
        headers,
        body: payload,
    }
}
