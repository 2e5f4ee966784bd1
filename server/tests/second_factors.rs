//! A second factor counts only when it is on and was offered for this
//! sign-in: a TOTP secret from a setup that was never confirmed (abandoned,
//! or started by someone who borrowed a session) opens nothing, and removing
//! a security key takes the password (issue 13, findings 3 and 8).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use app::ssr::auth::pending_sign_in::{self, SecondFactorMethod};
use reqwest::Method;
use serde_json::{json, Value};
use support::browser::Browser;
use support::{spawn_app, TestApp};
use totp_rs::{Algorithm, Secret, TOTP};

const ADMIN: &str = "admin@example.com";
const PASSWORD: &str = "correct horse battery staple";

async fn app() -> TestApp {
    spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN),
        ("BOOTSTRAP_ADMIN_PASSWORD", PASSWORD),
    ])
    .await
}

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

/// A key row as registration leaves it (its public key does not matter:
/// nothing here answers a key ceremony).
async fn add_key(pool: &sqlx::SqlitePool, user_id: i64, name: &str) -> i64 {
    let id = sqlx::query_scalar(
        "INSERT INTO webauthn_credentials (user_id, credential_id, name, passkey)
         VALUES (?, ?, ?, '{}') RETURNING id",
    )
    .bind(user_id)
    .bind(format!("cred-{name}"))
    .bind(name)
    .fetch_one(pool)
    .await
    .unwrap();
    sqlx::query("UPDATE users SET webauthn_enabled = 1 WHERE id = ?")
        .bind(user_id)
        .execute(pool)
        .await
        .unwrap();
    id
}

fn field_of(body: &Value) -> &Value {
    &body["error"]["details"][0]["fieldViolations"][0]["field"]
}

#[tokio::test]
async fn a_totp_setup_that_was_never_confirmed_is_no_way_past_a_security_key() {
    let app = app().await;
    let pool = app::ssr::db::connect(&app.database_path()).await.unwrap();
    // Someone with the session (the owner who gave up, or whoever borrowed
    // it) starts TOTP setup and never confirms it.
    let session = Browser::signed_in(&app.address, ADMIN, PASSWORD).await;
    let (status, enrolment) = session
        .send(Method::POST, "/api/auth/totp/setup", json!({}))
        .await;
    assert_eq!(status, 200, "{enrolment}");
    let totp = authenticator(enrolment["secret"].as_str().unwrap());
    assert_eq!(
        session.json("/api/auth/totp").await,
        json!({ "enabled": false, "recoveryCodesLeft": 0 }),
        "an unconfirmed secret does not count as on"
    );

    // Without any other factor the password alone still signs in: the
    // unconfirmed secret is not asked for.
    let mut plain = Browser::open(&app.address).await;
    let answer: Value = plain.login(ADMIN, PASSWORD).await.json().await.unwrap();
    assert_eq!(answer["user"]["email"], ADMIN, "{answer}");

    // The account is protected by a security key only.
    add_key(&pool, 1, "Desk key").await;
    let mut attacker = Browser::open(&app.address).await;
    let step: Value = attacker.login(ADMIN, PASSWORD).await.json().await.unwrap();
    assert_eq!(step["methods"], json!(["securityKey"]), "{step}");
    let challenge = step["challenge"].as_str().unwrap().to_owned();
    for at in [now(), now() + 30] {
        let (status, body) = attacker
            .send(
                Method::POST,
                "/api/auth/login/totp",
                json!({ "challenge": challenge, "code": totp.generate(at) }),
            )
            .await;
        assert_eq!(status, 400, "a code from the unconfirmed secret: {body}");
        assert!(attacker.session.is_none());
    }
    assert_eq!(attacker.status(Method::GET, "/api/auth/me").await, 401);
    // Nothing was spent: the challenge still waits for the key.
    assert_eq!(
        pending_sign_in::user(&pool, &challenge).await.unwrap(),
        Some(1)
    );
}

#[tokio::test]
async fn a_challenge_answers_only_to_the_methods_it_offered() {
    let app = app().await;
    let pool = app::ssr::db::connect(&app.database_path()).await.unwrap();
    let totp_only = pending_sign_in::begin(&pool, 1, &[SecondFactorMethod::Totp])
        .await
        .unwrap();
    let both = pending_sign_in::begin(
        &pool,
        1,
        &[SecondFactorMethod::Totp, SecondFactorMethod::SecurityKey],
    )
    .await
    .unwrap();
    let offered = |challenge: String, method| {
        let pool = pool.clone();
        async move {
            pending_sign_in::user_offered(&pool, &challenge, method)
                .await
                .unwrap()
        }
    };
    assert_eq!(
        offered(totp_only.clone(), SecondFactorMethod::Totp).await,
        Some(1)
    );
    assert_eq!(
        offered(totp_only.clone(), SecondFactorMethod::SecurityKey).await,
        None
    );
    assert_eq!(
        offered(both.clone(), SecondFactorMethod::Totp).await,
        Some(1)
    );
    assert_eq!(
        offered(both, SecondFactorMethod::SecurityKey).await,
        Some(1)
    );
    assert!(
        pending_sign_in::begin(&pool, 1, &[]).await.is_err(),
        "no second step without a factor to offer"
    );

    // TOTP turned off after the challenge was made: its codes stop counting.
    let browser = Browser::signed_in(&app.address, ADMIN, PASSWORD).await;
    let (_, enrolment) = browser
        .send(Method::POST, "/api/auth/totp/setup", json!({}))
        .await;
    let totp = authenticator(enrolment["secret"].as_str().unwrap());
    let (status, _) = browser
        .send(
            Method::POST,
            "/api/auth/totp/confirm",
            json!({ "code": totp.generate(now()) }),
        )
        .await;
    assert_eq!(status, 200);
    let mut phone = Browser::open(&app.address).await;
    let step: Value = phone.login(ADMIN, PASSWORD).await.json().await.unwrap();
    assert_eq!(step["methods"], json!(["totp"]), "{step}");
    sqlx::query("UPDATE users SET totp_enabled = 0 WHERE id = 1")
        .execute(&pool)
        .await
        .unwrap();
    let (status, body) = phone
        .send(
            Method::POST,
            "/api/auth/login/totp",
            json!({ "challenge": step["challenge"], "code": totp.generate(now() + 30) }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn removing_a_security_key_takes_the_current_password() {
    let app = app().await;
    let pool = app::ssr::db::connect(&app.database_path()).await.unwrap();
    let browser = Browser::signed_in(&app.address, ADMIN, PASSWORD).await;
    let key = add_key(&pool, 1, "Desk key").await;
    let path = format!("/api/auth/security-keys/{key}");

    let missing = browser.request(Method::DELETE, &path).send().await.unwrap();
    assert_eq!(missing.status(), 400);
    let body: Value = missing.json().await.unwrap();
    assert_eq!(field_of(&body), "currentPassword", "{body}");

    for sent in [json!({}), json!({ "currentPassword": "" })] {
        let (status, body) = browser.send(Method::DELETE, &path, sent).await;
        assert_eq!(status, 400);
        assert_eq!(field_of(&body), "currentPassword", "{body}");
    }
    let (status, body) = browser
        .send(
            Method::DELETE,
            &path,
            json!({ "currentPassword": "not my password at all" }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(field_of(&body), "currentPassword", "{body}");
    assert_eq!(browser.json("/api/auth/security-keys").await[0]["id"], key);

    let (status, body) = browser
        .send(
            Method::DELETE,
            &path,
            json!({ "currentPassword": PASSWORD }),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(browser.json("/api/auth/security-keys").await, json!([]));
    let (status, _) = browser
        .send(
            Method::DELETE,
            &path,
            json!({ "currentPassword": PASSWORD }),
        )
        .await;
    assert_eq!(status, 404, "gone");
}
