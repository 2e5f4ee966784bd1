//! The account forms posted without JavaScript (issue 28, item 12):
//! registration, password change, token creation and the second factor
//! work as plain `POST` forms (the password and turning the second factor
//! off post to their server functions, the rest to their own routes), their answers' addresses never carry a field
//! the person typed, and what is shown once is never cached.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use reqwest::header::{ACCEPT, CACHE_CONTROL, SET_COOKIE};
use reqwest::Method;
use server::routes::policy::policy;
use server::routes::use_case::{Caller, PageCaller};
use support::browser::{location, Browser};
use support::form_refusal::{clean, refusal_in};
use support::{registration, with_admin, ADMIN_EMAIL, ADMIN_PASSWORD};
use totp_rs::{Algorithm, Secret, TOTP};

/// An account form posted to its own route as a browser sends it: the
/// cookies, this site's `Origin`, no CSRF header but the token in the
/// form's `csrf_token` field.
async fn post_form(
    browser: &Browser,
    origin: &str,
    path: &str,
    fields: &[(&str, &str)],
) -> reqwest::Response {
    let mut fields = fields.to_vec();
    fields.push(("csrf_token", &browser.csrf));
    browser
        .request_without_csrf(Method::POST, path)
        .header("origin", origin)
        .form(&fields)
        .send()
        .await
        .unwrap()
}

/// A form posting to its server function, as a browser without
/// JavaScript posts it from `page`: asking for a page, with its `Referer`.
async fn post_page_form(
    browser: &Browser,
    path: &str,
    page: &str,
    fields: &[(&str, &str)],
) -> reqwest::Response {
    let mut fields = fields.to_vec();
    fields.push(("csrf_token", &browser.csrf));
    browser
        .form_post_from(path, page)
        .form(&fields)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn registering_without_javascript_signs_in_and_a_closed_door_says_so() {
    let (app, admin) = with_admin(&[]).await;
    let visitor = Browser::open(&app.address).await;
    let fields = [
        ("request[invitation]", ""),
        ("request[email]", " form-joiner@example.com "),
        ("request[name]", "Joiner"),
        ("request[password]", "a long enough passphrase"),
        ("request[timeZone]", ""),
    ];
    let register = |fields| post_page_form(&visitor, "/api/fn/register", "/register", fields);
    let closed = register(&fields).await;
    let back = location(&closed);
    assert!(
        back.contains("/register?") && back.contains("__err="),
        "{back}"
    );
    clean(&back, &["form-joiner", "passphrase"]);
    assert!(closed.headers().get(SET_COOKIE).is_none());
    let shown = visitor.page_at(&back).await;
    assert!(shown.contains("invitation"), "the refusal is on the page");

    let opened = admin
        .request(Method::PUT, "/api/admin/registration")
        .json(&registration(true))
        .send()
        .await
        .unwrap();
    assert_eq!(opened.status(), 200);
    let weak = [
        ("request[invitation]", ""),
        ("request[email]", "form-joiner@example.com"),
        ("request[name]", ""),
        ("request[password]", "short"),
        ("request[timeZone]", ""),
    ];
    let refused = register(&weak).await;
    let back = location(&refused);
    assert!(back.contains("__err="), "{back}");
    let shown = visitor.page_at(&back).await;
    assert!(
        shown.contains(&format!(
            "use at least {} characters",
            app::domain::password_policy::MIN_CHARS
        )),
        "the password's message is on the page"
    );

    // With open registration an empty invitation is none, and the email's
    // spaces are the form's, not the address's.
    let joined = register(&fields).await;
    assert_eq!(location(&joined), "/tracker");
    let session = joined
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|value| value.to_str().unwrap().to_owned())
        .find(|cookie| cookie.starts_with("tally_session="))
        .expect("a session");
    let me = app
        .client
        .get(app.url("/api/auth/me"))
        .header("cookie", session.split(';').next().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200);
    let me: serde_json::Value = me.json().await.unwrap();
    assert_eq!(me["user"]["email"], "form-joiner@example.com");

    // From another site (which cannot know the token) the form is refused
    // before anything is created.
    let elsewhere = visitor
        .request_without_csrf(Method::POST, "/api/fn/register")
        .header("origin", "https://evil.example")
        .header(ACCEPT, "text/html")
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(elsewhere.status(), 403);
}

#[tokio::test]
async fn the_password_form_checks_the_current_one_and_comes_back_to_say_so() {
    let (app, admin) = with_admin(&[]).await;
    let fields = |current: &'static str| {
        [
            ("request[currentPassword]", current),
            ("request[newPassword]", "a brand new passphrase"),
        ]
    };
    let wrong = post_page_form(
        &admin,
        "/api/fn/account/password",
        "/profile",
        &fields("not my password"),
    )
    .await;
    let back = location(&wrong);
    assert!(
        back.contains("/profile?") && back.contains("__err="),
        "{back}"
    );
    clean(&back, &["not my password", "brand", "passphrase"]);
    let refusal = refusal_in(&back).unwrap();
    assert_eq!(refusal.field_violations()[0].field, "currentPassword");
    let shown = admin.page_at(&back).await;
    assert!(
        shown.contains("this is not your current password"),
        "the refusal is on the page"
    );
    let field = shown
        .split("id=\"password-current\"")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .unwrap();
    assert!(field.contains("aria-invalid=\"true\""), "{field}");

    let changed = post_page_form(
        &admin,
        "/api/fn/account/password",
        "/profile",
        &fields(ADMIN_PASSWORD),
    )
    .await;
    assert_eq!(location(&changed), "/profile?form=password-changed");
    let mut again = Browser::open(&app.address).await;
    assert_eq!(again.login(ADMIN_EMAIL, ADMIN_PASSWORD).await.status(), 401);
    assert_eq!(
        again
            .login(ADMIN_EMAIL, "a brand new passphrase")
            .await
            .status(),
        200
    );

    // Signed out (the session ended while the page was open), the post
    // changes nothing and sends the person to sign in, then back.
    let stranger = Browser::open(&app.address).await;
    let signed_out = post_page_form(
        &stranger,
        "/api/fn/account/password",
        "/profile",
        &[
            ("request[currentPassword]", "a brand new passphrase"),
            ("request[newPassword]", "yet another passphrase"),
        ],
    )
    .await;
    assert_eq!(location(&signed_out), "/login?next=%2Fprofile");
    assert_eq!(
        again
            .login(ADMIN_EMAIL, "a brand new passphrase")
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn a_token_made_without_javascript_is_shown_once_on_a_page_no_cache_keeps() {
    let (app, admin) = with_admin(&[]).await;
    let made = post_form(
        &admin,
        &app.address,
        "/profile/tokens",
        &[
            ("name", "nightly <backup>"),
            ("days", "30"),
            ("scopes", "read"),
            ("scopes", "admin:backup"),
        ],
    )
    .await;
    assert_eq!(made.status(), 200);
    assert_eq!(made.headers()[CACHE_CONTROL], "no-store");
    let page = made.text().await.unwrap();
    assert!(page.contains("nightly &lt;backup&gt;"), "escaped: {page}");
    let token = page
        .split("data-testid=\"new-token\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .expect("the token on the page")
        .to_owned();
    let listed: serde_json::Value = admin.get("/api/tokens").await;
    let scopes = &listed[0]["scopes"];
    assert_eq!(scopes, &serde_json::json!(["read", "admin:backup"]));
    let me = app
        .client
        .get(app.url("/api/auth/me"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200, "the shown token works");

    let nameless = post_form(
        &admin,
        &app.address,
        "/profile/tokens",
        &[("name", ""), ("scopes", "read")],
    )
    .await;
    assert_eq!(location(&nameless), "/profile?form=missing");
    // A token cannot use the form to make another.
    let by_token = app
        .client
        .post(app.url("/profile/tokens"))
        .bearer_auth(&token)
        .form(&[("name", "more"), ("scopes", "read")])
        .send()
        .await
        .unwrap();
    assert_eq!(by_token.status(), 303);
    assert!(!by_token.text().await.unwrap().contains("new-token"));
    let listed: Vec<serde_json::Value> = admin.get("/api/tokens").await;
    assert_eq!(listed.len(), 1, "the token made no other");
}

#[tokio::test]
async fn the_second_factor_is_set_up_and_turned_off_without_javascript() {
    let (app, admin) = with_admin(&[]).await;
    let started = post_form(&admin, &app.address, "/profile/two-factor", &[]).await;
    assert_eq!(started.status(), 200);
    assert_eq!(started.headers()[CACHE_CONTROL], "no-store");
    let page = started.text().await.unwrap();
    assert!(page.contains("action=\"/profile/two-factor/confirm\""));
    // Its confirm form is a form post too: it carries the CSRF token.
    assert!(
        page.contains(&format!("name=\"csrf_token\" value=\"{}\"", admin.csrf)),
        "{page}"
    );
    let secret = page
        .split("data-testid=\"totp-secret\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .expect("the key on the page");
    let bytes = Secret::Encoded(secret.to_owned()).to_bytes().unwrap();
    let app_code = TOTP::new(Algorithm::SHA1, 6, 1, 30, bytes, None, String::new())
        .unwrap()
        .generate_current()
        .unwrap();

    let wrong = post_form(
        &admin,
        &app.address,
        "/profile/two-factor/confirm",
        &[("code", "000000")],
    )
    .await;
    if app_code != "000000" {
        assert_eq!(location(&wrong), "/profile?form=wrong-code");
    }
    // A wrong code leaves the setup waiting; a new start begins it again.
    let started = post_form(&admin, &app.address, "/profile/two-factor", &[]).await;
    let page = started.text().await.unwrap();
    let secret = page
        .split("data-testid=\"totp-secret\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .unwrap();
    let bytes = Secret::Encoded(secret.to_owned()).to_bytes().unwrap();
    let app_code = TOTP::new(Algorithm::SHA1, 6, 1, 30, bytes, None, String::new())
        .unwrap()
        .generate_current()
        .unwrap();
    let confirmed = post_form(
        &admin,
        &app.address,
        "/profile/two-factor/confirm",
        &[("code", app_code.as_str())],
    )
    .await;
    assert_eq!(confirmed.status(), 200);
    assert_eq!(confirmed.headers()[CACHE_CONTROL], "no-store");
    let page = confirmed.text().await.unwrap();
    assert!(page.contains("data-testid=\"recovery-codes\""));
    let status: serde_json::Value = admin.get("/api/auth/totp").await;
    assert_eq!(status["enabled"], true);

    // Turning it off is Profile's form, posted to its server function.
    let wrong = post_page_form(
        &admin,
        "/api/fn/totp/stop",
        "/profile",
        &[("request[currentPassword]", "not my password")],
    )
    .await;
    assert!(location(&wrong).contains("__err="));
    clean(&location(&wrong), &["not my password"]);
    let status: serde_json::Value = admin.get("/api/auth/totp").await;
    assert_eq!(status["enabled"], true, "a wrong password leaves it on");
    let off = post_page_form(
        &admin,
        "/api/fn/totp/stop",
        "/profile",
        &[("request[currentPassword]", ADMIN_PASSWORD)],
    )
    .await;
    assert_eq!(location(&off), "/profile?form=two-factor-off");
    let status: serde_json::Value = admin.get("/api/auth/totp").await;
    assert_eq!(status["enabled"], false);
}

#[tokio::test]
async fn an_invitation_made_without_javascript_shows_its_link_once_and_asks_the_password() {
    let (app, admin) = with_admin(&[]).await;
    let email = "invited-by-form@example.com";

    // The password first; the code, never the email, comes back.
    let refused = post_form(
        &admin,
        &app.address,
        "/admin/invite",
        &[("request[email]", email), ("request[role]", "user")],
    )
    .await;
    assert_eq!(refused.status(), 303);
    let back = location(&refused);
    assert!(back.starts_with("/admin?form="), "{back}");
    clean(&back, &[email]);
    let pending: Vec<serde_json::Value> = admin.get("/api/admin/invitations").await;
    assert!(pending.is_empty(), "nothing made: {pending:?}");

    let made = post_form(
        &admin,
        &app.address,
        "/admin/invite",
        &[
            ("request[email]", email),
            ("request[role]", "admin"),
            ("request[currentPassword]", ADMIN_PASSWORD),
        ],
    )
    .await;
    assert_eq!(made.status(), 200);
    assert_eq!(made.headers()[CACHE_CONTROL], "no-store");
    let page = made.text().await.unwrap();
    let link = page
        .split("data-testid=\"invitation-link\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .expect("the link on the page")
        .to_owned();
    assert!(link.contains("/register?invitation="), "{link}");
    let pending: Vec<serde_json::Value> = admin.get("/api/admin/invitations").await;
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0]["email"], email);
    assert_eq!(pending[0]["role"], "admin");

    // Not for someone who is not an administrator, nor without a session.
    let sam = support::plain_user(&app, &admin, "sam-not-admin@example.com").await;
    let by_user = post_form(
        &sam,
        &app.address,
        "/admin/invite",
        &[("request[currentPassword]", "a long enough passphrase")],
    )
    .await;
    assert_eq!(location(&by_user), "/admin?form=refused");
    let nobody = Browser::open(&app.address).await;
    let signed_out = post_form(&nobody, &app.address, "/admin/invite", &[]).await;
    assert!(
        location(&signed_out).starts_with("/login?next="),
        "{signed_out:?}"
    );
    let pending: Vec<serde_json::Value> = admin.get("/api/admin/invitations").await;
    assert_eq!(pending.len(), 1, "neither made one");
}

#[tokio::test]
async fn signing_out_without_javascript_ends_the_session_and_clears_its_cookie() {
    let (app, admin) = with_admin(&[]).await;
    let sam = support::plain_user(&app, &admin, "sam-signs-out@example.com").await;
    assert_eq!(sam.status(Method::GET, "/api/auth/me").await, 200);

    let left = post_form(
        &sam,
        &app.address,
        "/profile/sign-out",
        &[("everywhere", "false")],
    )
    .await;
    assert_eq!(left.status(), 303);
    assert_eq!(location(&left), "/login");
    let cleared = left
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .any(|cookie| cookie.contains("Max-Age=0"));
    assert!(cleared, "the session cookie is cleared: {left:?}");
    assert_eq!(sam.status(Method::GET, "/api/auth/me").await, 401);
    // Signed out already: back to the sign-in page, nothing else.
    let again = post_form(&sam, &app.address, "/profile/sign-out", &[]).await;
    assert_eq!(location(&again), "/login");
    // The administrator, who did nothing, is still signed in.
    assert_eq!(admin.status(Method::GET, "/api/auth/me").await, 200);
}

/// Every account form is declared with its use case, and posted by a
/// browser its use case does not declare it changes nothing: signed out,
/// it is sent to sign in; a plain user posting an administrator's form is
/// sent back with a refusal, never to the page that shows a result once.
#[tokio::test]
async fn every_account_form_sends_a_caller_its_use_case_does_not_declare_away() {
    let (app, admin) = with_admin(&[]).await;
    let user = support::plain_user(&app, &admin, "form-walker@example.com").await;
    let stranger = Browser::open(&app.address).await;
    let forms = policy().page_forms();
    assert!(forms.len() >= 6, "{forms:?}");
    for (path, caller) in forms {
        let signed_out = post_form(&stranger, &app.address, path, &[]).await;
        match caller {
            Caller::Anyone => {
                assert!(
                    signed_out.status().as_u16() < 500,
                    "{path}: {}",
                    signed_out.status()
                );
                continue;
            }
            _ => {
                assert_eq!(signed_out.status().as_u16(), 303, "{path} signed out");
                assert!(
                    location(&signed_out).starts_with("/login"),
                    "{path} signed out went to {}",
                    location(&signed_out)
                );
            }
        }
        if matches!(caller, Caller::AdminSession | Caller::Administrator) {
            let refused = post_form(
                &user,
                &app.address,
                path,
                &[("email", "someone@example.com"), ("currentPassword", "x")],
            )
            .await;
            assert_eq!(refused.status().as_u16(), 303, "{path} for a plain user");
            assert!(
                !location(&refused).starts_with("/login"),
                "{path} for a plain user: {}",
                location(&refused)
            );
        }
    }
}

/// Every form that posts to a server function for someone signed in,
/// posted without JavaScript by a browser whose session has ended, changes
/// nothing and sends the person to sign in, then back to the page.
#[tokio::test]
async fn every_signed_in_form_sends_a_signed_out_browser_to_sign_in_and_back() {
    let app = support::spawn_app(&[]).await;
    let stranger = Browser::open(&app.address).await;
    let policy = policy();
    let mut walked = 0;
    for endpoint in policy.server_fn_endpoints() {
        let path = format!("/api/fn/{endpoint}");
        let Some(caller) = policy.server_fn_caller(&path) else {
            continue;
        };
        if !policy.is_form_action(&path) || caller.at_a_browser() == PageCaller::Anyone {
            continue;
        }
        let signed_out = post_page_form(&stranger, &path, "/bills?sort=due", &[]).await;
        assert_eq!(signed_out.status().as_u16(), 303, "{path}");
        assert_eq!(
            location(&signed_out),
            "/login?next=%2Fbills%3Fsort%3Ddue",
            "{path}"
        );
        walked += 1;
    }
    assert!(walked >= 20, "{walked} forms walked");
}
