//! Files of the site root (`/favicon.svg`, `/robots.txt`, the helper
//! scripts) and the not-found page, through the router's fallback.
//!
//! Leptos's own fallback served a file inside a reactive owner parented to
//! whatever owner the worker thread had current, and moved that owner's
//! response headers onto the file: under load a page rendering at the same
//! moment lost its Content-Security-Policy (with the nonce its scripts
//! carry) to a favicon, and the page never hydrated. These tests hold the
//! two apart under concurrent load.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use reqwest::{header, Method};
use support::with_admin;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_keeps_its_own_policy_while_site_files_are_served_beside_it() {
    let (app, admin) = with_admin(&[]).await;
    let site = app.dir.path().join("site");
    std::fs::write(
        site.join("favicon.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    )
    .unwrap();
    std::fs::write(site.join("robots.txt"), "User-agent: *\n").unwrap();

    for round in 0..60 {
        let mut pages = Vec::new();
        let mut files = Vec::new();
        for _ in 0..4 {
            pages.push(tokio::spawn(admin.request(Method::GET, "/tracker").send()));
            for file in ["/favicon.svg", "/robots.txt"] {
                files.push(tokio::spawn(admin.request(Method::GET, file).send()));
            }
        }
        for page in pages {
            let page = page.await.unwrap().unwrap();
            assert_eq!(page.status(), 200);
            let policy = page.headers()[header::CONTENT_SECURITY_POLICY]
                .to_str()
                .unwrap()
                .to_owned();
            let nonce = policy
                .split("'nonce-")
                .nth(1)
                .and_then(|rest| rest.split('\'').next())
                .unwrap_or_else(|| panic!("round {round}: a page without its nonce: {policy}"))
                .to_owned();
            let html = page.text().await.unwrap();
            assert!(
                html.contains(&format!("nonce=\"{nonce}\"")),
                "round {round}"
            );
        }
        for file in files {
            let file = file.await.unwrap().unwrap();
            assert_eq!(file.status(), 200);
            let policy = file
                .headers()
                .get(header::CONTENT_SECURITY_POLICY)
                .map(|value| value.to_str().unwrap().to_owned())
                .unwrap_or_default();
            assert!(
                !policy.contains("nonce"),
                "round {round}: a file took a page's policy: {policy}"
            );
            assert!(file.headers().get(header::SET_COOKIE).is_none());
        }
    }
}

#[tokio::test]
async fn site_files_are_served_and_anything_else_is_the_not_found_page_without_an_error_logged() {
    let (app, admin) = with_admin(&[]).await;
    let site = app.dir.path().join("site");
    std::fs::write(site.join("robots.txt"), "User-agent: *\n").unwrap();

    let robots = app.client.get(app.url("/robots.txt")).send().await.unwrap();
    assert_eq!(robots.status(), 200);
    assert!(robots.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    assert_eq!(robots.text().await.unwrap(), "User-agent: *\n");
    // Not a way out of the site root.
    for path in ["/../Cargo.toml", "/%2e%2e/Cargo.toml", "/.env"] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
    }

    // The not-found page, for a visitor and for someone signed in: the
    // page with its policy, and the header knows who is signed in.
    let anonymous = app
        .client
        .get(app.url("/no/such/page"))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 404);
    assert!(anonymous.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .contains("'nonce-"));
    let signed_in = admin
        .request(Method::GET, "/no/such/page")
        .send()
        .await
        .unwrap();
    assert_eq!(signed_in.status(), 404);
    assert!(signed_in.text().await.unwrap().contains("Profile"));

    // A 404 is not the server's error: nothing for Admin Status's list.
    let status: app::contract::admin::SystemStatus = admin.get("/api/admin/status").await;
    let logged = status
        .sections
        .iter()
        .find(|section| section.title == "Recent errors")
        .unwrap();
    assert!(
        logged
            .rows
            .iter()
            .all(|row| !row.value.contains("services")),
        "{logged:?}"
    );
}
