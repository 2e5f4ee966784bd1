//! The sign-in form posted without JavaScript (issue 28, item 12; issue
//! 33, point 5): the page's form posts to the `sign-in` server function as
//! a browser does, asking for a page. The password travels in the body
//! only; the answer is a redirect whose address never carries a field the
//! person typed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use reqwest::header::{ACCEPT, LOCATION, REFERER, SET_COOKIE};
use support::form_refusal::{clean, refusal_in};
use support::{with_admin, ADMIN_EMAIL, ADMIN_PASSWORD};

/// The CSRF token this test's browser holds (cookie and field).
const TOKEN: &str = "sign-in-form-token-aaaaaaaaaaaaaaaaaaaaaaaaa";

fn form(email: &str, password: &str, next: &str) -> Vec<(&'static str, String)> {
    vec![
        ("request[email]", email.to_owned()),
        ("request[password]", password.to_owned()),
        ("next", next.to_owned()),
    ]
}

#[tokio::test]
async fn the_form_signs_in_without_javascript_and_the_address_never_carries_a_field() {
    let (app, _admin) = with_admin(&[]).await;
    // A form post as the browser sends it: the CSRF cookie the sign-in
    // page set, and the same token in the form's `csrf_token` field.
    let post = |mut fields: Vec<(&'static str, String)>,
                csrf: Option<(Option<&str>, Option<&str>)>| {
        let (cookie, field) = csrf.unwrap_or((Some(TOKEN), Some(TOKEN)));
        if let Some(field) = field {
            fields.push(("csrf_token", field.to_owned()));
        }
        let mut request = app
            .client
            .post(app.url("/api/fn/sign-in"))
            .header(ACCEPT, "text/html,application/xhtml+xml")
            .header(REFERER, app.url("/login?next=%2Fbills"))
            .form(&fields);
        if let Some(cookie) = cookie {
            request = request.header("cookie", format!("tally_csrf={cookie}"));
        }
        request.send()
    };

    let wrong = post(form(ADMIN_EMAIL, "not the password", "/bills"), None)
        .await
        .unwrap();
    assert!(wrong.status().is_redirection(), "{}", wrong.status());
    let location = wrong.headers()[LOCATION].to_str().unwrap().to_owned();
    // Back to the page it came from, the refusal's message in the address.
    assert!(
        location.starts_with(&app.url("/login?next=%2Fbills&")) && location.contains("__err="),
        "{location}"
    );
    clean(
        &location,
        &[
            "not the password",
            "not+the+password",
            "admin%40",
            ADMIN_EMAIL,
        ],
    );
    assert_eq!(refusal_in(&location).unwrap().error.code, 401);
    assert!(wrong.headers().get(SET_COOKIE).is_none());
    let page = app
        .client
        .get(&location)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("email or password is wrong"), "{page}");

    // Nothing typed: the email is named, nothing is tried.
    let empty = post(form("  ", "", "/bills"), None).await.unwrap();
    let location = empty.headers()[LOCATION].to_str().unwrap().to_owned();
    let refusal = refusal_in(&location).expect("a refusal");
    assert_eq!(refusal.field_violations()[0].field, "email");

    let right = post(form(ADMIN_EMAIL, ADMIN_PASSWORD, "/bills"), None)
        .await
        .unwrap();
    assert!(right.status().is_redirection(), "{}", right.status());
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
    let away = post(form(ADMIN_EMAIL, ADMIN_PASSWORD, "//evil.example/x"), None)
        .await
        .unwrap();
    assert_eq!(away.headers()[LOCATION], "/tracker");

    // No header can ride on a form post, so the token must be in the form
    // and match the cookie, exactly as the header would.
    for csrf in [
        (None, None),
        (Some(TOKEN), None),
        (None, Some(TOKEN)),
        (
            Some(TOKEN),
            Some("another-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
        ),
        (Some(""), Some("")),
    ] {
        let refused = post(form(ADMIN_EMAIL, ADMIN_PASSWORD, "/"), Some(csrf))
            .await
            .unwrap();
        assert_eq!(refused.status(), 403, "csrf {csrf:?}");
        assert!(refused.headers().get(SET_COOKIE).is_none());
    }
}
