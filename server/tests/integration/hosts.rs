//! Hosts, proxies and cross-origin access: both public hosts serve the same
//! site and health, `www.` redirects to the base URL, plain HTTP reported by
//! a trusted proxy redirects to HTTPS, HSTS everywhere, the client IP from
//! `X-Forwarded-For` only behind a trusted proxy, and CORS for
//! `CORS_ORIGIN` only (a malformed one stops start-up).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use serde_json::{json, Value};
use support::{spawn_app, tally_binary};

const BASE: &str = "https://tally.example.com";
const ALT: &str = "https://bills.example.org";

#[tokio::test]
async fn both_hosts_serve_the_same_health_with_hsts_and_www_redirects_to_the_base() {
    let app = spawn_app(&[("PUBLIC_BASE_URL", BASE), ("PUBLIC_ALT_BASE_URL", ALT)]).await;
    let mut answers = Vec::new();
    for host in ["tally.example.com", "bills.example.org"] {
        let response = app
            .client
            .get(app.url("/api/health"))
            .header("host", host)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{host}");
        assert!(response.headers()["strict-transport-security"]
            .to_str()
            .unwrap()
            .contains("max-age="));
        answers.push(response.json::<Value>().await.unwrap());
    }
    assert_eq!(answers[0], answers[1]);

    for host in ["www.tally.example.com", "www.bills.example.org"] {
        let response = app
            .client
            .get(app.url("/pricing?x=1"))
            .header("host", host)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 301, "{host}");
        assert_eq!(response.headers()["location"], "https://tally.example.com/");
        assert!(response.headers().contains_key("strict-transport-security"));
    }
}

#[tokio::test]
async fn plain_http_from_a_trusted_proxy_redirects_to_https_and_others_are_not_believed() {
    let trusting = spawn_app(&[("PUBLIC_BASE_URL", BASE), ("TRUSTED_PROXIES", "127.0.0.1")]).await;
    let response = trusting
        .client
        .get(trusting.url("/features?ref=ad"))
        .header("host", "tally.example.com")
        .header("x-forwarded-proto", "http")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 301);
    assert_eq!(
        response.headers()["location"],
        "https://tally.example.com/features?ref=ad"
    );
    let https = trusting
        .client
        .get(trusting.url("/api/health"))
        .header("host", "tally.example.com")
        .header("x-forwarded-proto", "https")
        .send()
        .await
        .unwrap();
    assert_eq!(https.status(), 200);

    let untrusting = spawn_app(&[("PUBLIC_BASE_URL", BASE)]).await;
    let response = untrusting
        .client
        .get(untrusting.url("/api/health"))
        .header("x-forwarded-proto", "http")
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        200,
        "an untrusted peer's header is ignored"
    );
}

async fn post_lead(app: &support::TestApp, forwarded_for: &str) -> u16 {
    app.client
        .post(app.url("/api/leads"))
        .header("x-forwarded-for", forwarded_for)
        .json(&json!({ "name": "A", "email": "a@b.co", "message": "m" }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn the_rate_limit_keys_on_the_forwarded_client_only_behind_a_trusted_proxy() {
    let behind_proxy = spawn_app(&[
        ("TRUSTED_PROXIES", "127.0.0.0/8"),
        ("RATE_LIMIT_PER_MINUTE", "1"),
    ])
    .await;
    assert_eq!(post_lead(&behind_proxy, "198.51.100.1").await, 201);
    assert_eq!(
        post_lead(&behind_proxy, "198.51.100.2").await,
        201,
        "another client"
    );
    assert_eq!(post_lead(&behind_proxy, "198.51.100.1").await, 429);
    let pool = app::backend::db::connect(&behind_proxy.database_path())
        .await
        .unwrap();
    let ips: Vec<String> = sqlx::query_scalar("SELECT client_ip FROM leads ORDER BY id")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(ips, ["198.51.100.1", "198.51.100.2"]);

    let direct = spawn_app(&[("RATE_LIMIT_PER_MINUTE", "1")]).await;
    assert_eq!(post_lead(&direct, "198.51.100.1").await, 201);
    assert_eq!(
        post_lead(&direct, "198.51.100.2").await,
        429,
        "a forged header buys nothing"
    );
}

#[tokio::test]
async fn cors_grants_the_configured_origin_only() {
    let app = spawn_app(&[("CORS_ORIGIN", "https://www.partner.example")]).await;
    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/api/leads"))
        .header("origin", "https://www.partner.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert_eq!(
        preflight.headers()["access-control-allow-origin"],
        "https://www.partner.example"
    );

    let actual = app
        .client
        .post(app.url("/api/leads"))
        .header("origin", "https://www.partner.example")
        .json(&json!({ "name": "A", "email": "a@b.co", "message": "m" }))
        .send()
        .await
        .unwrap();
    assert_eq!(actual.status(), 201);
    assert_eq!(
        actual.headers()["access-control-allow-origin"],
        "https://www.partner.example"
    );

    let other = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/api/leads"))
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert!(!other.headers().contains_key("access-control-allow-origin"));

    // Only the public forms are meant for other sites.
    let private = app
        .client
        .get(app.url("/api/auth/session"))
        .header("origin", "https://www.partner.example")
        .send()
        .await
        .unwrap();
    assert_eq!(private.status(), 200);
    assert!(!private
        .headers()
        .contains_key("access-control-allow-origin"));
}

#[test]
fn a_cors_origin_with_a_trailing_slash_stops_startup_naming_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    for bad in [
        "https://www.partner.example/",
        "partner.example",
        "https://partner.example/path",
    ] {
        let error = server::config::Settings::from_lookup(|name| {
            (name == "CORS_ORIGIN").then(|| Ok(bad.to_owned()))
        })
        .err()
        .unwrap_or_else(|| panic!("{bad} was accepted"));
        assert_eq!(error.variable, "CORS_ORIGIN");
        assert!(
            error.problem.contains("no trailing slash"),
            "{}",
            error.problem
        );
    }
    let output = tally_binary()
        .env("CORS_ORIGIN", "https://www.partner.example/")
        .env("DATA_DIR", dir.path().join("data"))
        .env("LOG_DIR", dir.path().join("logs"))
        .current_dir(dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let output = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.contains("CORS_ORIGIN") && output.contains("trailing slash"),
        "{output}"
    );
}
