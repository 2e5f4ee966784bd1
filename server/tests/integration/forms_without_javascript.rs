//! The bill form, a bill's payment form and the public forms posted as a
//! browser without JavaScript posts them (issue 33, point 5): the form's
//! fields, urlencoded, asking for a page. A success opens the page it
//! belongs on; a refusal sends the browser back to the form, which the
//! server renders with each field's message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use reqwest::header::{ACCEPT, REFERER};
use reqwest::{Method, StatusCode};
use support::browser::{location, Browser};
use support::with_admin;

const PAGE: &str = "text/html,application/xhtml+xml";

#[tokio::test]
async fn a_bill_posted_without_javascript_opens_its_page_or_comes_back_with_the_messages() {
    let (_app, admin) = with_admin(&[]).await;
    // The page renders the form (opened by its link) with the CSRF field.
    let form_page = admin.page_at("/bills?new").await;
    assert!(form_page.contains("name=\"bill[amount]\""), "{form_page}");
    assert!(form_page.contains("action=\"/api/fn/save-bill\""));
    assert!(form_page.contains(&format!("name=\"csrf_token\" value=\"{}\"", admin.csrf)));
    // Monthly is chosen in the HTML itself, not only by the script.
    assert!(
        form_page.contains("<option value=\"monthly\" selected"),
        "{form_page}"
    );

    let today = admin
        .get::<app::contract::bills::BillList>("/api/bills")
        .await
        .today;
    let post = |amount: &str| {
        admin
            .form_post_from("/api/fn/save-bill", "/bills?new")
            .form(&[
                ("csrf_token", admin.csrf.clone()),
                ("bill[name]", "Water".to_owned()),
                ("bill[amount]", amount.to_owned()),
                ("bill[currency]", "USD".to_owned()),
                ("bill[cadence]", "monthly".to_owned()),
                ("bill[cadence_interval]", "1".to_owned()),
                ("bill[anchor_date]", today.clone()),
                ("bill[category]", "Utilities".to_owned()),
                ("bill[notes]", String::new()),
                ("bill[catalog]", String::new()),
                ("bill[catalog_id]", String::new()),
            ])
            .send()
    };

    let refused = post("42.505").await.unwrap();
    let back = location(&refused);
    assert!(back.contains("/bills?new"), "{back}");
    assert!(back.contains("__err="), "{back}");
    let shown = admin.page_at(&back).await;
    assert!(
        shown.contains("use at most 2 digits after the decimal point"),
        "the amount's message is on the page"
    );
    assert!(shown.contains("aria-invalid=\"true\""));
    assert!(admin
        .get::<app::contract::bills::BillList>("/api/bills")
        .await
        .bills
        .is_empty());

    let stored = post("42.50").await.unwrap();
    let bill_page = location(&stored);
    let listed = admin
        .get::<app::contract::bills::BillList>("/api/bills")
        .await
        .bills;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].amount_minor, 4250);
    assert_eq!(bill_page, format!("/bills/{}", listed[0].id));
    assert!(admin.page_at(&bill_page).await.contains("Water"));

    // The bill page's payment form: a refused amount comes back to the
    // page with its message, a good one is recorded.
    let id = listed[0].id;
    let record = |amount: &str| {
        admin
            .form_post_from("/api/fn/pay-bill", &bill_page)
            .form(&[
                ("csrf_token", admin.csrf.clone()),
                ("bill", id.to_string()),
                ("payment[amount]", amount.to_owned()),
                ("payment[paid_on]", String::new()),
                ("payment[method]", "cash".to_owned()),
            ])
            .send()
    };
    let refused = record("4.255").await.unwrap();
    let back = location(&refused);
    assert!(
        back.contains(&bill_page) && back.contains("__err="),
        "{back}"
    );
    assert!(admin
        .page_at(&back)
        .await
        .contains("use at most 2 digits after the decimal point"));
    let paid = record("40").await.unwrap();
    let after = location(&paid);
    assert!(
        after.contains(&bill_page) && !after.contains("__err"),
        "{after}"
    );
    let payments: app::contract::bills::Payments =
        admin.get(&format!("/api/bills/{id}/payments")).await;
    assert_eq!(payments.payments.len(), 1);
    assert_eq!(payments.payments[0].amount_minor, 4000);
    assert_eq!(payments.payments[0].method, "cash");

    // Without the token in the field, nothing is stored.
    let forged = admin
        .request_without_csrf(Method::POST, "/api/fn/save-bill")
        .header(ACCEPT, PAGE)
        .form(&[("bill[name]", "Forged"), ("bill[amount]", "1")])
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_lead_posted_without_javascript_is_thanked_or_comes_back_with_the_messages() {
    let (app, _admin) = with_admin(&[]).await;
    let visitor = Browser::open(&app.address).await;
    let form_page = app.client.get(app.url("/contact")).send().await.unwrap();
    let html = form_page.text().await.unwrap();
    assert!(html.contains("action=\"/api/fn/contact/lead\""), "{html}");
    assert!(html.contains("name=\"form[email]\""));

    // A browser with no cookies at all: the marketing page gave it none.
    let post = |email: &'static str| {
        app.client
            .post(app.url("/api/fn/contact/lead"))
            .header(ACCEPT, PAGE)
            .header(REFERER, app.url("/contact"))
            .form(&[
                ("form[name]", "Margaret"),
                ("form[email]", email),
                ("form[company]", ""),
                ("form[phone]", ""),
                ("form[message]", "We track forty bills."),
                ("form[captchaToken]", ""),
            ])
            .send()
    };
    let refused = post("margaret@").await.unwrap();
    let back = location(&refused);
    assert!(
        back.contains("/contact?") && back.contains("__err="),
        "{back}"
    );
    let shown = visitor.page_at(&back).await;
    assert!(
        shown.contains("enter an address like name@example.com"),
        "the email's message is on the page"
    );

    let sent = post("margaret@example.com").await.unwrap();
    let thanked = location(&sent);
    assert!(thanked.starts_with("/contact?sent="), "{thanked}");
    let shown = visitor.page_at(&thanked).await;
    assert!(shown.contains("Thank you, your message is with us."));
}
