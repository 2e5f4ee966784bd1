//! Security keys over HTTP: ceremony options, refusal of bad answers, each
//! ceremony answered once, keys confined to their owner, and the startup
//! report when WebAuthn settings do not fit the public URL. The full
//! ceremony with a (virtual) authenticator runs in the browser tests
//! (end2end/tests/security-keys.spec.ts).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use reqwest::Method;
use serde_json::{json, Value};
use support::browser::Browser;
use support::{spawn_app, RunningBinary, TestApp};

const ADMIN: &str = "admin@example.com";
const ADMIN_PASSWORD: &str = "correct horse battery staple";

async fn app() -> TestApp {
    spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await
}

#[tokio::test]
async fn registration_options_describe_tally_and_a_bad_answer_is_refused_once() {
    let app = app().await;
    let anonymous = Browser::open(&app.address).await;
    let (status, _) = anonymous
        .send(Method::POST, "/api/auth/security-keys/options", json!({}))
        .await;
    assert_eq!(status, 401);

    let browser = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    let (status, body) = browser
        .send(Method::POST, "/api/auth/security-keys/options", json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let options = &body["options"]["publicKey"];
    assert_eq!(options["rp"]["id"], "localhost");
    assert_eq!(options["rp"]["name"], "Tally");
    assert_eq!(options["user"]["name"], ADMIN);
    assert!(options["challenge"].as_str().unwrap().len() >= 43);
    let ceremony = body["ceremony"].as_str().unwrap().to_owned();

    let forged = json!({
        "id": "AAAA", "rawId": "AAAA", "type": "public-key",
        "response": { "attestationObject": "AAAA", "clientDataJSON": "AAAA" }
    });
    let (status, body) = browser
        .send(
            Method::POST,
            "/api/auth/security-keys",
            json!({ "ceremony": ceremony, "name": "Desk key", "credential": forged }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"], "credential",
        "{body}"
    );

    let (status, body) = browser
        .send(
            Method::POST,
            "/api/auth/security-keys",
            json!({ "ceremony": ceremony, "name": "Desk key", "credential": forged }),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        body.to_string().contains("expired or was already answered"),
        "{body}"
    );

    let (status, body) = browser
        .send(
            Method::POST,
            "/api/auth/security-keys",
            json!({ "ceremony": "x", "name": "", "credential": forged }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"], "name",
        "{body}"
    );

    let keys: Value = browser.json("/api/auth/security-keys").await;
    assert_eq!(keys, json!([]));
}

#[tokio::test]
async fn sign_in_asks_for_a_key_only_when_the_account_has_one() {
    let app = app().await;
    let mut browser = Browser::open(&app.address).await;
    let (status, _) = browser
        .send(
            Method::POST,
            "/api/auth/login/security-key/options",
            json!({ "challenge": "not-a-challenge" }),
        )
        .await;
    assert_eq!(status, 400);

    // A key row as registration would leave it (its public key does not
    // matter here: the answer below is refused before it is used).
    let pool = app::ssr::db::connect(&app.database_path()).await.unwrap();
    sqlx::query("UPDATE users SET webauthn_enabled = 1")
        .execute(&pool)
        .await
        .unwrap();
    let step: Value = browser
        .login(ADMIN, ADMIN_PASSWORD)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(step["secondFactor"], "securityKey", "{step}");
    assert_eq!(step["methods"], json!(["securityKey"]));
    let challenge = step["challenge"].as_str().unwrap().to_owned();
    assert!(
        browser.session.is_none(),
        "no session before the second factor"
    );

    // Flag set but no usable key: no options, and no way around the key.
    let (status, _) = browser
        .send(
            Method::POST,
            "/api/auth/login/security-key/options",
            json!({ "challenge": challenge }),
        )
        .await;
    assert_eq!(status, 400);
    let (status, body) = browser
        .send(
            Method::POST,
            "/api/auth/login/security-key",
            json!({ "challenge": challenge, "credential": { "id": "AAAA" } }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = browser
        .send(
            Method::POST,
            "/api/auth/login/totp",
            json!({ "challenge": challenge, "code": "000000" }),
        )
        .await;
    assert_eq!(status, 400, "a key account has no TOTP to fall back on");
}

#[tokio::test]
async fn a_user_cannot_remove_another_users_key() {
    let app = app().await;
    let pool = app::ssr::db::connect(&app.database_path()).await.unwrap();
    let key_id: i64 = sqlx::query_scalar(
        "INSERT INTO webauthn_credentials (user_id, credential_id, name, passkey)
         VALUES (1, 'cred', 'Admin key', '{}') RETURNING id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    app::ssr::auth::users::create(
        &pool,
        "bob@example.com",
        "Bob",
        secrecy::SecretString::from("bob's long passphrase 42"),
        app::ssr::auth::users::Role::User,
    )
    .await
    .unwrap();
    let bob = Browser::signed_in(&app.address, "bob@example.com", "bob's long passphrase 42").await;
    let path = format!("/api/auth/security-keys/{key_id}");
    assert_eq!(bob.status(Method::DELETE, &path).await, 404);
    let (status, _) = bob
        .send(
            Method::DELETE,
            &path,
            json!({ "currentPassword": "bob's long passphrase 42" }),
        )
        .await;
    assert_eq!(status, 404, "his own password opens nobody else's key");
    let bob_keys: Value = bob.json("/api/auth/security-keys").await;
    assert_eq!(bob_keys, json!([]));

    let admin = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    let (status, _) = admin
        .send(
            Method::DELETE,
            &path,
            json!({ "currentPassword": ADMIN_PASSWORD }),
        )
        .await;
    assert_eq!(status, 204);
    let enabled: bool = sqlx::query_scalar("SELECT webauthn_enabled = 1 FROM users WHERE id = 1")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(!enabled, "no keys left: sign-in stops asking for one");
}

#[test]
fn startup_reports_webauthn_settings_that_do_not_fit_the_public_url() {
    let mut tally = RunningBinary::start(&[("PUBLIC_BASE_URL", "https://tally.example.com")]);
    let line = tally.wait_for_line("security keys will not work");
    assert!(line.contains("WEBAUTHN_ORIGIN"), "{line}");
    tally.signal("TERM");
    assert_eq!(tally.wait_exit(), Some(0));

    let mut fitted = RunningBinary::start(&[
        ("PUBLIC_BASE_URL", "https://tally.example.com"),
        ("WEBAUTHN_ORIGIN", "https://tally.example.com"),
        ("WEBAUTHN_RP_ID", "tally.example.com"),
    ]);
    fitted.signal("TERM");
    assert_eq!(fitted.wait_exit(), Some(0));
    let output = fitted.output();
    assert!(!output.contains("security keys will not work"), "{output}");
}
