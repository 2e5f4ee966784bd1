//! The CSRF token in a hidden form field (issue 30, pinned): a page with
//! forms that work without JavaScript renders the token into each form,
//! setting the `tally_csrf` cookie when the browser had none, and a form
//! post is checked exactly like the `X-CSRF-Token` header: double submit
//! against the cookie. The `Origin` alone no longer lets a post through.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::Method;
use support::with_admin;

/// The `tally_csrf` value an answer sets, if it sets one.
fn csrf_cookie(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(|cookie| cookie.strip_prefix("tally_csrf="))
        .map(|rest| rest.split(';').next().unwrap_or_default().to_owned())
}

#[tokio::test]
async fn a_page_with_forms_sets_the_cookie_once_and_renders_the_token_into_its_forms() {
    let (app, _admin) = with_admin(&[]).await;
    let first = app.client.get(app.url("/login")).send().await.unwrap();
    assert_eq!(first.status(), 200);
    let token = csrf_cookie(&first).expect("the sign-in page sets a CSRF cookie");
    assert_eq!(token.len(), 43);
    let html = first.text().await.unwrap();
    assert!(
        html.contains(&format!("name=\"csrf_token\" value=\"{token}\"")),
        "the sign-in form carries the token"
    );

    // A browser that has one keeps it, and its forms carry that one.
    let again = app
        .client
        .get(app.url("/login"))
        .header(COOKIE, format!("tally_csrf={token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(csrf_cookie(&again), None);
    assert!(again
        .text()
        .await
        .unwrap()
        .contains(&format!("value=\"{token}\"")));

    // A cookie that is not one Tally issues is replaced, never echoed.
    let odd = app
        .client
        .get(app.url("/login"))
        .header(COOKIE, "tally_csrf=%22%3E%3Cscript%3E")
        .send()
        .await
        .unwrap();
    let replaced = csrf_cookie(&odd).expect("a fresh token");
    let html = odd.text().await.unwrap();
    assert!(html.contains(&format!("value=\"{replaced}\"")));
    assert!(!html.contains("%3Cscript"));

    // The marketing pages have no such form and stay cacheable: no cookie.
    let home = app.client.get(app.url("/")).send().await.unwrap();
    assert_eq!(csrf_cookie(&home), None);
}

#[tokio::test]
async fn a_tracker_form_post_needs_the_token_in_its_field_or_header_whatever_its_origin() {
    let (app, admin) = with_admin(&[]).await;
    let post = |fields: Vec<(&'static str, String)>, header: Option<&str>| {
        let mut request = admin
            .request_without_csrf(Method::POST, "/api/fn/tracker/act")
            .header("origin", app.url(""))
            .header("referer", app.url("/tracker"))
            .form(&fields);
        if let Some(header) = header {
            request = request.header("x-csrf-token", header);
        }
        request.send()
    };
    let pin = |token: Option<&str>| {
        let mut fields = vec![("act", "pin-due".to_owned()), ("bill", "0".to_owned())];
        if let Some(token) = token {
            fields.push(("csrf_token", token.to_owned()));
        }
        fields
    };

    // This site's Origin alone is not enough any more.
    let refused = post(pin(None), None).await.unwrap();
    assert_eq!(refused.status(), 403);
    let wrong = post(pin(Some("not-the-token")), None).await.unwrap();
    assert_eq!(wrong.status(), 403);
    assert_eq!(admin.json_raw("/api/tracker").await["pinDue"], false);

    // The token in the field, as the page renders it, is. (A bill due this
    // month gives the Tracker its rows and forms.)
    let today = app::domain::date::Date::parse(
        &admin
            .get::<app::contract::bills::BillList>("/api/bills")
            .await
            .today,
    )
    .unwrap();
    let last = today.year_month().last_day().unwrap();
    let added = admin
        .request(Method::POST, "/api/bills")
        .json(&serde_json::json!({
            "name": "Rent", "amountMinor": 150000, "cadence": "monthly",
            "dueDay": last.day(), "anchorDate": last.to_string(),
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(added.status(), 201);
    let page = admin.request(Method::GET, "/tracker").send().await.unwrap();
    let html = page.text().await.unwrap();
    assert!(
        html.contains(&format!("name=\"csrf_token\" value=\"{}\"", admin.csrf)),
        "the Tracker's forms carry the browser's token"
    );
    let accepted = post(pin(Some(&admin.csrf)), None).await.unwrap();
    assert!(accepted.status().as_u16() < 400, "{}", accepted.status());
    assert_eq!(admin.json_raw("/api/tracker").await["pinDue"], true);

    // And so is the header (what the page's script sends).
    let unpin = vec![("act", "unpin-due".to_owned()), ("bill", "0".to_owned())];
    let by_header = post(unpin, Some(&admin.csrf)).await.unwrap();
    assert!(by_header.status().as_u16() < 400, "{}", by_header.status());
    assert_eq!(admin.json_raw("/api/tracker").await["pinDue"], false);
}
