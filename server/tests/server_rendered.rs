//! What the server renders knows who is signed in: the header's navigation
//! comes in the HTML itself (no JavaScript needed), with Admin for
//! administrators, and the `current_session` server function answers the
//! same to the browser.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use app::contract::account::Session;
use reqwest::Method;
use support::browser::Browser;
use support::{with_admin, ADMIN_EMAIL};

/// The `<header>` of a page as the server sent it.
fn header_of(html: &str) -> &str {
    let start = html.find("<header").expect("a header");
    let end = html[start..].find("</header>").expect("its end") + start;
    &html[start..end]
}

async fn page(browser: &Browser, path: &str) -> String {
    let response = browser.request(Method::GET, path).send().await.unwrap();
    assert_eq!(response.status(), 200, "GET {path}");
    response.text().await.unwrap()
}

#[tokio::test]
async fn the_header_is_rendered_for_who_is_signed_in() {
    let (app, admin) = with_admin(&[]).await;

    let anonymous = Browser::open(&app.address).await;
    let home = page(&anonymous, "/").await;
    let header = header_of(&home);
    assert!(header.contains(">Sign in<"), "{header}");
    assert!(!header.contains(">Tracker<"), "{header}");

    let tracker = page(&admin, "/tracker").await;
    let header = header_of(&tracker);
    assert!(header.contains(">Tracker<"), "{header}");
    assert!(
        header.contains("href=\"/admin\""),
        "administrators get Admin: {header}"
    );
    assert!(!header.contains(">Sign in<"), "{header}");

    // A user who is not an administrator has no Admin link.
    let invite: app::contract::admin::Invited = admin
        .call(
            Method::POST,
            "/api/admin/invitations",
            &app::contract::admin::Invite::default(),
        )
        .await
        .unwrap()
        .unwrap();
    let token = invite.link.split("invitation=").nth(1).unwrap().to_owned();
    let mut user = Browser::open(&app.address).await;
    let registered = user
        .register(serde_json::json!({
            "invitation": token, "email": "user@example.com", "password": "a long enough passphrase 7"
        }))
        .await;
    assert_eq!(registered.status(), 200);
    let profile = page(&user, "/profile").await;
    let header = header_of(&profile);
    assert!(header.contains(">Profile<"), "{header}");
    assert!(!header.contains("href=\"/admin\""), "{header}");
}

#[tokio::test]
async fn the_session_server_function_answers_the_contract() {
    let (app, admin) = with_admin(&[]).await;
    let anonymous: Session = reqwest::get(app.url("/api/fn/session"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(anonymous, Session { user: None });
    let signed_in: Session = admin.get("/api/fn/session").await;
    assert_eq!(
        signed_in.user.map(|user| user.email).as_deref(),
        Some(ADMIN_EMAIL)
    );
    let response = reqwest::get(app.url("/api/fn/session")).await.unwrap();
    assert_eq!(response.headers()["cache-control"], "no-store");
}
