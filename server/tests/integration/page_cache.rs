#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Marketing pages served from the server's copy to anonymous visitors:
//! the same page, a fresh nonce each time (body and CSP agree). Which
//! requests may use the copy (never one with a session) is unit-tested in
//! `page_cache.rs`.

use crate::support;

use support::browser::Browser;
use support::spawn_app;
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

fn nonce_of(response: &reqwest::Response) -> String {
    let policy = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    policy
        .split("'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("a page's policy carries a nonce")
        .to_owned()
}

#[tokio::test]
async fn anonymous_visitors_get_the_same_page_with_their_own_nonce() {
    let app = spawn_app(&[]).await;
    let mut pages = Vec::new();
    for _ in 0..3 {
        let response = app.client.get(app.url("/pricing")).send().await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["cache-control"], "no-store");
        let nonce = nonce_of(&response);
        let body = response.text().await.unwrap();
        assert!(
            body.contains(&format!("nonce=\"{nonce}\"")),
            "the body's scripts carry the policy's nonce"
        );
        pages.push((nonce, body));
    }
    assert_ne!(pages[0].0, pages[1].0);
    assert_ne!(pages[1].0, pages[2].0);
    // Apart from the nonce, the page is the same.
    let same = |(nonce, body): &(String, String)| body.replace(nonce.as_str(), "NONCE");
    assert_eq!(same(&pages[0]), same(&pages[1]));
    assert_eq!(same(&pages[1]), same(&pages[2]));
    assert!(
        !pages[2].1.contains(&pages[0].0),
        "an old nonce is never reused"
    );
}

#[tokio::test]
async fn a_signed_in_visitor_gets_a_page_rendered_for_them() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await;
    // Fill the copy first.
    let anonymous = app.client.get(app.url("/pricing")).send().await.unwrap();
    assert_eq!(anonymous.status(), 200);
    let browser = Browser::signed_in(&app.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
    for _ in 0..2 {
        let signed_in = browser
            .request(reqwest::Method::GET, "/pricing")
            .send()
            .await
            .unwrap();
        assert_eq!(signed_in.status(), 200);
        let nonce = nonce_of(&signed_in);
        let body = signed_in.text().await.unwrap();
        assert!(body.contains(&format!("nonce=\"{nonce}\"")));
    }
}

/// A request with an API token renders the page as for anyone (pages do
/// not authenticate tokens), and what it rendered is not kept for the
/// anonymous visitors after it: today's layout would show the token
/// owner's email, name and Admin link to everyone for a minute.
#[tokio::test]
async fn a_bearer_token_never_puts_its_owner_in_a_page_or_the_copy() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await;
    let admin = Browser::signed_in(&app.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let token: app::contract::tokens::CreatedToken = admin
        .call_expecting(
            201,
            reqwest::Method::POST,
            "/api/tokens",
            &app::contract::tokens::CreateToken {
                name: "script".into(),
                expires_in_days: None,
                scopes: None,
            },
        )
        .await;
    for page in ["/", "/pricing"] {
        let with_token = app
            .with_token(&token.token, reqwest::Method::GET, page)
            .send()
            .await
            .unwrap();
        assert_eq!(with_token.status(), 200);
        let body = with_token.text().await.unwrap();
        assert!(
            !body.contains(ADMIN_EMAIL),
            "{page} rendered for the token: {body}"
        );
        assert!(!body.contains("href=\"/admin\""), "{page}: {body}");
        for _ in 0..2 {
            let anonymous = app.client.get(app.url(page)).send().await.unwrap();
            let body = anonymous.text().await.unwrap();
            assert!(
                !body.contains(ADMIN_EMAIL),
                "{page} leaked to anonymous: {body}"
            );
            assert!(!body.contains("href=\"/admin\""), "{page}: {body}");
        }
    }
}
