//! Privacy: sign-ins are recorded with IP and user agent sealed at rest;
//! IP geolocation happens only for users who opted in, proven against a
//! local fake lookup service that counts its requests.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use reqwest::Method;
use serde_json::{json, Value};
use support::browser::Browser;
use support::spawn_app;

const ADMIN: &str = "admin@example.com";
const ADMIN_PASSWORD: &str = "correct horse battery staple";

/// A stand-in for an ipapi-style service: counts lookups, answers a city.
async fn fake_lookup_service() -> (String, Arc<AtomicUsize>) {
    let count = Arc::new(AtomicUsize::new(0));
    let app = Router::new()
        .route(
            "/lookup/{ip}",
            get(
                |State(count): State<Arc<AtomicUsize>>, Path(ip): Path<String>| async move {
                    count.fetch_add(1, Ordering::SeqCst);
                    Json(json!({ "ip": ip, "city": "Springfield", "region": "Oregon", "country_name": "United States" }))
                },
            ),
        )
        .with_state(count.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{address}/lookup/{{ip}}"), count)
}

async fn sign_ins(browser: &Browser) -> Vec<Value> {
    let response = browser
        .request(Method::GET, "/api/profile/sign-ins")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.json::<Vec<Value>>().await.unwrap()
}

#[tokio::test]
async fn no_lookup_is_made_for_a_user_who_has_not_opted_in() {
    let (url, lookups) = fake_lookup_service().await;
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("GEOLOCATION_URL", url.as_str()),
    ])
    .await;

    let mut browser = Browser::open(&app.address).await;
    let wrong = browser.login(ADMIN, "not the password at all").await;
    assert_eq!(wrong.status(), 401);
    let browser = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    let privacy: Value = browser.json("/api/profile/privacy").await;
    assert_eq!(privacy, json!({ "geolocationEnabled": false }));
    assert_eq!(
        lookups.load(Ordering::SeqCst),
        0,
        "opted out: no outbound lookup"
    );

    let history = sign_ins(&browser).await;
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["success"], true);
    assert_eq!(history[1]["success"], false);
    assert_eq!(history[0]["ip"], "127.0.0.1");
    assert_eq!(history[0]["location"], Value::Null);

    // Opting in: the next sign-in is located.
    let (set, _) = browser
        .send(
            Method::PUT,
            "/api/profile/privacy",
            json!({ "geolocationEnabled": true }),
        )
        .await;
    assert_eq!(set, 200);
    let browser = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    assert_eq!(lookups.load(Ordering::SeqCst), 1);
    let history = sign_ins(&browser).await;
    assert_eq!(history[0]["location"], "Springfield, Oregon, United States");

    // Opting out again stops lookups.
    browser
        .request(Method::PUT, "/api/profile/privacy")
        .json(&json!({ "geolocationEnabled": false }))
        .send()
        .await
        .unwrap();
    let _again = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    assert_eq!(lookups.load(Ordering::SeqCst), 1);

    // At rest, nothing of it is readable.
    let pool = app::ssr::db::connect(&app.database_path()).await.unwrap();
    let rows: Vec<(String, Option<String>, Option<String>)> =
        sqlx::query_as("SELECT ip, user_agent, location FROM login_history")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(rows.len(), 4);
    for (ip, agent, location) in rows {
        assert!(!ip.contains("127.0.0.1"), "{ip}");
        assert!(ip.starts_with("e1:") || ip.starts_with("e2:"), "{ip}");
        for sealed in [agent, location].into_iter().flatten() {
            assert!(!sealed.contains("Springfield") && sealed.starts_with('e'));
        }
    }
}

#[tokio::test]
async fn privacy_settings_belong_to_the_signed_in_user_and_reject_bad_bodies() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await;
    let anonymous = Browser::open(&app.address).await;
    assert_eq!(
        anonymous.status(Method::GET, "/api/profile/privacy").await,
        401
    );
    assert_eq!(
        anonymous.status(Method::GET, "/api/profile/sign-ins").await,
        401
    );
    let browser = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    let (bad, bad_body) = browser
        .send(
            Method::PUT,
            "/api/profile/privacy",
            json!({ "geolocationEnabled": "yes" }),
        )
        .await;
    assert_eq!(bad, 400);
    let body = bad_body;
    assert!(body.to_string().contains("geolocationEnabled"), "{body}");
}

#[tokio::test]
async fn profile_name_and_email_change_with_the_password_for_a_new_email() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await;
    let browser = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    let (renamed, renamed_body) = browser
        .send(
            Method::PUT,
            "/api/profile",
            json!({ "name": "Ada", "email": ADMIN }),
        )
        .await;
    assert_eq!(renamed, 200);
    let body = renamed_body;
    assert_eq!(body["user"]["name"], "Ada");

    let (no_password, no_password_body) = browser
        .send(
            Method::PUT,
            "/api/profile",
            json!({ "name": "Ada", "email": "ada@example.com" }),
        )
        .await;
    assert_eq!(no_password, 400);
    let body = no_password_body;
    assert!(body.to_string().contains("currentPassword"), "{body}");

    let (moved, _) = browser
        .send(
            Method::PUT,
            "/api/profile",
            json!({ "name": "Ada", "email": "ada@example.com", "currentPassword": ADMIN_PASSWORD }),
        )
        .await;
    assert_eq!(moved, 200);
    let mut fresh = Browser::open(&app.address).await;
    assert_eq!(
        fresh
            .login("ada@example.com", ADMIN_PASSWORD)
            .await
            .status(),
        200
    );
}
