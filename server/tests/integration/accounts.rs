//! Accounts and security: bootstrap admin, sign-in and out, hashed sessions,
//! CSRF on every state-changing route, throttling, password changes and
//! personal API tokens, each user confined to their own. Requests and
//! answers are the contract's types; raw JSON only where a test sends what
//! no client would (one body to every route, a body that is not JSON) or
//! proves a secret is never sent.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::backend::auth::token::sha256_hex;
use app::backend::auth::users::{self, Role};
use app::contract::account::{CsrfToken, Me, PrivacySettings, SignIn};
use app::contract::error::ErrorBody;
use app::contract::tokens::{ApiTokenInfo, CreateToken, CreatedToken};
use app::contract::two_factor::ChangePassword;
use reqwest::Method;
use secrecy::SecretString;
use support::browser::{read, set_cookie_of, Browser};
use support::{spawn_app, TestApp};
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

const BOB: &str = "bob@example.com";
const BOB_PASSWORD: &str = "bob's long passphrase 42";

async fn app_with_admin(extra: &[(&str, &str)]) -> TestApp {
    let mut vars = vec![
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ];
    vars.extend_from_slice(extra);
    spawn_app(&vars).await
}

async fn add_bob(app: &TestApp) {
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    users::create(
        &pool,
        BOB,
        "Bob",
        SecretString::from(BOB_PASSWORD),
        Role::User,
    )
    .await
    .unwrap();
    pool.close().await;
}

fn named(name: &str) -> CreateToken {
    CreateToken {
        name: name.to_owned(),
        expires_in_days: None,
        scopes: None,
    }
}

#[tokio::test]
async fn the_bootstrap_admin_signs_in_with_a_hardened_cookie() {
    let app = app_with_admin(&[]).await;
    let mut browser = Browser::open(&app.address).await;
    let response = browser.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(response.status(), 200);
    let cookie = set_cookie_of(&response, "tally_session").unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    assert!(!cookie.contains("Secure"), "plain http in tests: {cookie}");
    let signed_in: Me = read(response).await.unwrap();
    assert_eq!(signed_in.user.role, Role::Admin);

    let me: Me = browser.get("/api/auth/me").await;
    assert_eq!(me.user.email, ADMIN_EMAIL);
}

#[tokio::test]
async fn cookies_are_secure_behind_https_and_csrf_http_only_can_be_turned_off() {
    let app = app_with_admin(&[
        ("PUBLIC_BASE_URL", "https://tally.example.com"),
        ("CSRF_HTTP_ONLY", "false"),
    ])
    .await;
    let response = app
        .client
        .get(app.url("/api/auth/csrf-token"))
        .send()
        .await
        .unwrap();
    let csrf = set_cookie_of(&response, "__Host-tally_csrf").unwrap();
    assert!(
        csrf.contains("Secure") && !csrf.contains("HttpOnly"),
        "{csrf}"
    );
    let token: CsrfToken = response.json().await.unwrap();
    let (session, _) = https_sign_in(&app, &token.csrf_token).await;
    assert!(session.contains("Secure"), "{session}");

    let default = app_with_admin(&[]).await;
    let response = default
        .client
        .get(default.url("/api/auth/csrf-token"))
        .send()
        .await
        .unwrap();
    assert!(set_cookie_of(&response, "tally_csrf")
        .unwrap()
        .contains("HttpOnly"));
}

/// Signs the administrator in to an app behind https with the CSRF token
/// `csrf` (its `__Host-` cookie and header); the `Set-Cookie` of the
/// session, whose value is the part before the first `;` after `=`, and
/// the CSRF token the answer sets with it (bound to the new session).
async fn https_sign_in(app: &TestApp, csrf: &str) -> (String, String) {
    let response = app
        .client
        .post(app.url("/api/auth/login"))
        .header("cookie", format!("__Host-tally_csrf={csrf}"))
        .header("x-csrf-token", csrf)
        .json(&SignIn {
            email: ADMIN_EMAIL.to_owned(),
            password: ADMIN_PASSWORD.to_owned(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        set_cookie_of(&response, "tally_session").is_none(),
        "behind https only the prefixed name is set"
    );
    let bound = set_cookie_of(&response, "__Host-tally_csrf")
        .expect("a new session, with its own CSRF cookie")
        .strip_prefix("__Host-tally_csrf=")
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .to_owned();
    assert_ne!(bound, csrf, "the token changes when the session starts");
    (
        set_cookie_of(&response, "__Host-tally_session").unwrap(),
        bound,
    )
}

/// Behind https Tally's cookies are `__Host-` prefixed (Secure, the whole
/// site, no domain), which a sibling subdomain cannot set; the bare names,
/// which it can, are not read: not as a session, not as a CSRF token.
#[tokio::test]
async fn behind_https_cookies_a_sibling_subdomain_can_set_are_not_read() {
    let app = app_with_admin(&[("PUBLIC_BASE_URL", "https://tally.example.com")]).await;
    let response = app
        .client
        .get(app.url("/api/auth/csrf-token"))
        .send()
        .await
        .unwrap();
    assert!(set_cookie_of(&response, "tally_csrf").is_none());
    let csrf = set_cookie_of(&response, "__Host-tally_csrf").unwrap();
    assert!(
        csrf.contains("; Path=/;") && csrf.contains("Secure") && !csrf.contains("Domain"),
        "{csrf}"
    );
    let token: CsrfToken = response.json().await.unwrap();
    let csrf = token.csrf_token;
    let (set, bound) = https_sign_in(&app, &csrf).await;
    let session = set
        .strip_prefix("__Host-tally_session=")
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .to_owned();

    let me = |cookie: String| {
        app.client
            .get(app.url("/api/auth/me"))
            .header("cookie", cookie)
            .send()
    };
    let prefixed = me(format!("__Host-tally_session={session}")).await.unwrap();
    assert_eq!(prefixed.status(), 200);
    let bare = me(format!("tally_session={session}")).await.unwrap();
    assert_eq!(bare.status(), 401, "a bare session cookie is not read");

    // A CSRF token planted under the bare name does not pass for the
    // session's own; the session's own token does.
    let sign_out = |cookie: String, sent: &str| {
        app.client
            .post(app.url("/api/auth/logout"))
            .header("cookie", cookie)
            .header("x-csrf-token", sent.to_owned())
            .send()
    };
    let forged = sign_out(
        format!("__Host-tally_session={session}; tally_csrf=planted"),
        "planted",
    )
    .await
    .unwrap();
    assert_eq!(forged.status(), 403);
    // Nor does the token from before sign-in: the session has its own.
    let before = sign_out(
        format!("__Host-tally_session={session}; __Host-tally_csrf={csrf}"),
        &csrf,
    )
    .await
    .unwrap();
    assert_eq!(before.status(), 403);
    let still = me(format!("__Host-tally_session={session}")).await.unwrap();
    assert_eq!(still.status(), 200, "the forged posts did nothing");
    let signed_out = sign_out(
        format!("__Host-tally_session={session}; __Host-tally_csrf={bound}"),
        &bound,
    )
    .await
    .unwrap();
    assert!(signed_out.status().is_success(), "{}", signed_out.status());
    let cleared = set_cookie_of(&signed_out, "__Host-tally_session").unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
}

/// A signed-in browser's CSRF token is bound to its session (an HMAC of
/// the session token under the server's key): the sign-in answer sets it
/// as the cookie, `GET /api/auth/csrf-token` answers it, and beside that
/// session cookie another session's token, a double-submit pair planted
/// beside it, or the token from before sign-in is refused with 403.
/// Signing out hands out a fresh token, and the next session its own.
#[tokio::test]
async fn a_signed_in_browsers_csrf_token_is_bound_to_its_session() {
    let app = app_with_admin(&[]).await;
    add_bob(&app).await;
    let mut admin = Browser::open(&app.address).await;
    let before = admin.csrf.clone();
    let signed_in = admin.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(signed_in.status(), 200);
    let bound = admin.csrf.clone();
    assert_ne!(bound, before, "a session starts with a token of its own");
    assert_eq!(
        admin.fetch_csrf().await,
        bound,
        "the token route answers the session's token"
    );
    let bob = Browser::signed_in(&app.address, BOB, BOB_PASSWORD).await;
    assert_ne!(bob.csrf, bound, "each session has its own token");

    let privacy = PrivacySettings {
        geolocation_enabled: false,
    };
    let put = |cookie: String, sent: String| {
        app.client
            .put(app.url("/api/profile/privacy"))
            .header("cookie", cookie)
            .header("x-csrf-token", sent)
            .json(&privacy)
            .send()
    };
    let session = admin.session.clone().unwrap();
    let planted = "p".repeat(43);
    for (what, csrf_cookie, sent) in [
        (
            "another session's token",
            bob.csrf.clone(),
            bob.csrf.clone(),
        ),
        (
            "a planted double-submit pair",
            planted.clone(),
            planted.clone(),
        ),
        (
            "the token from before sign-in",
            before.clone(),
            before.clone(),
        ),
    ] {
        let refused = put(
            format!("tally_session={session}; tally_csrf={csrf_cookie}"),
            sent,
        )
        .await
        .unwrap();
        assert_eq!(refused.status(), 403, "{what}");
        let error: ErrorBody = refused.json().await.unwrap();
        assert!(error.error.message.contains("CSRF"), "{what}: {error:?}");
    }
    // The session's own token passes, whatever CSRF cookie rides along.
    let own = put(
        format!("tally_session={session}; tally_csrf={planted}"),
        bound.clone(),
    )
    .await
    .unwrap();
    assert_eq!(own.status(), 200);

    let out = admin
        .request(Method::POST, "/api/auth/logout")
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 204);
    admin.keep_cookies(&out);
    assert!(admin.session.is_none());
    assert!(
        admin.csrf != bound && admin.csrf.len() == 43,
        "signing out hands out a fresh token"
    );
    let again = admin.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(again.status(), 200);
    assert_ne!(admin.csrf, bound, "the next session has a token of its own");
    assert_eq!(
        admin
            .status_with(Method::PUT, "/api/profile/privacy", &privacy)
            .await,
        200
    );
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_email_get_the_same_answer() {
    let app = app_with_admin(&[]).await;
    let mut browser = Browser::open(&app.address).await;
    let wrong = browser.login(ADMIN_EMAIL, "not the password at all").await;
    let wrong_status = wrong.status();
    let wrong_body = wrong.text().await.unwrap();
    let unknown = browser
        .login("nobody@example.com", "not the password at all")
        .await;
    assert_eq!(wrong_status, 401);
    assert_eq!(unknown.status(), wrong_status);
    assert_eq!(unknown.text().await.unwrap(), wrong_body);
    assert!(browser.session.is_none());
}

#[tokio::test]
async fn the_database_holds_only_the_hash_and_a_stolen_row_signs_nobody_in() {
    let app = app_with_admin(&[]).await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let token = browser.session.clone().unwrap();
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    let stored: Vec<String> = sqlx::query_scalar("SELECT id FROM sessions")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(stored, [sha256_hex(&token)]);

    let mut thief = Browser::open(&app.address).await;
    thief.session = Some(stored[0].clone());
    assert_eq!(thief.status(Method::GET, "/api/auth/me").await, 401);
    assert_eq!(browser.status(Method::GET, "/api/auth/me").await, 200);
}

#[tokio::test]
async fn sign_out_and_sign_out_everywhere_end_sessions() {
    let app = app_with_admin(&[]).await;
    let laptop = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let phone = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let tablet = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;

    let response = laptop
        .request(Method::POST, "/api/auth/logout")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 204);
    assert!(set_cookie_of(&response, "tally_session")
        .unwrap()
        .contains("Max-Age=0"));
    assert_eq!(laptop.status(Method::GET, "/api/auth/me").await, 401);
    assert_eq!(phone.status(Method::GET, "/api/auth/me").await, 200);

    assert_eq!(
        phone.status(Method::POST, "/api/auth/logout-all").await,
        204
    );
    assert_eq!(phone.status(Method::GET, "/api/auth/me").await, 401);
    assert_eq!(tablet.status(Method::GET, "/api/auth/me").await, 401);
}

#[tokio::test]
async fn changing_the_password_checks_it_and_ends_the_other_sessions() {
    let app = app_with_admin(&[]).await;
    let here = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let elsewhere = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let change = |current: &'static str, new: &'static str| {
        here.request(Method::POST, "/api/auth/password")
            .json(&ChangePassword {
                current_password: current.into(),
                new_password: new.into(),
            })
            .send()
    };

    let wrong = change("not my password!!", "a brand new passphrase")
        .await
        .unwrap();
    let (status, error) = read::<()>(wrong).await.unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "currentPassword");

    let weak = change(ADMIN_PASSWORD, "short").await.unwrap();
    let (status, error) = read::<()>(weak).await.unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "newPassword");
    assert!(error.error.message.contains("12 characters"), "{error:?}");

    assert_eq!(
        change(ADMIN_PASSWORD, "a brand new passphrase")
            .await
            .unwrap()
            .status(),
        204
    );
    assert_eq!(here.status(Method::GET, "/api/auth/me").await, 200);
    assert_eq!(elsewhere.status(Method::GET, "/api/auth/me").await, 401);
    let mut again = Browser::open(&app.address).await;
    assert_eq!(again.login(ADMIN_EMAIL, ADMIN_PASSWORD).await.status(), 401);
    assert_eq!(
        again
            .login(ADMIN_EMAIL, "a brand new passphrase")
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn sign_in_attempts_are_throttled_per_account() {
    let app = app_with_admin(&[]).await;
    let mut browser = Browser::open(&app.address).await;
    for _ in 0..10 {
        assert_eq!(
            browser
                .login(ADMIN_EMAIL, "wrong password, again")
                .await
                .status(),
            401
        );
    }
    let limited = browser.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(limited.status(), 429);
    let retry: u64 = limited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1);
}

/// Every state-changing API route, walked from the route table so a new
/// route cannot forget CSRF: without the header, or with a wrong one, a
/// signed-in browser is refused with 403 and nothing changes.
#[tokio::test]
async fn every_state_changing_route_refuses_a_missing_or_wrong_csrf_header() {
    let app = app_with_admin(&[("TALLY_DIAGNOSTICS", "1")]).await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let mut checked = 0;
    for route in server::routes::api_routes(true) {
        for method in route.methods {
            if matches!(method, "GET" | "HEAD" | "OPTIONS")
                || server::middleware::csrf::exempt(route.path)
            {
                continue;
            }
            let path = route.path.replace("{id}", "1").replace("{kind}", "leads");
            let method = Method::from_bytes(method.as_bytes()).unwrap();
            for wrong in [None, Some("not-the-token")] {
                // One body for every route: raw, as no single contract
                // type fits them all.
                let mut request = browser
                    .request_without_csrf(method.clone(), &path)
                    .json(&serde_json::json!({}));
                if let Some(wrong) = wrong {
                    request = request.header("x-csrf-token", wrong);
                }
                let response = request.send().await.unwrap();
                assert_eq!(
                    response.status(),
                    403,
                    "{method} {path} without a valid CSRF header"
                );
                let error: ErrorBody = response.json().await.unwrap();
                assert!(error.error.message.contains("CSRF"), "{error:?}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 6, "walked {checked} routes");
    // Only the public forms (their REST routes and the contact pages'
    // server functions) go without CSRF: they act for no account.
    let mut exempt = server::routes::policy::policy().csrf_exempt().to_vec();
    exempt.sort();
    assert_eq!(
        exempt,
        [
            "/api/fn/contact/lead",
            "/api/fn/contact/support",
            "/api/leads",
            "/api/support",
        ]
    );
    assert_eq!(
        browser.status(Method::GET, "/api/auth/me").await,
        200,
        "logout was refused"
    );
}

#[tokio::test]
async fn api_tokens_are_shown_once_authenticate_without_csrf_and_can_be_revoked() {
    let app = app_with_admin(&[]).await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let created: CreatedToken = browser
        .call_expecting(201, Method::POST, "/api/tokens", &named("backup script"))
        .await;
    let token = created.token;
    assert!(token.starts_with("tally_pat_"));
    let id = created.info.id;

    let listed: Vec<ApiTokenInfo> = browser.get("/api/tokens").await;
    assert_eq!(listed[0].name, "backup script");
    // Raw on purpose: no field of any type may carry the token again.
    assert!(
        !browser
            .json_raw("/api/tokens")
            .await
            .to_string()
            .contains(&token),
        "the token is never shown again"
    );

    // A programmatic client: no cookies, no CSRF header.
    let bearer = |method: Method, path: &str| {
        app.client
            .request(method, app.url(path))
            .header("authorization", format!("Bearer {token}"))
    };
    let me: Me = bearer(Method::GET, "/api/auth/me")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me.user.email, ADMIN_EMAIL);
    let changed = bearer(Method::PUT, "/api/profile/privacy")
        .json(&PrivacySettings {
            geolocation_enabled: false,
        })
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), 200, "bearer requests need no CSRF token");
    // A token cannot mint more (server/tests/token_limits.rs has the rest).
    let second = bearer(Method::POST, "/api/tokens")
        .json(&named("made by a script"))
        .send()
        .await
        .unwrap();
    assert_eq!(second.status(), 403);
    let used: Vec<ApiTokenInfo> = browser.get("/api/tokens").await;
    assert!(used.iter().any(|t| t.id == id && t.last_used_at.is_some()));

    assert_eq!(
        browser
            .status(Method::DELETE, &format!("/api/tokens/{id}"))
            .await,
        204
    );
    let refused = bearer(Method::GET, "/api/auth/me").send().await.unwrap();
    assert_eq!(refused.status(), 401);
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["status"], "UNAUTHENTICATED", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("this token was revoked"),
        "{body}"
    );
    assert_eq!(
        app.client
            .get(app.url("/api/auth/me"))
            .header("authorization", "Bearer tally_pat_made-up")
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
}

#[tokio::test]
async fn one_user_cannot_see_or_revoke_another_users_tokens() {
    let app = app_with_admin(&[]).await;
    add_bob(&app).await;
    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let bob = Browser::signed_in(&app.address, BOB, BOB_PASSWORD).await;
    let created: CreatedToken = admin
        .call(Method::POST, "/api/tokens", &named("admin's"))
        .await
        .unwrap()
        .unwrap();
    let id = created.info.id;

    let bobs: Vec<ApiTokenInfo> = bob.get("/api/tokens").await;
    assert_eq!(bobs, []);
    assert_eq!(
        bob.status(Method::DELETE, &format!("/api/tokens/{id}"))
            .await,
        404
    );
    let admins: Vec<ApiTokenInfo> = admin.get("/api/tokens").await;
    assert_eq!(admins.len(), 1, "still there");
}

#[tokio::test]
async fn invalid_bodies_get_a_json_error() {
    let app = app_with_admin(&[]).await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (status, error) = browser
        .call::<_, CreatedToken>(Method::POST, "/api/tokens", &named(""))
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "name");

    let response = browser
        .request(Method::POST, "/api/auth/login")
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    let (status, error) = read::<()>(response).await.unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.error.status, "INVALID_ARGUMENT");
}
