//! A wrong password for a known email answers in the time an unknown email
//! does, so timing does not tell which emails have accounts, even for a user
//! whose sign-ins are located by a slow lookup service. Benchmark-style:
//! medians over many interleaved attempts, compared within a generous band;
//! no single request is timed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use app::contract::account::{PrivacySettings, SignIn, SignInRecord};
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use reqwest::Method;
use serde_json::json;
use support::browser::Browser;
use support::spawn_app;
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

/// Attempts of each kind.
const ROUNDS: usize = 15;
/// The lookup service's delay: well under the lookup's limit, and large
/// next to a password check even on a slow debug build.
const LOOKUP_DELAY: Duration = Duration::from_millis(1000);

/// An ipapi-style lookup service that takes `LOOKUP_DELAY` to answer.
async fn slow_lookup_service() -> (String, Arc<AtomicUsize>) {
    let count = Arc::new(AtomicUsize::new(0));
    let app = Router::new()
        .route(
            "/lookup/{ip}",
            get(
                |State(count): State<Arc<AtomicUsize>>, Path(ip): Path<String>| async move {
                    tokio::time::sleep(LOOKUP_DELAY).await;
                    count.fetch_add(1, Ordering::SeqCst);
                    Json(
                        json!({ "ip": ip, "city": "Springfield", "country_name": "United States" }),
                    )
                },
            ),
        )
        .with_state(count.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{address}/lookup/{{ip}}"), count)
}

/// How long one sign-in attempt takes to be answered; it must be refused.
async fn wrong_sign_in(browser: &Browser, email: &str) -> Duration {
    let started = Instant::now();
    let response = browser
        .request(Method::POST, "/api/auth/login")
        .json(&SignIn {
            email: email.to_owned(),
            password: "not the password".into(),
        })
        .send()
        .await
        .unwrap();
    let took = started.elapsed();
    assert_eq!(response.status(), 401, "{email}");
    took
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_for_a_known_email_answers_as_fast_as_an_unknown_email() {
    let (url, lookups) = slow_lookup_service().await;
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("GEOLOCATION_URL", url.as_str()),
        ("SIGN_IN_ATTEMPTS_PER_MINUTE", "1000"),
        ("SIGN_IN_ACCOUNT_BURST", "1000"),
    ])
    .await;
    let owner = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let opted_in: PrivacySettings = owner
        .call_expecting(
            200,
            Method::PUT,
            "/api/profile/privacy",
            &PrivacySettings {
                geolocation_enabled: true,
            },
        )
        .await;
    assert!(opted_in.geolocation_enabled);

    let attacker = Browser::open(&app.address).await;
    // Warm-up, uncounted: the first requests pay for connections and caches.
    wrong_sign_in(&attacker, "warm-up@example.com").await;
    let (mut known, mut unknown) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        // Interleaved, so a noisy moment costs both kinds alike.
        known.push(wrong_sign_in(&attacker, ADMIN_EMAIL).await);
        unknown.push(wrong_sign_in(&attacker, &format!("nobody{round}@example.com")).await);
    }
    let (known, unknown) = (median(known), median(unknown));
    let ratio = known.as_secs_f64() / unknown.as_secs_f64();
    assert!(
        (0.7..=1.4).contains(&ratio),
        "median wrong password for a known email {known:?}, unknown email {unknown:?} (ratio {ratio:.2})"
    );

    // Answered early, yet every failed attempt is recorded, located.
    let history: Vec<SignInRecord> = owner.get("/api/profile/sign-ins").await;
    let failed: Vec<&SignInRecord> = history.iter().filter(|row| !row.success).collect();
    assert_eq!(failed.len(), ROUNDS, "{history:?}");
    assert!(failed
        .iter()
        .all(|row| row.location.as_deref() == Some("Springfield, United States")));
    // The owner's own sign-in came before opting in, so was not located.
    assert_eq!(lookups.load(Ordering::SeqCst), ROUNDS);
    // Newest first: the failures came after the owner's sign-in.
    assert!(!history[0].success);
    assert!(history.last().unwrap().success);
}
