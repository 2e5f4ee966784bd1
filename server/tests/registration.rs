//! Joining and administering accounts: the setup link of a fresh install,
//! invitation links, open registration, and what an admin does to users
//! (disable, enable, reset a second factor).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use app::contract::account::Me;
use app::contract::admin::{Invitation, Invite, Invited, UserSummary};
use app::domain::role::Role;
use reqwest::Method;
use serde_json::{json, Value};
use support::browser::Browser;
use support::{spawn_app, RunningBinary, TestApp};

const ADMIN: &str = "admin@example.com";
const ADMIN_PASSWORD: &str = "correct horse battery staple";
const PASSWORD: &str = "a long enough passphrase 7";

async fn app_with_admin() -> TestApp {
    spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await
}

async fn json_of(response: reqwest::Response) -> Value {
    response.json().await.unwrap()
}

fn token_of(link: &str) -> String {
    let (_, rest) = link.split_once("invitation=").expect("a link with a token");
    rest.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

async fn invite(admin: &Browser, request: Invite) -> String {
    let made: Invited = admin
        .call(Method::POST, "/api/admin/invitations", &request)
        .await
        .unwrap_or_else(|(status, error)| panic!("{status}: {error:?}"))
        .expect("a body");
    assert_eq!(made.invitation.role, request.role.unwrap_or_default());
    assert!(made.link.contains("/register?invitation="), "{}", made.link);
    made.link
}

#[test]
fn a_fresh_install_without_bootstrap_settings_prints_a_one_time_setup_link() {
    let mut tally = RunningBinary::start(&[]);
    let line = tally.wait_for_line("to create the first admin");
    let token = token_of(&line);
    assert_eq!(token.len(), 43, "{line}");
    let base = format!("http://{}", tally.address);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let mut browser = Browser::open(&base).await;
        let status = browser.json(&format!("/api/auth/registration?invitation={token}")).await;
        assert_eq!(status["invitation"]["role"], "admin");
        assert_eq!(status["openRegistration"], false);

        let response = browser
            .register(json!({ "invitation": token, "email": "owner@example.com", "name": "Owner", "password": PASSWORD }))
            .await;
        assert_eq!(response.status(), 200);
        assert_eq!(json_of(response).await["user"]["role"], "admin");
        let me = browser.request(Method::GET, "/api/auth/me").send().await.unwrap();
        assert_eq!(json_of(me).await["user"]["email"], "owner@example.com");

        // The link works once.
        let mut other = Browser::open(&base).await;
        let again = other
            .register(json!({ "invitation": token, "email": "intruder@example.com", "password": PASSWORD }))
            .await;
        assert_eq!(again.status(), 400);
        let body = json_of(again).await;
        assert!(body.to_string().contains("invitation"), "{body}");
    });
    tally.signal("TERM");
    assert_eq!(tally.wait_exit(), Some(0));
}

#[tokio::test]
async fn an_invitation_for_an_address_is_used_once_by_that_address() {
    let app = app_with_admin().await;
    let admin = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    let link = invite(
        &admin,
        Invite {
            email: Some("carol@example.com".into()),
            role: None,
        },
    )
    .await;
    let token = token_of(&link);
    let pending: Vec<Invitation> = admin.get("/api/admin/invitations").await;
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].email.as_deref(), Some("carol@example.com"));
    assert!(
        !admin
            .json("/api/admin/invitations")
            .await
            .to_string()
            .contains(&token),
        "the token is shown once"
    );

    let mut carol = Browser::open(&app.address).await;
    let wrong = carol
        .register(
            json!({ "invitation": token, "email": "mallory@example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(wrong.status(), 400);
    assert!(json_of(wrong)
        .await
        .to_string()
        .contains("different address"));

    let weak = carol
        .register(json!({ "invitation": token, "email": "carol@example.com", "password": "short" }))
        .await;
    assert_eq!(weak.status(), 400);
    let body = json_of(weak).await;
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"], "password",
        "{body}"
    );

    let ok = carol
        .register(json!({ "invitation": token, "email": "Carol@example.com", "name": "Carol", "password": PASSWORD }))
        .await;
    assert_eq!(
        ok.status(),
        200,
        "a failed attempt does not use the link up"
    );
    let me: Me = ok.json().await.unwrap();
    assert_eq!(me.user.role, Role::User);

    let pending: Vec<Invitation> = admin.get("/api/admin/invitations").await;
    assert_eq!(pending, []);
    let mut again = Browser::open(&app.address).await;
    let reused = again
        .register(
            json!({ "invitation": token, "email": "carol@example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(reused.status(), 400);
}

#[tokio::test]
async fn registration_without_an_invitation_needs_open_registration() {
    let app = app_with_admin().await;
    let mut visitor = Browser::open(&app.address).await;
    let body = json!({ "email": "dave@example.com", "name": "Dave", "password": PASSWORD });
    let refused = visitor.register(body.clone()).await;
    assert_eq!(refused.status(), 400);
    assert!(json_of(refused).await.to_string().contains("invitation"));

    let admin = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    let (set, _) = admin
        .send(
            Method::PUT,
            "/api/admin/registration",
            json!({ "open": true }),
        )
        .await;
    assert_eq!(set, 200);
    let status = visitor.json("/api/auth/registration").await;
    assert_eq!(status["openRegistration"], true);

    let ok = visitor.register(body.clone()).await;
    assert_eq!(ok.status(), 200);
    assert_eq!(json_of(ok).await["user"]["role"], "user");
    let mut twice = Browser::open(&app.address).await;
    let duplicate = twice.register(body).await;
    assert_eq!(duplicate.status(), 400);
    assert!(json_of(duplicate).await.to_string().contains("exists"));

    // A user is not an admin.
    assert_eq!(visitor.status(Method::GET, "/api/admin/users").await, 403);
    let (escalate, _) = visitor
        .send(
            Method::PUT,
            "/api/admin/registration",
            json!({ "open": false }),
        )
        .await;
    assert_eq!(escalate, 403);
}

async fn registered_user(app: &TestApp, admin: &Browser, email: &str) -> (Browser, i64) {
    let token = token_of(&invite(admin, Invite::default()).await);
    let mut browser = Browser::open(&app.address).await;
    let response = browser
        .register(json!({ "invitation": token, "email": email, "password": PASSWORD }))
        .await;
    assert_eq!(response.status(), 200);
    let me: Me = response.json().await.unwrap();
    (browser, me.user.id)
}

#[tokio::test]
async fn a_disabled_account_is_signed_out_everywhere_until_enabled() {
    let app = app_with_admin().await;
    let admin = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    let (erin, erin_id) = registered_user(&app, &admin, "erin@example.com").await;
    let token = json_of(
        erin.request(Method::POST, "/api/tokens")
            .json(&json!({ "name": "script" }))
            .send()
            .await
            .unwrap(),
    )
    .await["token"]
        .as_str()
        .unwrap()
        .to_owned();

    let listed: Vec<UserSummary> = admin.get("/api/admin/users").await;
    let row = listed.iter().find(|u| u.id == erin_id).unwrap();
    assert!(!row.disabled);
    assert_eq!(row.role, Role::User);
    let raw = admin.json("/api/admin/users").await;
    assert!(!raw.to_string().contains("passwordHash") && !raw.to_string().contains("argon2"));

    let path = format!("/api/admin/users/{erin_id}/disable");
    assert_eq!(admin.status(Method::POST, &path).await, 204);
    assert_eq!(erin.status(Method::GET, "/api/auth/me").await, 401);
    let bearer = app
        .with_token(&token, Method::GET, "/api/auth/me")
        .send()
        .await
        .unwrap();
    assert_eq!(bearer.status(), 401);
    let mut again = Browser::open(&app.address).await;
    assert_eq!(
        again.login("erin@example.com", PASSWORD).await.status(),
        401
    );

    let admin_id = admin.get::<Me>("/api/auth/me").await.user.id;
    let own = admin
        .request(
            Method::POST,
            &format!("/api/admin/users/{admin_id}/disable"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(own.status(), 400);
    assert_eq!(
        admin
            .status(Method::POST, "/api/admin/users/9999/disable")
            .await,
        404
    );

    assert_eq!(
        admin
            .status(Method::POST, &format!("/api/admin/users/{erin_id}/enable"))
            .await,
        204
    );
    assert_eq!(
        again.login("erin@example.com", PASSWORD).await.status(),
        200
    );
}

#[tokio::test]
async fn an_admin_resets_a_lost_second_factor() {
    let app = app_with_admin().await;
    let admin = Browser::signed_in(&app.address, ADMIN, ADMIN_PASSWORD).await;
    let (_frank, frank_id) = registered_user(&app, &admin, "frank@example.com").await;
    let pool = app::ssr::db::connect(&app.database_path()).await.unwrap();
    sqlx::query("UPDATE users SET totp_enabled = 1, totp_secret = 'x' WHERE id = ?")
        .bind(frank_id)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, 'h')")
        .bind(frank_id)
        .execute(&pool)
        .await
        .unwrap();
    let mut frank = Browser::open(&app.address).await;
    let step = json_of(frank.login("frank@example.com", PASSWORD).await).await;
    assert_eq!(step["secondFactor"], "totp", "{step}");

    let path = format!("/api/admin/users/{frank_id}/reset-second-factor");
    assert_eq!(frank.status(Method::POST, &path).await, 401);
    assert_eq!(admin.status(Method::POST, &path).await, 204);
    let response = frank.login("frank@example.com", PASSWORD).await;
    assert_eq!(response.status(), 200);
    assert!(json_of(response).await.get("user").is_some());
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM recovery_codes WHERE user_id = ?")
        .bind(frank_id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
}
