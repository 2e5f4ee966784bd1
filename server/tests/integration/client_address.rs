//! Behind a trusted proxy, every limit and record keys on the client the
//! proxy names in `X-Forwarded-For`, not on the proxy: one client's wrong
//! passwords lock out that client only, and the sign-in history shows who
//! signed in. IPv6 clients count by their /64; emails longer than any
//! account's are refused before they are counted.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::{Me, Register, SignIn, SignInAnswer, SignInRecord};
use app::contract::two_factor::ChangePassword;
use app::domain::contact::LeadForm;
use reqwest::{Method, Response};
use serde::Serialize;
use support::browser::{read, set_cookie_of, Browser};
use support::{spawn_app, TestApp};
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

const CLIENT_A: &str = "198.51.100.7";
const CLIENT_B: &str = "203.0.113.9";

async fn behind_proxy(extra: &[(&str, &str)]) -> TestApp {
    let mut settings = vec![
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("TRUSTED_PROXIES", "127.0.0.1"),
    ];
    settings.extend_from_slice(extra);
    spawn_app(&settings).await
}

/// `POST /api/auth/login` as the proxy forwards it for `client`; keeps the
/// session it starts (and its CSRF token).
async fn login_from(browser: &mut Browser, client: &str, email: &str, password: &str) -> Response {
    let response = browser
        .request(Method::POST, "/api/auth/login")
        .header("x-forwarded-for", client)
        .json(&SignIn {
            email: email.to_owned(),
            password: password.to_owned(),
        })
        .send()
        .await
        .unwrap();
    browser.keep_cookies(&response);
    response
}

async fn send_from<B: Serialize>(
    browser: &Browser,
    client: &str,
    method: Method,
    path: &str,
    body: &B,
) -> u16 {
    browser
        .request(method, path)
        .header("x-forwarded-for", client)
        .json(body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn one_clients_wrong_passwords_lock_out_that_client_only_and_history_names_the_client() {
    let app = behind_proxy(&[]).await;
    let mut attacker = Browser::open(&app.address).await;
    // One wrong password for the admin (the account keeps room for more),
    // then unknown emails until this client's per-address limit is spent.
    assert_eq!(
        login_from(&mut attacker, CLIENT_A, ADMIN_EMAIL, "not the password")
            .await
            .status(),
        401
    );
    let mut allowed = 1;
    loop {
        let email = format!("nobody{allowed}@example.com");
        let status = login_from(&mut attacker, CLIENT_A, &email, "guess")
            .await
            .status();
        if status == 429 {
            break;
        }
        assert_eq!(status, 401);
        allowed += 1;
        assert!(allowed < 40, "client A is never throttled");
    }
    // Ten a minute, plus any that trickled back while the test ran.
    assert!(allowed >= 10, "throttled after {allowed}");

    let mut owner = Browser::open(&app.address).await;
    let signed_in = login_from(&mut owner, CLIENT_B, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(signed_in.status(), 200, "another client is not locked out");

    let history: Vec<SignInRecord> = owner.get("/api/profile/sign-ins").await;
    assert_eq!(history.len(), 2, "{history:?}");
    assert!(history[0].success);
    assert_eq!(
        history[0].ip.as_deref(),
        Some(CLIENT_B),
        "not the proxy's 127.0.0.1"
    );
    assert!(!history[1].success);
    assert_eq!(history[1].ip.as_deref(), Some(CLIENT_A));
}

#[tokio::test]
async fn password_checks_and_registration_count_per_forwarded_client() {
    // The account's own limit out of the way: this is about addresses.
    let app = behind_proxy(&[("SIGN_IN_ACCOUNT_BURST", "100")]).await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let wrong = ChangePassword {
        current_password: "not it".into(),
        new_password: "a brand new passphrase".into(),
    };
    let mut checked = 0;
    loop {
        let path = "/api/auth/password";
        let status = send_from(&browser, CLIENT_A, Method::POST, path, &wrong).await;
        if status == 429 {
            break;
        }
        assert_eq!(status, 400);
        checked += 1;
        assert!(checked < 40, "client A is never throttled");
    }
    assert!(checked >= 10, "throttled after {checked}");
    assert_eq!(
        send_from(
            &browser,
            CLIENT_B,
            Method::POST,
            "/api/auth/password",
            &wrong
        )
        .await,
        400,
        "the same session from another client is checked, not throttled"
    );

    // Registration (closed here, so every attempt is refused, but counted).
    let anonymous = Browser::open(&app.address).await;
    let register = |n: usize| Register {
        invitation: None,
        email: format!("new{n}@example.com"),
        name: String::new(),
        password: "a long enough passphrase".into(),
        time_zone: None,
    };
    let mut tried = 0;
    loop {
        let path = "/api/auth/register";
        let status = send_from(
            &anonymous,
            "192.0.2.44",
            Method::POST,
            path,
            &register(tried),
        )
        .await;
        if status == 429 {
            break;
        }
        tried += 1;
        assert!(tried < 40, "the client is never throttled");
    }
    assert!(tried >= 10, "throttled after {tried}");
    let other = send_from(
        &anonymous,
        "192.0.2.45",
        Method::POST,
        "/api/auth/register",
        &register(99),
    )
    .await;
    assert_ne!(other, 429, "another client registers unthrottled");
}

#[tokio::test]
async fn an_email_longer_than_any_account_is_refused_naming_the_field_and_not_counted() {
    let app = behind_proxy(&[]).await;
    let long = format!("{}@example.com", "a".repeat(300));
    let mut browser = Browser::open(&app.address).await;
    for _ in 0..15 {
        let response = login_from(&mut browser, CLIENT_A, &long, "guess").await;
        let (status, error) = read::<SignInAnswer>(response).await.unwrap_err();
        assert_eq!(status, 400);
        assert!(error.error.message.contains("email"), "{error:?}");
    }
    let response = browser
        .register(&Register {
            invitation: None,
            email: long,
            name: String::new(),
            password: "a long enough passphrase".into(),
            time_zone: None,
        })
        .await;
    let (status, error) = read::<Me>(response).await.unwrap_err();
    assert_eq!(status, 400);
    assert!(error.error.message.contains("email"), "{error:?}");
    // None of those counted against the client.
    assert_eq!(
        login_from(&mut browser, CLIENT_A, ADMIN_EMAIL, ADMIN_PASSWORD)
            .await
            .status(),
        200
    );
}

async fn post_lead(app: &TestApp, client: &str) -> u16 {
    app.client
        .post(app.url("/api/leads"))
        .header("x-forwarded-for", client)
        .json(&LeadForm {
            name: "A".into(),
            email: "a@b.co".into(),
            message: "m".into(),
            ..LeadForm::default()
        })
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn an_ipv6_client_cannot_walk_its_64_past_the_form_limit() {
    let app = behind_proxy(&[]).await;
    for n in 1..=5 {
        assert_eq!(post_lead(&app, &format!("2001:db8::{n}")).await, 201);
    }
    assert_eq!(post_lead(&app, "2001:db8::6").await, 429, "same /64");
    assert_eq!(post_lead(&app, "2001:db8:0:1::1").await, 201, "another /64");
    assert_eq!(post_lead(&app, "192.0.2.1").await, 201, "IPv4 as it is");
    assert_eq!(post_lead(&app, "::ffff:192.0.2.2").await, 201);

    // The stored address is still the client's own.
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    let ips: Vec<String> = sqlx::query_scalar("SELECT client_ip FROM leads ORDER BY id")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(ips[0], "2001:db8::1");
    assert_eq!(ips[4], "2001:db8::5");
    assert_eq!(ips[5], "2001:db8:0:1::1");
}

/// The device cookie a sign-in answer set, as `name=value`.
fn device_cookie(response: &Response) -> Option<String> {
    set_cookie_of(response, "tally_device").map(|cookie| {
        cookie
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_owned()
    })
}

/// `POST /api/auth/login` from `client`, sending `device` (a `name=value`
/// cookie) beside the browser's own.
async fn login_with_device(
    browser: &Browser,
    client: &str,
    device: &str,
    password: &str,
) -> Response {
    browser
        .request(Method::POST, "/api/auth/login")
        .header("x-forwarded-for", client)
        .header("cookie", format!("{}; {device}", browser.cookie_header()))
        .json(&SignIn {
            email: ADMIN_EMAIL.to_owned(),
            password: password.to_owned(),
        })
        .send()
        .await
        .unwrap()
}

/// Issue 28, item 4: one address sending the administrator's email with a
/// wrong password keeps only itself out; the owner, at another address,
/// signs in.
#[tokio::test]
async fn an_attacker_guessing_the_admins_password_does_not_lock_the_admin_out() {
    let app = behind_proxy(&[]).await;
    let mut attacker = Browser::open(&app.address).await;
    let mut tries = 0;
    loop {
        let status = login_from(&mut attacker, CLIENT_A, ADMIN_EMAIL, "not the password")
            .await
            .status();
        if status == 429 {
            break;
        }
        assert_eq!(status, 401);
        tries += 1;
        assert!(tries < 40, "the attacker is never throttled");
    }
    let mut owner = Browser::open(&app.address).await;
    let signed_in = login_from(&mut owner, CLIENT_B, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(signed_in.status(), 200, "the owner is not locked out");
    assert!(
        device_cookie(&signed_in).is_some(),
        "a successful sign-in marks the browser as a known device"
    );
}

/// Strangers at many addresses fill the account's ceiling; a browser that
/// never signed in waits, the owner's browser that did (its device cookie)
/// does not. A forged device cookie counts for nothing.
#[tokio::test]
async fn the_owners_known_browser_signs_in_while_strangers_fill_the_accounts_ceiling() {
    let app = behind_proxy(&[]).await;
    let mut owner = Browser::open(&app.address).await;
    let first = login_from(&mut owner, CLIENT_B, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(first.status(), 200);
    let device = device_cookie(&first).expect("a device cookie");
    assert!(
        set_cookie_of(&first, "tally_device")
            .unwrap()
            .contains("HttpOnly"),
        "scripts cannot read it"
    );

    let strangers = Browser::open(&app.address).await;
    let mut refused_at = None;
    for n in 0..60u8 {
        let client = format!("192.0.2.{}", n + 1);
        let status = send_from(
            &strangers,
            &client,
            Method::POST,
            "/api/auth/login",
            &SignIn {
                email: ADMIN_EMAIL.to_owned(),
                password: "guess".into(),
            },
        )
        .await;
        if status == 429 {
            refused_at = Some(n);
            break;
        }
        assert_eq!(status, 401);
    }
    let refused_at = refused_at.expect("the account's ceiling holds");
    // The owner's first sign-in came from a browser the account did not
    // know yet, so it is one of the ceiling's 50: 49 strangers fill the
    // rest. (More get through only when the machine is slow enough for
    // the bucket to refill, one every 18 seconds; never fewer.)
    assert!(
        refused_at >= 49,
        "the ceiling holds 50 attempts, the owner's first one among them: refused at {refused_at}"
    );

    let stranger_browser = Browser::open(&app.address).await;
    let new_browser = login_with_device(
        &stranger_browser,
        "198.51.100.99",
        "tally_device=forged",
        ADMIN_PASSWORD,
    )
    .await;
    assert_eq!(new_browser.status(), 429, "a browser never seen waits");
    let known = login_with_device(&owner, CLIENT_B, &device, ADMIN_PASSWORD).await;
    assert_eq!(known.status(), 200, "the owner's own browser signs in");
}
