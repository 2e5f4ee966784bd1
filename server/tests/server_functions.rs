//! The pages' writing server functions: JSON POSTs under `/api/fn/` with
//! the same rules as the REST API (a CSRF token, the signed-in user's own
//! data only, a 1 MiB body, the same error body and statuses), over the
//! same services (a payment made here is the one `/api/tracker` counts).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use app::contract::bills::{BillList, BillRecord, Payment, Tracker};
use app::contract::error::ErrorBody;
use app::domain::bill::BillForm;
use reqwest::Method;
use serde_json::json;
use support::browser::Browser;
use support::with_admin;

async fn due_today(browser: &Browser, name: &str) -> BillRecord {
    let today = browser.get::<BillList>("/api/bills").await.today;
    let form = BillForm {
        name: name.into(),
        amount_minor: 4_250,
        cadence: "monthly".into(),
        due_day: today[8..10].parse().unwrap(),
        anchor_date: today,
        ..BillForm::default()
    };
    browser
        .call(Method::POST, "/api/bills", &form)
        .await
        .unwrap()
        .unwrap()
}

async fn post(browser: &Browser, path: &str, body: serde_json::Value) -> reqwest::Response {
    browser
        .request(Method::POST, path)
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn marking_paid_through_the_server_function_is_what_the_tracker_counts() {
    let (_app, admin) = with_admin(&[]).await;
    let water = due_today(&admin, "Water").await;

    let response = post(
        &admin,
        "/api/fn/pay-bill",
        json!({"bill": water.id, "payment": {}}),
    )
    .await;
    assert_eq!(response.status(), 200);
    let payment: Payment = response.json().await.unwrap();
    assert_eq!(payment.amount_minor, 4_250, "no amount is the bill's");
    let tracker: Tracker = admin.get("/api/tracker").await;
    assert_eq!(tracker.totals.paid_minor, 4_250);

    let response = post(
        &admin,
        "/api/fn/autopay-failure",
        json!({"payment": payment.id, "failed": true}),
    )
    .await;
    assert_eq!(response.status(), 200);
    assert!(response.json::<Payment>().await.unwrap().autopay_failure);

    let response = post(
        &admin,
        "/api/fn/undo-payment",
        json!({"payment": payment.id}),
    )
    .await;
    assert_eq!(response.status(), 200);
    let tracker: Tracker = admin.get("/api/tracker").await;
    assert_eq!(tracker.totals.paid_minor, 0);
}

#[tokio::test]
async fn writing_server_functions_keep_the_apis_rules() {
    let (app, admin) = with_admin(&[]).await;
    let water = due_today(&admin, "Water").await;
    let body = json!({"bill": water.id, "payment": {}});

    // No CSRF token: refused before anything is written.
    let response = admin
        .request_without_csrf(Method::POST, "/api/fn/pay-bill")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    let tracker: Tracker = admin.get("/api/tracker").await;
    assert_eq!(tracker.totals.paid_minor, 0);

    // Signed out: 401, in the API's error body.
    let anonymous = Browser::open(&app.address).await;
    let response = post(&anonymous, "/api/fn/pay-bill", body.clone()).await;
    assert_eq!(response.status(), 401);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.error.status, "UNAUTHENTICATED");

    // Nobody else's bill, and a bad date names its field.
    let response = post(
        &admin,
        "/api/fn/pay-bill",
        json!({"bill": 9_999, "payment": {}}),
    )
    .await;
    assert_eq!(response.status(), 404);
    let response = post(
        &admin,
        "/api/fn/pay-bill",
        json!({"bill": water.id, "payment": {"paidOn": "yesterday"}}),
    )
    .await;
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "paidOn");

    // A body over 1 MiB is not read.
    let huge = json!({"bill": water.id, "payment": {"method": "x".repeat(1_100_000)}});
    let response = post(&admin, "/api/fn/pay-bill", huge).await;
    assert_eq!(response.status(), 413);
    let tracker: Tracker = admin.get("/api/tracker").await;
    assert_eq!(tracker.totals.paid_minor, 0);
}
