//! `POST /login`: the sign-in form posted without JavaScript (issue 28,
//! item 12). The password travels in the body only; the answer is a
//! redirect whose address never carries a field the person typed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use reqwest::header::{LOCATION, SET_COOKIE};
use support::{with_admin, ADMIN_EMAIL, ADMIN_PASSWORD};

fn form(email: &str, password: &str, next: &str) -> Vec<(&'static str, String)> {
    vec![
        ("email", email.to_owned()),
        ("password", password.to_owned()),
        ("next", next.to_owned()),
    ]
}

#[tokio::test]
async fn the_form_signs_in_without_javascript_and_the_address_never_carries_a_field() {
    let (app, _admin) = with_admin(&[]).await;
    let origin = app.address.clone();
    let post = |fields: Vec<(&'static str, String)>, origin: Option<&str>| {
        let mut request = app.client.post(app.url("/login")).form(&fields);
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        request.send()
    };

    let wrong = post(
        form(ADMIN_EMAIL, "not the password", "/bills"),
        Some(&origin),
    )
    .await
    .unwrap();
    assert_eq!(wrong.status(), 303);
    let location = wrong.headers()[LOCATION].to_str().unwrap().to_owned();
    assert_eq!(location, "/login?error=credentials&next=%2Fbills");
    assert!(!location.contains("password") && !location.contains("admin%40"));
    assert!(wrong.headers().get(SET_COOKIE).is_none());

    let right = post(form(ADMIN_EMAIL, ADMIN_PASSWORD, "/bills"), Some(&origin))
        .await
        .unwrap();
    assert_eq!(right.status(), 303);
    assert_eq!(right.headers()[LOCATION], "/bills");
    let cookies: Vec<&str> = right
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|value| value.to_str().unwrap())
        .collect();
    let session = cookies
        .iter()
        .find(|cookie| cookie.starts_with("tally_session="))
        .expect("a session cookie");
    assert!(cookies
        .iter()
        .any(|cookie| cookie.starts_with("tally_device=")));
    let session = session.split(';').next().unwrap();
    let me = app
        .client
        .get(app.url("/api/auth/me"))
        .header("cookie", session)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200, "the form's session works");

    // Elsewhere's `next` is not followed.
    let away = post(
        form(ADMIN_EMAIL, ADMIN_PASSWORD, "//evil.example/x"),
        Some(&origin),
    )
    .await
    .unwrap();
    assert_eq!(away.headers()[LOCATION], "/tracker");

    // No header can ride on a form post, so the Origin must be this site.
    for origin in [None, Some("https://evil.example"), Some("null")] {
        let refused = post(form(ADMIN_EMAIL, ADMIN_PASSWORD, "/"), origin)
            .await
            .unwrap();
        assert_eq!(refused.status(), 403, "origin {origin:?}");
        assert!(refused.headers().get(SET_COOKIE).is_none());
    }
}
