//! TOTP as a second factor: enrolment with a QR code, confirmation,
//! recovery codes shown once and stored hashed, the second sign-in step, and
//! the replay guard.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::{SecondFactorCode, SecondFactorMethod, SignInAnswer};
use app::contract::error::ErrorBody;
use app::contract::two_factor::{
    CurrentPassword, RecoveryCodes, TotpCode, TotpEnrolment, TotpStatus,
};
use reqwest::Method;
use serde::Serialize;
use support::browser::{read, second_factor, set_cookie_of, Browser, EmptyBody};
use support::spawn_app;
use support::totp::{authenticator, now};
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

async fn post<B: Serialize>(browser: &Browser, path: &str, body: &B) -> reqwest::Response {
    browser
        .request(Method::POST, path)
        .json(body)
        .send()
        .await
        .unwrap()
}

/// The second sign-in step's body.
fn step(challenge: &str, code: &str) -> SecondFactorCode {
    SecondFactorCode {
        challenge: challenge.to_owned(),
        code: code.to_owned(),
    }
}

/// Signs in with the password; the challenge of the second step it asks for.
async fn challenge_of(browser: &mut Browser) -> String {
    second_factor(
        read(browser.login(ADMIN_EMAIL, ADMIN_PASSWORD).await)
            .await
            .unwrap(),
    )
    .challenge
}

async fn start(browser: &Browser) -> TotpEnrolment {
    browser
        .call_expecting(200, Method::POST, "/api/auth/totp/setup", &EmptyBody {})
        .await
}

async fn totp_status(browser: &Browser) -> TotpStatus {
    browser.get("/api/auth/totp").await
}

async fn confirm(browser: &Browser, code: &str) -> Result<Option<RecoveryCodes>, (u16, ErrorBody)> {
    let request = TotpCode {
        code: code.to_owned(),
    };
    browser
        .call(Method::POST, "/api/auth/totp/confirm", &request)
        .await
}

#[tokio::test]
async fn totp_enrolment_second_step_replay_guard_and_recovery_codes() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;

    let enrolment = start(&browser).await;
    let secret = enrolment.secret;
    assert!(enrolment.otpauth_url.starts_with("otpauth://totp/Tally:"));
    assert!(enrolment.qr_svg.contains("<svg"));
    let totp = authenticator(&secret);

    // A wrong first code leaves TOTP off.
    let stale = totp.generate(now() - 3600);
    let (status, error) = confirm(&browser, &stale).await.unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "code");

    let first_code = totp.generate(now());
    let confirmed: RecoveryCodes = browser
        .call_expecting(
            200,
            Method::POST,
            "/api/auth/totp/confirm",
            &TotpCode {
                code: first_code.clone(),
            },
        )
        .await;
    let recovery = confirmed.recovery_codes;
    assert_eq!(recovery.len(), 10);

    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
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
        .bind(ADMIN_EMAIL)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(
        sealed.starts_with("e1:") && !sealed.contains(&secret),
        "the secret is sealed at rest"
    );

    // The password alone no longer signs in.
    let mut phone = Browser::open(&app.address).await;
    let first = phone.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(first.status(), 200);
    assert!(set_cookie_of(&first, "tally_session").is_none());
    let asked = second_factor(read(first).await.unwrap());
    assert_eq!(asked.second_factor, Some(SecondFactorMethod::Totp));
    let challenge = asked.challenge;
    assert_eq!(phone.status(Method::GET, "/api/auth/me").await, 401);

    // The code used to confirm is spent: its time step is accepted once.
    let replay = post(
        &phone,
        "/api/auth/login/totp",
        &step(&challenge, &first_code),
    )
    .await;
    assert_eq!(replay.status(), 400, "a replayed code fails");

    let next = totp.generate(now() + 30);
    let second = post(&phone, "/api/auth/login/totp", &step(&challenge, &next)).await;
    assert_eq!(second.status(), 200);
    assert!(set_cookie_of(&second, "tally_session").is_some());
    phone.keep_cookies(&second);
    let answer: SignInAnswer = read(second).await.unwrap();
    assert!(matches!(answer, SignInAnswer::SignedIn(_)), "{answer:?}");
    assert_eq!(phone.status(Method::GET, "/api/auth/me").await, 200);

    // The same code again, on a new challenge: refused.
    let mut tablet = Browser::open(&app.address).await;
    let challenge = challenge_of(&mut tablet).await;
    let again = post(&tablet, "/api/auth/login/totp", &step(&challenge, &next)).await;
    assert_eq!(again.status(), 400);

    // A recovery code works once.
    let with_recovery = post(
        &tablet,
        "/api/auth/login/totp",
        &step(&challenge, &recovery[0]),
    )
    .await;
    assert_eq!(with_recovery.status(), 200);
    let mut laptop = Browser::open(&app.address).await;
    let challenge = challenge_of(&mut laptop).await;
    let reused = post(
        &laptop,
        "/api/auth/login/totp",
        &step(&challenge, &recovery[0]),
    )
    .await;
    assert_eq!(reused.status(), 400);
    let made_up = post(
        &laptop,
        "/api/auth/login/totp",
        &step("not-a-challenge", &recovery[1]),
    )
    .await;
    assert_eq!(made_up.status(), 401);
}

#[tokio::test]
async fn totp_status_and_turning_it_off_with_the_password() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let off = TotpStatus {
        enabled: false,
        recovery_codes_left: 0,
    };
    assert_eq!(totp_status(&browser).await, off);
    let totp = authenticator(&start(&browser).await.secret);
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
    assert_eq!(
        totp_status(&browser).await,
        TotpStatus {
            enabled: true,
            recovery_codes_left: 10
        }
    );

    let disable = |password: &str| CurrentPassword {
        current_password: password.to_owned(),
    };
    let (wrong, _) = browser
        .call::<_, ()>(
            Method::POST,
            "/api/auth/totp/disable",
            &disable("not my password at all"),
        )
        .await
        .unwrap_err();
    assert_eq!(wrong, 400);
    assert!(totp_status(&browser).await.enabled);

    let () = browser
        .call_expecting(
            204,
            Method::POST,
            "/api/auth/totp/disable",
            &disable(ADMIN_PASSWORD),
        )
        .await;
    assert_eq!(totp_status(&browser).await, off);
    let mut again = Browser::open(&app.address).await;
    let answer: SignInAnswer = read(again.login(ADMIN_EMAIL, ADMIN_PASSWORD).await)
        .await
        .unwrap();
    assert!(
        matches!(answer, SignInAnswer::SignedIn(_)),
        "the password alone signs in again: {answer:?}"
    );
}
