//! `GET /metrics` over real HTTP: off without `METRICS_TOKEN`, refused
//! without the token, and with it the request counts by route template
//! (never a raw path), latency histograms, operations by kind and outcome,
//! the CRM outbox, bank connections and the database's size.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::operations::Operation;
use app::domain::contact::LeadForm;
use reqwest::{header, Method};
use serde_json::json;
use support::bank::{connect_demo, DEMO};
use support::operations::finished;
use support::{spawn_app, with_admin, TestApp};

const TOKEN: &str = "metrics-token-for-tests-0123";

/// The value of the sample that is exactly `series` (name and labels).
fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

/// `GET /metrics` with the right token.
async fn scraped(app: &TestApp) -> reqwest::Response {
    app.client
        .get(app.url("/metrics"))
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn metrics_are_off_without_a_token_and_refused_without_the_right_one() {
    let app = spawn_app(&[]).await;
    let off = app.client.get(app.url("/metrics")).send().await.unwrap();
    assert_eq!(off.status(), 404);
    assert!(off.text().await.unwrap().contains("METRICS_TOKEN"));

    let app = spawn_app(&[("METRICS_TOKEN", TOKEN)]).await;
    for sent in [None, Some("Bearer wrong-token-wrong-token"), Some(TOKEN)] {
        let mut request = app.client.get(app.url("/metrics"));
        if let Some(sent) = sent {
            request = request.header(header::AUTHORIZATION, sent);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 401, "{sent:?}");
        assert_eq!(
            response.headers()[header::WWW_AUTHENTICATE],
            "Bearer realm=\"metrics\""
        );
        assert!(!response.text().await.unwrap().contains("tally_"));
    }
}

#[tokio::test]
async fn requests_operations_and_the_database_are_measured() {
    let (app, admin) = with_admin(&[("METRICS_TOKEN", TOKEN), ("TALLY_DIAGNOSTICS", "1")]).await;
    for _ in 0..3 {
        let health = app.client.get(app.url("/api/health")).send().await.unwrap();
        assert_eq!(health.status(), 200);
    }
    assert_eq!(admin.status(Method::GET, "/api/bills/987654").await, 404);
    let stray = app
        .client
        .get(app.url("/api/x9f3q/probe"))
        .send()
        .await
        .unwrap();
    assert_eq!(stray.status(), 404);
    let page = app
        .client
        .get(app.url("/no-such-page-7d1"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 404);
    // One operation that succeeds and one that fails.
    for fail in [false, true] {
        let started: Operation = admin
            .call(
                Method::POST,
                "/v1/diagnostics:sleep",
                &json!({ "duration": "0s", "fail": fail }),
            )
            .await
            .unwrap()
            .unwrap();
        finished(&admin, &started).await;
    }

    let response = scraped(&app).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/plain; version=0.0.4; charset=utf-8"
    );
    assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
    let text = response.text().await.unwrap();

    let health = r#"tally_http_requests_total{route="/api/health",method="GET",status="200"}"#;
    assert!(value(&text, health).unwrap() >= 3.0, "{text}");
    let missing = r#"tally_http_requests_total{route="/api/bills/{id}",method="GET",status="404"}"#;
    assert_eq!(value(&text, missing), Some(1.0), "{text}");
    assert!(value(
        &text,
        r#"tally_http_requests_total{route="unmatched",method="GET",status="404"}"#
    )
    .is_some());
    assert!(value(
        &text,
        r#"tally_http_requests_total{route="page",method="GET",status="404"}"#
    )
    .is_some());
    for raw in ["987654", "x9f3q", "no-such-page-7d1"] {
        assert!(!text.contains(raw), "a raw path became a label: {raw}");
    }
    let count = value(
        &text,
        r#"tally_http_request_duration_seconds_count{route="/api/health"}"#,
    )
    .unwrap();
    let inf = value(
        &text,
        r#"tally_http_request_duration_seconds_bucket{route="/api/health",le="+Inf"}"#,
    )
    .unwrap();
    assert_eq!(count, inf);

    let kind = "sleep";
    for outcome in ["succeeded", "failed"] {
        let series = format!(r#"tally_operations{{kind="{kind}",outcome="{outcome}"}}"#);
        assert_eq!(value(&text, &series), Some(1.0), "{series} in\n{text}");
    }
    assert!(text.contains("# TYPE tally_crm_outbox gauge"));
    assert!(text.contains("# TYPE tally_bank_connections gauge"));
    assert!(value(&text, "tally_database_size_bytes").unwrap() > 0.0);
    assert!(value(&text, "tally_database_wal_bytes").is_some());
    assert!(text.contains("tally_build_info{version="));
}

/// The samples that are read from the database when scraped carry the
/// database's own counts: a lead waiting in the CRM outbox, one bank
/// connection.
#[tokio::test]
async fn the_crm_outbox_and_bank_connections_are_counted_from_the_database() {
    let mut settings = vec![("METRICS_TOKEN", TOKEN)];
    settings.extend_from_slice(DEMO);
    let (app, admin) = with_admin(&settings).await;
    let scrape = || async { scraped(&app).await.text().await.unwrap() };
    let before = scrape().await;
    assert!(!before.contains("tally_crm_outbox{"), "{before}");
    assert!(!before.contains("tally_bank_connections{"), "{before}");

    let lead = app
        .client
        .post(app.url("/api/leads"))
        .json(&LeadForm {
            name: "Ada Lovelace".into(),
            email: "ada@example.com".into(),
            message: "We track forty bills.".into(),
            ..LeadForm::default()
        })
        .send()
        .await
        .unwrap();
    assert_eq!(lead.status(), 201, "{}", lead.text().await.unwrap());
    connect_demo(&admin).await;

    let after = scrape().await;
    let leads: f64 = after
        .lines()
        .filter(|line| line.starts_with(r#"tally_crm_outbox{form="lead","#))
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert_eq!(leads, 1.0, "{after}");
    assert_eq!(
        value(&after, r#"tally_bank_connections{status="active"}"#),
        Some(1.0),
        "{after}"
    );
}
