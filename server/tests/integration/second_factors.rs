//! A second factor counts only when it is on and was offered for this
//! sign-in: a TOTP secret from a setup that was never confirmed (abandoned,
//! or started by someone who borrowed a session) opens nothing, and removing
//! a security key takes the password (issue 13, findings 3 and 8).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::backend::auth::pending_sign_in::{self, SecondFactorMethod};
use app::contract::account::{Me, SecondFactorCode, SignInAnswer};
use app::contract::error::ErrorBody;
use app::contract::security_keys::{KeyInfo, RemoveKey};
use app::contract::two_factor::{RecoveryCodes, TotpCode, TotpEnrolment, TotpStatus};
use reqwest::Method;
use support::browser::{read, second_factor, Browser, EmptyBody};
use support::totp::{authenticator, now};
use support::{spawn_app, TestApp};
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};
use totp_rs::TOTP;

async fn app() -> TestApp {
    spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await
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

/// The field named by an error's first violation.
fn field_of(error: &ErrorBody) -> String {
    error.field_violations()[0].field.clone()
}

async fn start_totp(browser: &Browser) -> TOTP {
    let enrolment: TotpEnrolment = browser
        .call_expecting(200, Method::POST, "/api/auth/totp/setup", &EmptyBody {})
        .await;
    authenticator(&enrolment.secret)
}

/// A second sign-in step with a TOTP (or recovery) code.
async fn answer_totp(
    browser: &Browser,
    challenge: &str,
    code: String,
) -> Result<Option<SignInAnswer>, (u16, ErrorBody)> {
    let request = SecondFactorCode {
        challenge: challenge.to_owned(),
        code,
    };
    browser
        .call(Method::POST, "/api/auth/login/totp", &request)
        .await
}

fn removal(password: &str) -> RemoveKey {
    RemoveKey {
        current_password: Some(password.to_owned()),
    }
}

#[tokio::test]
async fn a_totp_setup_that_was_never_confirmed_is_no_way_past_a_security_key() {
    let app = app().await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    // Someone with the session (the owner who gave up, or whoever borrowed
    // it) starts TOTP setup and never confirms it.
    let session = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let totp = start_totp(&session).await;
    assert_eq!(
        session.get::<TotpStatus>("/api/auth/totp").await,
        TotpStatus {
            enabled: false,
            recovery_codes_left: 0
        },
        "an unconfirmed secret does not count as on"
    );

    // Without any other factor the password alone still signs in: the
    // unconfirmed secret is not asked for.
    let mut plain = Browser::open(&app.address).await;
    let answer: SignInAnswer = read(plain.login(ADMIN_EMAIL, ADMIN_PASSWORD).await)
        .await
        .unwrap();
    assert!(
        matches!(&answer, SignInAnswer::SignedIn(Me { user }) if user.email == ADMIN_EMAIL),
        "{answer:?}"
    );

    // The account is protected by a security key only.
    add_key(&pool, 1, "Desk key").await;
    let mut attacker = Browser::open(&app.address).await;
    let step = second_factor(
        read(attacker.login(ADMIN_EMAIL, ADMIN_PASSWORD).await)
            .await
            .unwrap(),
    );
    assert_eq!(step.methods, [SecondFactorMethod::SecurityKey], "{step:?}");
    let challenge = step.challenge;
    for at in [now(), now() + 30] {
        let (status, error) = answer_totp(&attacker, &challenge, totp.generate(at))
            .await
            .unwrap_err();
        assert_eq!(status, 400, "a code from the unconfirmed secret: {error:?}");
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
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
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
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let totp = start_totp(&browser).await;
    let _: RecoveryCodes = browser
        .call_expecting(
            200,
            Method::POST,
            "/api/auth/totp/confirm",
            &TotpCode {
                code: totp.generate(now()),
            },
        )
        .await;
    let mut phone = Browser::open(&app.address).await;
    let step = second_factor(
        read(phone.login(ADMIN_EMAIL, ADMIN_PASSWORD).await)
            .await
            .unwrap(),
    );
    assert_eq!(step.methods, [SecondFactorMethod::Totp], "{step:?}");
    sqlx::query("UPDATE users SET totp_enabled = 0 WHERE id = 1")
        .execute(&pool)
        .await
        .unwrap();
    let (status, error) = answer_totp(&phone, &step.challenge, totp.generate(now() + 30))
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{error:?}");
}

#[tokio::test]
async fn removing_a_security_key_takes_the_current_password() {
    let app = app().await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let key = add_key(&pool, 1, "Desk key").await;
    let path = format!("/api/auth/security-keys/{key}");

    // No body at all.
    let missing = browser.request(Method::DELETE, &path).send().await.unwrap();
    let (status, error) = read::<()>(missing).await.unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(field_of(&error), "currentPassword", "{error:?}");

    for sent in [RemoveKey::default(), removal("")] {
        let (status, error) = browser
            .call::<_, ()>(Method::DELETE, &path, &sent)
            .await
            .unwrap_err();
        assert_eq!(status, 400);
        assert_eq!(field_of(&error), "currentPassword", "{error:?}");
    }
    let (status, error) = browser
        .call::<_, ()>(Method::DELETE, &path, &removal("not my password at all"))
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(field_of(&error), "currentPassword", "{error:?}");
    let keys: Vec<KeyInfo> = browser.get("/api/auth/security-keys").await;
    assert_eq!(keys[0].id, key);

    let () = browser
        .call_expecting(204, Method::DELETE, &path, &removal(ADMIN_PASSWORD))
        .await;
    let keys: Vec<KeyInfo> = browser.get("/api/auth/security-keys").await;
    assert_eq!(keys, []);
    let (status, _) = browser
        .call::<_, ()>(Method::DELETE, &path, &removal(ADMIN_PASSWORD))
        .await
        .unwrap_err();
    assert_eq!(status, 404, "gone");
}
