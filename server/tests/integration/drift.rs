//! Price drift (issue 30): a bill charged another amount for two months in
//! a row, by at least 5 % and $1 (or the user's thresholds), against the
//! median of the last three months; "Update to" (and undo) and "Dismiss".
#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::Method;
use serde_json::{json, Value};

use crate::support;
use app::contract::bills::{BillList, BillRecord};
use app::domain::bill::BillForm;
use app::domain::date::{Date, YearMonth};
use support::browser::Browser;
use support::{pay, with_admin};

async fn add(browser: &Browser, name: &str, amount_minor: i64, anchor: Date) -> BillRecord {
    browser
        .call(
            Method::POST,
            "/api/bills",
            &BillForm {
                name: name.into(),
                amount_minor,
                cadence: "monthly".into(),
                due_day: 1,
                anchor_date: anchor.to_string(),
                ..BillForm::default()
            },
        )
        .await
        .unwrap()
        .unwrap()
}

fn first_of(month: YearMonth) -> Date {
    Date::new(month.year, month.month, 1).unwrap()
}

#[tokio::test]
async fn two_months_charged_more_is_a_drift_to_update_undo_or_dismiss() {
    let (app, admin) = with_admin(&[]).await;
    let today = Date::parse(&admin.get::<BillList>("/api/bills").await.today).unwrap();
    let now = today.year_month();
    let months = [now.previous().previous(), now.previous(), now];
    let netflix = add(&admin, "Netflix", 1549, first_of(months[0])).await;
    let power = add(&admin, "Power", 6000, first_of(months[0])).await;
    let rent = add(&admin, "Rent", 150_000, first_of(months[0])).await;
    for (month, paid) in months.iter().zip([1549, 1799, 1799]) {
        pay(&admin, netflix.id, paid, first_of(*month)).await;
    }
    for (month, paid) in months.iter().zip([6000, 7100, 7300]) {
        pay(&admin, power.id, paid, first_of(*month)).await;
    }
    // $5 more on rent is under 5 %: not a drift.
    for month in &months {
        pay(&admin, rent.id, 150_500, first_of(*month)).await;
    }

    let found = admin.json_raw("/api/bills/drift").await;
    let bills = found["bills"].as_array().unwrap();
    assert_eq!(bills.len(), 2, "{found}");
    assert_eq!(bills[0]["billId"], netflix.id);
    assert_eq!(bills[0]["name"], "Netflix");
    assert_eq!(bills[0]["expectedMinor"], 1549);
    assert_eq!(bills[0]["medianMinor"], 1799);
    assert_eq!(
        bills[0]["months"],
        json!([
            {"month": months[0].to_string(), "paidMinor": 1549},
            {"month": months[1].to_string(), "paidMinor": 1799},
            {"month": months[2].to_string(), "paidMinor": 1799},
        ])
    );
    assert_eq!(bills[1]["medianMinor"], 7100);

    // Stricter thresholds in Profile: Netflix's 16 % is no longer news.
    let mut preferences = admin.json_raw("/api/profile/preferences").await;
    assert_eq!(preferences["driftPercent"], 5);
    assert_eq!(preferences["driftMinMinor"], 100);
    preferences["driftPercent"] = json!(17);
    let saved = admin
        .request(Method::PUT, "/api/profile/preferences")
        .json(&preferences)
        .send()
        .await
        .unwrap();
    assert_eq!(saved.status(), 200);
    let found = admin.json_raw("/api/bills/drift").await;
    assert_eq!(found["bills"].as_array().unwrap().len(), 1);
    preferences["driftPercent"] = json!(0);
    let refused = admin
        .request(Method::PUT, "/api/profile/preferences")
        .json(&preferences)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.unwrap().contains("driftPercent"));
    preferences["driftPercent"] = json!(5);
    admin
        .request(Method::PUT, "/api/profile/preferences")
        .json(&preferences)
        .send()
        .await
        .unwrap();

    // Dismissed: gone for 30 days...
    let dismissed = admin
        .request(
            Method::POST,
            &format!("/api/bills/{}/drift/dismiss", power.id),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(dismissed.status(), 204);
    let found = admin.json_raw("/api/bills/drift").await;
    assert_eq!(found["bills"].as_array().unwrap().len(), 1);
    // ...unless the drift moves by another threshold.
    pay(&admin, power.id, 2000, first_of(months[1])).await;
    pay(&admin, power.id, 2000, first_of(now)).await;
    let found = admin.json_raw("/api/bills/drift").await;
    let names: Vec<&str> = found["bills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|bill| bill["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Netflix", "Power"], "{found}");

    // Update to the median, then undo through the Tracker's form.
    let accepted: Value = admin
        .call(
            Method::POST,
            &format!("/api/bills/{}/drift/accept", netflix.id),
            &json!({}),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        accepted,
        json!({"billId": netflix.id, "amountMinor": 1799, "previousMinor": 1549})
    );
    let shown: BillRecord = admin.get(&format!("/api/bills/{}", netflix.id)).await;
    assert_eq!(shown.amount_minor, 1799);
    let found = admin.json_raw("/api/bills/drift").await;
    assert!(found["bills"]
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["billId"] != netflix.id));
    let undone = admin
        .request_without_csrf(Method::POST, "/api/fn/tracker/act")
        .header("origin", app.url(""))
        .header("referer", app.url("/tracker"))
        .form(&[
            ("csrf_token", admin.csrf.clone()),
            ("act", "undo-drift".to_owned()),
            ("bill", netflix.id.to_string()),
            ("amount", "1549".into()),
        ])
        .send()
        .await
        .unwrap();
    assert!(undone.status().as_u16() < 400, "{}", undone.status());
    let shown: BillRecord = admin.get(&format!("/api/bills/{}", netflix.id)).await;
    assert_eq!(shown.amount_minor, 1549);

    // A bill that does not drift cannot be "updated".
    let refused = admin
        .request(
            Method::POST,
            &format!("/api/bills/{}/drift/accept", rent.id),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    let missing = admin
        .request(Method::POST, "/api/bills/999999/drift/dismiss")
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
}
