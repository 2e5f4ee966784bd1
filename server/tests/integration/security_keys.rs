//! Security keys over HTTP: ceremony options, refusal of bad answers, each
//! ceremony answered once, keys confined to their owner, and the startup
//! report when WebAuthn settings do not fit the public URL. The full
//! ceremony with a (virtual) authenticator runs in the browser tests
//! (end2end/tests/security-keys.spec.ts). Requests and answers are the
//! contract's types; WebAuthn's own JSON inside them stays JSON, as the
//! contract passes it untouched.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::{
    SecondFactorCode, SecondFactorMethod, SignInAnswer, SignInMethod, SignInRecord,
};
use app::contract::security_keys::{
    KeyChallenge, KeyInfo, KeySignIn, KeySignInOptions, RegisterKey, RegistrationStarted,
    RemoveKey, WebAuthnJson,
};
use reqwest::Method;
use serde_json::json;
use support::browser::{read, second_factor, Browser, EmptyBody};
use support::{spawn_app, RunningBinary, TestApp};
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

async fn app() -> TestApp {
    spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await
}

#[tokio::test]
async fn registration_options_describe_tally_and_a_bad_answer_is_refused_once() {
    let app = app().await;
    let anonymous = Browser::open(&app.address).await;
    let (status, _) = anonymous
        .call::<_, RegistrationStarted>(
            Method::POST,
            "/api/auth/security-keys/options",
            &EmptyBody {},
        )
        .await
        .unwrap_err();
    assert_eq!(status, 401);

    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let started: RegistrationStarted = browser
        .call_expecting(
            200,
            Method::POST,
            "/api/auth/security-keys/options",
            &EmptyBody {},
        )
        .await;
    // WebAuthn's own options, which the contract passes on untouched.
    let options = &started.options.0["publicKey"];
    assert_eq!(options["rp"]["id"], "localhost");
    assert_eq!(options["rp"]["name"], "Tally");
    assert_eq!(options["user"]["name"], ADMIN_EMAIL);
    assert!(options["challenge"].as_str().unwrap().len() >= 43);
    let ceremony = started.ceremony;

    // A credential no authenticator made (WebAuthn's JSON, not Tally's).
    let forged = WebAuthnJson(json!({
        "id": "AAAA", "rawId": "AAAA", "type": "public-key",
        "response": { "attestationObject": "AAAA", "clientDataJSON": "AAAA" }
    }));
    let register = |ceremony: &str, name: &str| RegisterKey {
        ceremony: ceremony.to_owned(),
        name: name.to_owned(),
        credential: forged.clone(),
    };
    let (status, error) = browser
        .call::<_, KeyInfo>(
            Method::POST,
            "/api/auth/security-keys",
            &register(&ceremony, "Desk key"),
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "credential", "{error:?}");

    let (status, error) = browser
        .call::<_, KeyInfo>(
            Method::POST,
            "/api/auth/security-keys",
            &register(&ceremony, "Desk key"),
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert!(
        error
            .error
            .message
            .contains("expired or was already answered"),
        "{error:?}"
    );

    let (status, error) = browser
        .call::<_, KeyInfo>(Method::POST, "/api/auth/security-keys", &register("x", ""))
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "name", "{error:?}");

    let keys: Vec<KeyInfo> = browser.get("/api/auth/security-keys").await;
    assert_eq!(keys, []);
}

#[tokio::test]
async fn sign_in_asks_for_a_key_only_when_the_account_has_one() {
    let app = app().await;
    let mut browser = Browser::open(&app.address).await;
    let (status, _) = browser
        .call::<_, KeySignInOptions>(
            Method::POST,
            "/api/auth/login/security-key/options",
            &KeyChallenge {
                challenge: "not-a-challenge".into(),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);

    // A key row as registration would leave it (its public key does not
    // matter here: the answer below is refused before it is used).
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    sqlx::query("UPDATE users SET webauthn_enabled = 1")
        .execute(&pool)
        .await
        .unwrap();
    let step = second_factor(
        read(browser.login(ADMIN_EMAIL, ADMIN_PASSWORD).await)
            .await
            .unwrap(),
    );
    assert_eq!(
        step.second_factor,
        Some(SecondFactorMethod::SecurityKey),
        "{step:?}"
    );
    assert_eq!(step.methods, [SecondFactorMethod::SecurityKey]);
    let challenge = step.challenge;
    assert!(
        browser.session.is_none(),
        "no session before the second factor"
    );

    // Flag set but no usable key: no options, and no way around the key.
    let (status, _) = browser
        .call::<_, KeySignInOptions>(
            Method::POST,
            "/api/auth/login/security-key/options",
            &KeyChallenge {
                challenge: challenge.clone(),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    let (status, error) = browser
        .call::<_, SignInAnswer>(
            Method::POST,
            "/api/auth/login/security-key",
            &KeySignIn {
                challenge: challenge.clone(),
                credential: WebAuthnJson(json!({ "id": "AAAA" })),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{error:?}");
    let (status, _) = browser
        .call::<_, SignInAnswer>(
            Method::POST,
            "/api/auth/login/totp",
            &SecondFactorCode {
                challenge,
                code: "000000".into(),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400, "a key account has no TOTP to fall back on");

    // The history says how: the correct password, then the refused key's
    // answer (`security_key`); the code's step records nothing. Read by
    // the owner once the key is off again.
    sqlx::query("UPDATE users SET webauthn_enabled = 0")
        .execute(&pool)
        .await
        .unwrap();
    let owner = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let history: Vec<SignInRecord> = owner.get("/api/profile/sign-ins").await;
    let steps: Vec<(SignInMethod, bool)> = history
        .iter()
        .map(|row| (row.method, row.success))
        .collect();
    assert_eq!(
        steps,
        [
            (SignInMethod::Password, true),
            (SignInMethod::SecurityKey, false),
            (SignInMethod::Password, true),
        ],
        "{history:?}"
    );
    let wire = owner.json_raw("/api/profile/sign-ins").await;
    assert_eq!(wire[1]["method"], "security_key", "{wire}");
    assert_eq!(wire[0]["method"], "password", "{wire}");
}

#[tokio::test]
async fn a_user_cannot_remove_another_users_key() {
    let app = app().await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    let key_id: i64 = sqlx::query_scalar(
        "INSERT INTO webauthn_credentials (user_id, credential_id, name, passkey)
         VALUES (1, 'cred', 'Admin key', '{}') RETURNING id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    app::backend::auth::users::create(
        &pool,
        "bob@example.com",
        "Bob",
        secrecy::SecretString::from("bob's long passphrase 42"),
        app::backend::auth::users::Role::User,
    )
    .await
    .unwrap();
    let bob = Browser::signed_in(&app.address, "bob@example.com", "bob's long passphrase 42").await;
    let path = format!("/api/auth/security-keys/{key_id}");
    assert_eq!(bob.status(Method::DELETE, &path).await, 404);
    let removal = |password: &str| RemoveKey {
        current_password: Some(password.to_owned()),
    };
    let (status, _) = bob
        .call::<_, ()>(Method::DELETE, &path, &removal("bob's long passphrase 42"))
        .await
        .unwrap_err();
    assert_eq!(status, 404, "his own password opens nobody else's key");
    let bob_keys: Vec<KeyInfo> = bob.get("/api/auth/security-keys").await;
    assert_eq!(bob_keys, []);

    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let () = admin
        .call_expecting(204, Method::DELETE, &path, &removal(ADMIN_PASSWORD))
        .await;
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
