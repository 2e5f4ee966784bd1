//! The outbound guard from the outside, through bank setup tokens (the
//! first feature that calls an address a user typed): an address on this
//! machine or a private network is refused, a 400 naming `setupToken`,
//! before any connection; an administrator can allow it; and a failed
//! claim reads the same whether the port was closed, something answered,
//! or the answer redirected elsewhere (no redirect is followed).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use app::contract::bank::{ConnectBank, Connected};
use app::contract::error::ErrorBody;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Router;
use base64::Engine as _;
use reqwest::Method;
use support::browser::Browser;
use support::with_admin;

/// A local server that counts every request and answers each with what
/// `answer` makes; its port.
async fn listening(
    answer: impl Fn() -> axum::response::Response + Clone + Send + Sync + 'static,
) -> (Arc<AtomicUsize>, u16) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&hits);
    let router = Router::new().fallback(move || {
        let (hits, answer) = (Arc::clone(&counted), answer.clone());
        async move {
            hits.fetch_add(1, Ordering::SeqCst);
            answer()
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (hits, port)
}

fn token(url: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(url)
}

async fn connect(browser: &Browser, setup_token: String) -> Result<Connected, (u16, ErrorBody)> {
    browser
        .call(
            Method::POST,
            "/api/bank/connections",
            &ConnectBank { setup_token },
        )
        .await
        .map(Option::unwrap)
}

const BANK_ON: &[(&str, &str)] = &[
    ("BANK_SYNC_ENABLED", "true"),
    ("SIMPLEFIN_ALLOW_HTTP", "true"),
];

#[tokio::test]
async fn setup_tokens_for_this_machine_or_private_networks_are_refused_before_connecting() {
    let (hits, port) = listening(|| StatusCode::NOT_FOUND.into_response()).await;
    let (_app, admin) = with_admin(BANK_ON).await;
    // Ten: the per-user limit counts refused connects too.
    for url in [
        format!("http://127.0.0.1:{port}/claim/a"),
        format!("http://localhost:{port}/claim/a"),
        format!("http://LOCALHOST.:{port}/claim/a"),
        format!("http://2130706433:{port}/claim/a"),
        format!("http://0x7f.1:{port}/claim/a"),
        format!("http://[::ffff:127.0.0.1]:{port}/claim/a"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://[fd00::1]/claim/a".to_owned(),
        "http://100.64.0.1/claim/a".to_owned(),
        format!("http://0.0.0.0:{port}/claim/a"),
    ] {
        let (status, error) = connect(&admin, token(&url)).await.unwrap_err();
        assert_eq!(status, 400, "{url}: {error:?}");
        assert_eq!(error.field_violations()[0].field, "setupToken", "{url}");
        assert!(
            error
                .error
                .message
                .contains("Tally does not connect to that address"),
            "{url}: {error:?}"
        );
    }
    assert_eq!(hits.load(Ordering::SeqCst), 0, "nothing was connected");
}

#[tokio::test]
async fn an_administrator_can_allow_a_private_address() {
    let (hits, port) = listening(|| StatusCode::NOT_FOUND.into_response()).await;
    let mut settings = BANK_ON.to_vec();
    settings.push(("OUTBOUND_ALLOW_PRIVATE", "true"));
    let (_app, admin) = with_admin(&settings).await;
    let (status, error) = connect(&admin, token(&format!("http://localhost:{port}/claim/a")))
        .await
        .unwrap_err();
    // Reached (and refused by the "provider", which answers 404 to all).
    assert_eq!(status, 400, "{error:?}");
    assert!(
        error.error.message.contains("refused the token"),
        "{error:?}"
    );
    assert!(hits.load(Ordering::SeqCst) >= 1);

    // A listed network lets that address through, and no other.
    let mut settings = BANK_ON.to_vec();
    settings.push(("OUTBOUND_ALLOWED_HOSTS", "10.0.0.0/8, 127.0.0.0/8"));
    let (_app, admin) = with_admin(&settings).await;
    let before = hits.load(Ordering::SeqCst);
    let (_, error) = connect(&admin, token(&format!("http://127.0.0.1:{port}/claim/a")))
        .await
        .unwrap_err();
    assert!(
        error.error.message.contains("refused the token"),
        "{error:?}"
    );
    assert!(hits.load(Ordering::SeqCst) > before);
    let (_, error) = connect(&admin, token("http://192.168.1.1/claim/a"))
        .await
        .unwrap_err();
    assert!(
        error
            .error
            .message
            .contains("does not connect to that address"),
        "{error:?}"
    );
}

/// The cloud metadata services are refused whatever the administrator
/// allowed (their addresses, a network around them, every private
/// address), and IPv6 translation prefixes are judged by the IPv4 address
/// they reach; each refused before any connection.
#[tokio::test]
async fn metadata_and_translated_private_addresses_are_refused_whatever_is_allowed() {
    async fn refused(admin: &Browser, url: &str) {
        let (status, error) = connect(admin, token(url)).await.unwrap_err();
        assert_eq!(status, 400, "{url}: {error:?}");
        assert_eq!(error.field_violations()[0].field, "setupToken", "{url}");
        assert!(
            error
                .error
                .message
                .contains("does not connect to that address"),
            "{url}: {error:?}"
        );
    }

    let mut settings = BANK_ON.to_vec();
    settings.push(("OUTBOUND_ALLOW_PRIVATE", "true"));
    settings.push((
        "OUTBOUND_ALLOWED_HOSTS",
        "169.254.169.254, 100.100.100.200, fd00:ec2::254, 169.254.0.0/16, 64:ff9b::/96",
    ));
    let (_app, admin) = with_admin(&settings).await;
    for url in [
        "http://169.254.169.254/latest/meta-data/",
        "http://100.100.100.200/latest/meta-data/",
        "http://[fd00:ec2::254]/latest/meta-data/",
        "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
        "http://[2002:a9fe:a9fe::1]/latest/meta-data/",
    ] {
        refused(&admin, url).await;
    }

    let (_app, admin) = with_admin(BANK_ON).await;
    for url in [
        "http://[64:ff9b:1::a00:1]/claim/a",
        "http://[64:ff9b::a00:1]/claim/a",
        "http://[2002:c0a8:101::1]/claim/a",
    ] {
        refused(&admin, url).await;
    }
}

#[tokio::test]
async fn a_failed_claim_reads_the_same_whether_the_port_was_closed_or_something_answered() {
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let (_, not_found) =
        listening(|| (StatusCode::NOT_FOUND, "no such page").into_response()).await;
    let (_, forbidden) = listening(|| StatusCode::FORBIDDEN.into_response()).await;
    let (_, garbage) =
        listening(|| (StatusCode::OK, "SECRET-BODY is not an access URL").into_response()).await;
    let (elsewhere_hits, elsewhere) =
        listening(|| "http://u:p@127.0.0.1:9/simplefin".into_response()).await;
    let (_, redirecting) = listening(move || {
        axum::response::Redirect::temporary(&format!("http://127.0.0.1:{elsewhere}/claim"))
            .into_response()
    })
    .await;
    let mut settings = BANK_ON.to_vec();
    settings.push(("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1"));
    let (_app, admin) = with_admin(&settings).await;
    let mut answers = Vec::new();
    for port in [closed, not_found, forbidden, garbage, redirecting] {
        let (status, error) = connect(&admin, token(&format!("http://127.0.0.1:{port}/claim/a")))
            .await
            .unwrap_err();
        let text = serde_json::to_string(&error).unwrap();
        for leak in ["404", "403", "302", "307", "SECRET", "127.0.0.1"] {
            assert!(!text.contains(leak), "{leak} in {text}");
        }
        answers.push((status, error.error.message.clone()));
    }
    assert!(
        answers.iter().all(|answer| *answer == answers[0]),
        "{answers:#?}"
    );
    assert_eq!(answers[0].0, 400);
    assert_eq!(
        elsewhere_hits.load(Ordering::SeqCst),
        0,
        "the redirect was not followed"
    );
}

#[tokio::test]
async fn an_access_url_the_provider_points_at_a_private_address_is_not_kept() {
    let (_, port) = listening(|| "http://user:pass@10.0.0.1/simplefin".into_response()).await;
    let mut settings = BANK_ON.to_vec();
    settings.push(("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1"));
    let (_app, admin) = with_admin(&settings).await;
    let (status, error) = connect(&admin, token(&format!("http://127.0.0.1:{port}/claim/a")))
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{error:?}");
    assert_eq!(error.field_violations()[0].field, "setupToken");
    assert!(
        error
            .error
            .message
            .contains("does not connect to that address"),
        "{error:?}"
    );
    let listed: app::contract::bank::BankConnections = admin.get("/api/bank/connections").await;
    assert!(listed.connections.is_empty(), "{listed:?}");
}
