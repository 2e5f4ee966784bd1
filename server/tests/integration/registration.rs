//! Joining and administering accounts: the setup link of a fresh install,
//! invitation links, open registration, and what an admin does to users
//! (disable, enable, reset a second factor). Requests and answers are the
//! contract's types; raw JSON is read only to prove what is never sent (a
//! token shown once, password hashes).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::{Me, Register, RegistrationStatus, SecondFactorMethod, SignInAnswer};
use app::contract::admin::{Invitation, Invite, Invited, RegistrationSetting, UserSummary};
use app::contract::tokens::{CreateToken, CreatedToken};
use app::domain::role::Role;
use reqwest::Method;
use support::browser::{read, second_factor, Browser};
use support::{spawn_app, RunningBinary, TestApp};
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

const PASSWORD: &str = "a long enough passphrase 7";

async fn app_with_admin() -> TestApp {
    spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await
}

/// Registration through an invitation link, with no name.
fn with_link(token: &str, email: &str, password: &str) -> Register {
    Register {
        invitation: Some(token.to_owned()),
        email: email.to_owned(),
        name: String::new(),
        password: password.to_owned(),
        time_zone: None,
    }
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
        let status: RegistrationStatus = browser
            .get(&format!("/api/auth/registration?invitation={token}"))
            .await;
        assert_eq!(status.invitation.map(|link| link.role), Some(Role::Admin));
        assert!(!status.open_registration);

        let response = browser
            .register(&Register {
                name: "Owner".into(),
                ..with_link(&token, "owner@example.com", PASSWORD)
            })
            .await;
        assert_eq!(response.status(), 200);
        let me: Me = read(response).await.unwrap();
        assert_eq!(me.user.role, Role::Admin);
        let me: Me = browser.get("/api/auth/me").await;
        assert_eq!(me.user.email, "owner@example.com");
        // Joining is no sign-in of the history, but the owner was here:
        // Admin shows when (not "never").
        let users: Vec<UserSummary> = browser.get("/api/admin/users").await;
        let owner = users
            .iter()
            .find(|u| u.email == "owner@example.com")
            .unwrap();
        assert_eq!(owner.last_sign_in_at, None);
        assert!(owner.last_seen_at.is_some(), "{owner:?}");

        // The link works once.
        let mut other = Browser::open(&base).await;
        let again = other
            .register(&with_link(&token, "intruder@example.com", PASSWORD))
            .await;
        let (status, error) = read::<Me>(again).await.unwrap_err();
        assert_eq!(status, 400);
        assert!(error.error.message.contains("invitation"), "{error:?}");
    });
    tally.signal("TERM");
    assert_eq!(tally.wait_exit(), Some(0));
}

#[tokio::test]
async fn an_invitation_for_an_address_is_used_once_by_that_address() {
    let app = app_with_admin().await;
    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let link = invite(&admin, support::invitation(Some("carol@example.com"), None)).await;
    let token = token_of(&link);
    let pending: Vec<Invitation> = admin.get("/api/admin/invitations").await;
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].email.as_deref(), Some("carol@example.com"));
    // Raw on purpose: no field of any type may carry the token again.
    assert!(
        !admin
            .json_raw("/api/admin/invitations")
            .await
            .to_string()
            .contains(&token),
        "the token is shown once"
    );

    let mut carol = Browser::open(&app.address).await;
    let wrong = carol
        .register(&with_link(&token, "mallory@example.com", PASSWORD))
        .await;
    let (status, error) = read::<Me>(wrong).await.unwrap_err();
    assert_eq!(status, 400);
    assert!(
        error.error.message.contains("different address"),
        "{error:?}"
    );

    let weak = carol
        .register(&with_link(&token, "carol@example.com", "short"))
        .await;
    let (status, error) = read::<Me>(weak).await.unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "password", "{error:?}");

    let ok = carol
        .register(&Register {
            name: "Carol".into(),
            ..with_link(&token, "Carol@example.com", PASSWORD)
        })
        .await;
    assert_eq!(
        ok.status(),
        200,
        "a failed attempt does not use the link up"
    );
    let me: Me = read(ok).await.unwrap();
    assert_eq!(me.user.role, Role::User);

    let pending: Vec<Invitation> = admin.get("/api/admin/invitations").await;
    assert_eq!(pending, []);
    let mut again = Browser::open(&app.address).await;
    let reused = again
        .register(&with_link(&token, "carol@example.com", PASSWORD))
        .await;
    assert_eq!(reused.status(), 400);
}

#[tokio::test]
async fn registration_without_an_invitation_needs_open_registration() {
    let app = app_with_admin().await;
    let mut visitor = Browser::open(&app.address).await;
    let body = Register {
        invitation: None,
        email: "dave@example.com".into(),
        name: "Dave".into(),
        password: PASSWORD.into(),
        time_zone: None,
    };
    let refused = visitor.register(&body).await;
    let (status, error) = read::<Me>(refused).await.unwrap_err();
    assert_eq!(status, 400);
    assert!(error.error.message.contains("invitation"), "{error:?}");

    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let set: RegistrationSetting = admin
        .call_expecting(
            200,
            Method::PUT,
            "/api/admin/registration",
            &support::registration(true),
        )
        .await;
    assert!(set.open);
    let status: RegistrationStatus = visitor.get("/api/auth/registration").await;
    assert!(status.open_registration);

    let ok = visitor.register(&body).await;
    assert_eq!(ok.status(), 200);
    let me: Me = read(ok).await.unwrap();
    assert_eq!(me.user.role, Role::User);
    let mut twice = Browser::open(&app.address).await;
    let duplicate = twice.register(&body).await;
    let (status, error) = read::<Me>(duplicate).await.unwrap_err();
    assert_eq!(status, 400);
    assert!(error.error.message.contains("exists"), "{error:?}");

    // A user is not an admin.
    assert_eq!(visitor.status(Method::GET, "/api/admin/users").await, 403);
    let (escalate, _) = visitor
        .call::<_, RegistrationSetting>(
            Method::PUT,
            "/api/admin/registration",
            &support::registration(false),
        )
        .await
        .unwrap_err();
    assert_eq!(escalate, 403);
}

async fn registered_user(app: &TestApp, admin: &Browser, email: &str) -> (Browser, i64) {
    let token = token_of(&invite(admin, support::invitation(None, None)).await);
    let mut browser = Browser::open(&app.address).await;
    let response = browser.register(&with_link(&token, email, PASSWORD)).await;
    assert_eq!(response.status(), 200);
    let me: Me = read(response).await.unwrap();
    (browser, me.user.id)
}

#[tokio::test]
async fn a_disabled_account_is_signed_out_everywhere_until_enabled() {
    let app = app_with_admin().await;
    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (erin, erin_id) = registered_user(&app, &admin, "erin@example.com").await;
    let created: CreatedToken = erin
        .call_expecting(
            201,
            Method::POST,
            "/api/tokens",
            &CreateToken {
                name: "script".into(),
                expires_in_days: None,
                scopes: None,
            },
        )
        .await;
    let token = created.token;

    let listed: Vec<UserSummary> = admin.get("/api/admin/users").await;
    let row = listed.iter().find(|u| u.id == erin_id).unwrap();
    assert!(!row.disabled);
    assert_eq!(row.role, Role::User);
    // Raw on purpose: no field of any type may carry a password hash.
    let raw = admin.json_raw("/api/admin/users").await;
    assert!(!raw.to_string().contains("passwordHash") && !raw.to_string().contains("argon2"));

    let path = format!("/api/admin/users/{erin_id}/disable");
    assert_eq!(
        admin.status(Method::POST, &path).await,
        400,
        "the password is asked again"
    );
    assert_eq!(
        admin
            .status_with(Method::POST, &path, &support::admin_confirms())
            .await,
        204
    );
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
        .json(&support::admin_confirms())
        .send()
        .await
        .unwrap();
    assert_eq!(own.status(), 400);
    assert_eq!(
        admin
            .status_with(
                Method::POST,
                "/api/admin/users/9999/disable",
                &support::admin_confirms()
            )
            .await,
        404
    );

    assert_eq!(
        admin
            .status_with(
                Method::POST,
                &format!("/api/admin/users/{erin_id}/enable"),
                &support::admin_confirms()
            )
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
    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (_frank, frank_id) = registered_user(&app, &admin, "frank@example.com").await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
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
    let step = second_factor(
        read(frank.login("frank@example.com", PASSWORD).await)
            .await
            .unwrap(),
    );
    assert_eq!(
        step.second_factor,
        Some(SecondFactorMethod::Totp),
        "{step:?}"
    );

    let path = format!("/api/admin/users/{frank_id}/reset-second-factor");
    assert_eq!(frank.status(Method::POST, &path).await, 401);
    assert_eq!(
        admin
            .status_with(Method::POST, &path, &support::admin_confirms())
            .await,
        204
    );
    let response = frank.login("frank@example.com", PASSWORD).await;
    assert_eq!(response.status(), 200);
    let answer: SignInAnswer = read(response).await.unwrap();
    assert!(matches!(answer, SignInAnswer::SignedIn(_)), "{answer:?}");
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM recovery_codes WHERE user_id = ?")
        .bind(frank_id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
}

#[tokio::test]
async fn a_new_account_starts_in_the_time_zone_its_browser_reported() {
    let app = app_with_admin().await;
    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    for (email, reported, kept) in [
        (
            "erin@example.com",
            Some("America/New_York"),
            "America/New_York",
        ),
        // Not a zone Tally knows, or none at all (no JavaScript): UTC.
        ("frank@example.com", Some("Mars/Olympus"), "UTC"),
        ("grace@example.com", None, "UTC"),
    ] {
        let token = token_of(&invite(&admin, support::invitation(None, None)).await);
        let mut browser = Browser::open(&app.address).await;
        let response = browser
            .register(&Register {
                time_zone: reported.map(str::to_owned),
                ..with_link(&token, email, PASSWORD)
            })
            .await;
        assert_eq!(response.status(), 200, "{email}");
        let preferences: app::contract::preferences::Preferences =
            browser.get("/api/profile/preferences").await;
        assert_eq!(preferences.time_zone, kept, "{email} reported {reported:?}");
    }
}
