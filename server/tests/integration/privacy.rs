//! Privacy: sign-ins are recorded with IP and user agent sealed at rest;
//! IP geolocation happens only for users who opted in, proven against a
//! local fake lookup service that counts its requests. Tally's requests and
//! answers are the contract's types; the fake lookup service answers its
//! own (ipapi's) JSON.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use app::contract::account::{Me, PrivacySettings, SignInMethod, SignInRecord, UpdateProfile};
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use reqwest::Method;
use serde_json::json;
use support::browser::Browser;
use support::spawn_app;
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

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

async fn sign_ins(browser: &Browser) -> Vec<SignInRecord> {
    browser.get("/api/profile/sign-ins").await
}

fn located(geolocation_enabled: bool) -> PrivacySettings {
    PrivacySettings {
        geolocation_enabled,
    }
}

fn profile(name: &str, email: &str, current_password: Option<&str>) -> UpdateProfile {
    UpdateProfile {
        name: name.to_owned(),
        email: email.to_owned(),
        current_password: current_password.map(str::to_owned),
    }
}

#[tokio::test]
async fn no_lookup_is_made_for_a_user_who_has_not_opted_in() {
    let (url, lookups) = fake_lookup_service().await;
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("GEOLOCATION_URL", url.as_str()),
    ])
    .await;

    let mut browser = Browser::open(&app.address).await;
    let wrong = browser.login(ADMIN_EMAIL, "not the password at all").await;
    assert_eq!(wrong.status(), 401);
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let privacy: PrivacySettings = browser.get("/api/profile/privacy").await;
    assert_eq!(privacy, located(false));
    assert_eq!(
        lookups.load(Ordering::SeqCst),
        0,
        "opted out: no outbound lookup"
    );

    let history = sign_ins(&browser).await;
    assert_eq!(history.len(), 2);
    assert!(history[0].success);
    assert!(!history[1].success);
    assert_eq!(
        [history[0].method, history[1].method],
        [SignInMethod::Password; 2],
        "both were passwords, the wrong one too"
    );
    assert_eq!(history[0].ip.as_deref(), Some("127.0.0.1"));
    assert_eq!(history[0].location, None);

    // Opting in: the next sign-in is located.
    let set: PrivacySettings = browser
        .call_expecting(200, Method::PUT, "/api/profile/privacy", &located(true))
        .await;
    assert_eq!(set, located(true));
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(lookups.load(Ordering::SeqCst), 1);
    let history = sign_ins(&browser).await;
    assert_eq!(
        history[0].location.as_deref(),
        Some("Springfield, Oregon, United States")
    );

    // Opting out again stops lookups.
    browser
        .call::<_, PrivacySettings>(Method::PUT, "/api/profile/privacy", &located(false))
        .await
        .unwrap();
    let _again = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(lookups.load(Ordering::SeqCst), 1);

    // At rest, nothing of it is readable.
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
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
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
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
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    // Raw on purpose: a wrong type, which the contract cannot express.
    let (bad, error) = browser
        .call::<_, PrivacySettings>(
            Method::PUT,
            "/api/profile/privacy",
            &json!({ "geolocationEnabled": "yes" }),
        )
        .await
        .unwrap_err();
    assert_eq!(bad, 400);
    assert!(
        error.error.message.contains("geolocationEnabled"),
        "{error:?}"
    );
}

#[tokio::test]
async fn profile_name_and_email_change_with_the_password_for_a_new_email() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let renamed: Me = browser
        .call_expecting(
            200,
            Method::PUT,
            "/api/profile",
            &profile("Ada", ADMIN_EMAIL, None),
        )
        .await;
    assert_eq!(renamed.user.name, "Ada");

    let (no_password, error) = browser
        .call::<_, Me>(
            Method::PUT,
            "/api/profile",
            &profile("Ada", "ada@example.com", None),
        )
        .await
        .unwrap_err();
    assert_eq!(no_password, 400);
    assert!(error.error.message.contains("currentPassword"), "{error:?}");

    let _: Me = browser
        .call_expecting(
            200,
            Method::PUT,
            "/api/profile",
            &profile("Ada", "ada@example.com", Some(ADMIN_PASSWORD)),
        )
        .await;
    let mut fresh = Browser::open(&app.address).await;
    assert_eq!(
        fresh
            .login("ada@example.com", ADMIN_PASSWORD)
            .await
            .status(),
        200
    );
}
