//! TOTP as a second factor: enrolment with a QR code, confirmation,
//! recovery codes shown once and stored hashed, the second sign-in step, and
//! the replay guard.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use reqwest::Method;
use serde_json::{json, Value};
use support::browser::{set_cookie_of, Browser};
use support::spawn_app;
use totp_rs::{Algorithm, Secret, TOTP};

const ADMIN: &str = "admin@example.com";
const PASSWORD: &str = "correct horse battery staple";

fn authenticator(secret: &str) -> TOTP {
    let bytes = Secret::Encoded(secret.to_owned()).to_bytes().unwrap();
    TOTP::new(
        Algorithm::SHA1,
        6,
        1,
        30,
        bytes,
        Some("Tally".into()),
        ADMIN.into(),
    )
    .unwrap()
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

async fn post(browser: &Browser, path: &str, body: Value) -> reqwest::Response {
    browser
        .request(Method::POST, path)
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn totp_enrolment_second_step_replay_guard_and_recovery_codes() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN),
        ("BOOTSTRAP_ADMIN_PASSWORD", PASSWORD),
    ])
    .await;
    let browser = Browser::signed_in(&app.address, ADMIN, PASSWORD).await;

    let enrolment: Value = post(&browser, "/api/auth/totp/setup", json!({}))
        .await
        .json()
        .await
        .unwrap();
    let secret = enrolment["secret"].as_str().unwrap().to_owned();
    assert!(enrolment["otpauthUrl"]
        .as_str()
        .unwrap()
        .starts_with("otpauth://totp/Tally:"));
    assert!(enrolment["qrSvg"].as_str().unwrap().contains("<svg"));
    let totp = authenticator(&secret);

    // A wrong first code leaves TOTP off.
    let stale = totp.generate(now() - 3600);
    let wrong = post(&browser, "/api/auth/totp/confirm", json!({ "code": stale })).await;
    assert_eq!(wrong.status(), 400);
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"],
        "code"
    );

    let first_code = totp.generate(now());
    let confirmed = post(
        &browser,
        "/api/auth/totp/confirm",
        json!({ "code": first_code }),
    )
    .await;
    assert_eq!(confirmed.status(), 200);
    let body: Value = confirmed.json().await.unwrap();
    let recovery: Vec<String> = body["recoveryCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(recovery.len(), 10);

    let pool = app::ssr::db::connect(&app.database_path()).await.unwrap();
    let stored: Vec<String> = sqlx::query_scalar("SELECT code_hash FROM recovery_codes")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(stored.len(), 10);
    assert!(
        stored
            .iter()
            .all(|hash| hash.len() == 64 && !recovery.contains(hash)),
        "stored hashed"
    );
    let sealed: String = sqlx::query_scalar("SELECT totp_secret FROM users WHERE email = ?")
        .bind(ADMIN)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(
        sealed.starts_with("e1:") && !sealed.contains(&secret),
        "the secret is sealed at rest"
    );

    // The password alone no longer signs in.
    let mut phone = Browser::open(&app.address).await;
    let first = phone.login(ADMIN, PASSWORD).await;
    assert_eq!(first.status(), 200);
    assert!(set_cookie_of(&first, "tally_session").is_none());
    let body: Value = first.json().await.unwrap();
    assert_eq!(body["secondFactor"], "totp");
    let challenge = body["challenge"].as_str().unwrap().to_owned();
    assert_eq!(phone.status(Method::GET, "/api/auth/me").await, 401);

    // The code used to confirm is spent: its time step is accepted once.
    let replay = post(
        &phone,
        "/api/auth/login/totp",
        json!({ "challenge": challenge, "code": first_code }),
    )
    .await;
    assert_eq!(replay.status(), 400, "a replayed code fails");

    let next = totp.generate(now() + 30);
    let second = post(
        &phone,
        "/api/auth/login/totp",
        json!({ "challenge": challenge, "code": next }),
    )
    .await;
    assert_eq!(second.status(), 200);
    phone.session = Some(
        set_cookie_of(&second, "tally_session")
            .unwrap()
            .trim_start_matches("tally_session=")
            .split(';')
            .next()
            .unwrap()
            .to_owned(),
    );
    assert_eq!(phone.status(Method::GET, "/api/auth/me").await, 200);

    // The same code again, on a new challenge: refused.
    let mut tablet = Browser::open(&app.address).await;
    let body: Value = tablet.login(ADMIN, PASSWORD).await.json().await.unwrap();
    let challenge = body["challenge"].as_str().unwrap().to_owned();
    let again = post(
        &tablet,
        "/api/auth/login/totp",
        json!({ "challenge": challenge, "code": next }),
    )
    .await;
    assert_eq!(again.status(), 400);

    // A recovery code works once.
    let with_recovery = post(
        &tablet,
        "/api/auth/login/totp",
        json!({ "challenge": challenge, "code": recovery[0] }),
    )
    .await;
    assert_eq!(with_recovery.status(), 200);
    let mut laptop = Browser::open(&app.address).await;
    let body: Value = laptop.login(ADMIN, PASSWORD).await.json().await.unwrap();
    let challenge = body["challenge"].as_str().unwrap().to_owned();
    let reused = post(
        &laptop,
        "/api/auth/login/totp",
        json!({ "challenge": challenge, "code": recovery[0] }),
    )
    .await;
    assert_eq!(reused.status(), 400);
    let made_up = post(
        &laptop,
        "/api/auth/login/totp",
        json!({ "challenge": "not-a-challenge", "code": recovery[1] }),
    )
    .await;
    assert_eq!(made_up.status(), 401);
}

#[tokio::test]
async fn totp_status_and_turning_it_off_with_the_password() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN),
        ("BOOTSTRAP_ADMIN_PASSWORD", PASSWORD),
    ])
    .await;
    let browser = Browser::signed_in(&app.address, ADMIN, PASSWORD).await;
    let status = |browser: &Browser| {
        let request = browser.request(Method::GET, "/api/auth/totp");
        async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    assert_eq!(
        status(&browser).await,
        json!({ "enabled": false, "recoveryCodesLeft": 0 })
    );
    let enrolment: Value = post(&browser, "/api/auth/totp/setup", json!({}))
        .await
        .json()
        .await
        .unwrap();
    let totp = authenticator(enrolment["secret"].as_str().unwrap());
    let confirmed = post(
        &browser,
        "/api/auth/totp/confirm",
        json!({ "code": totp.generate(now()) }),
    )
    .await;
    assert_eq!(confirmed.status(), 200);
    assert_eq!(
        status(&browser).await,
        json!({ "enabled": true, "recoveryCodesLeft": 10 })
    );

    let wrong = post(
        &browser,
        "/api/auth/totp/disable",
        json!({ "currentPassword": "not my password at all" }),
    )
    .await;
    assert_eq!(wrong.status(), 400);
    assert_eq!(status(&browser).await["enabled"], true);

    let off = post(
        &browser,
        "/api/auth/totp/disable",
        json!({ "currentPassword": PASSWORD }),
    )
    .await;
    assert_eq!(off.status(), 204);
    assert_eq!(
        status(&browser).await,
        json!({ "enabled": false, "recoveryCodesLeft": 0 })
    );
    let mut again = Browser::open(&app.address).await;
    let answer: Value = again.login(ADMIN, PASSWORD).await.json().await.unwrap();
    assert!(
        answer.get("user").is_some(),
        "the password alone signs in again: {answer}"
    );
}
