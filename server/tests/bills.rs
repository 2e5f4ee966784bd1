//! The bill tracker's API against a fresh database: bills, payments, debts
//! with monthly interest (also across a restart), the Tracker, and that one
//! user cannot reach another's bills.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use app::contract::account::Session;
use app::contract::bills::{
    AutopayFailure, BillList, Payment, PeriodKind, RecordPayment, Spending, Tracker,
};
use app::domain::date::YearMonth;
use app::domain::tracker::{Status, Totals};
use reqwest::Method;
use serde_json::{json, Value};
use support::browser::Browser;
use support::TestApp;

const ADMIN: &str = "admin@example.com";
const PASSWORD: &str = "correct horse battery staple";

fn vars() -> Vec<(&'static str, &'static str)> {
    vec![
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN),
        ("BOOTSTRAP_ADMIN_PASSWORD", PASSWORD),
    ]
}

async fn app() -> (TestApp, Browser) {
    support::with_admin(&[]).await
}

fn rent() -> Value {
    json!({
        "name": "Rent", "amountMinor": 150_000, "cadence": "monthly", "dueDay": 1,
        "anchorDate": "2026-01-01", "category": "Housing", "autopay": true
    })
}

fn card() -> Value {
    json!({
        "name": "Credit card", "amountMinor": 10_000, "cadence": "monthly", "dueDay": 20,
        "anchorDate": "2026-01-20", "debt": true, "balanceMinor": 100_000, "aprBasisPoints": 1200
    })
}

async fn create(browser: &Browser, body: Value) -> Value {
    let (status, bill) = browser.send(Method::POST, "/api/bills", body).await;
    assert_eq!(status, 201, "{bill}");
    bill
}

async fn pay(browser: &Browser, bill: i64, body: Value) -> (u16, Value) {
    browser
        .send(Method::POST, &format!("/api/bills/{bill}/payments"), body)
        .await
}

/// Flags (or clears) a payment as a failed autopay.
async fn flag_failed(browser: &Browser, payment: i64) -> (u16, Value) {
    browser
        .send(
            Method::PUT,
            &format!("/api/payments/{payment}/autopay-failure"),
            json!({ "failed": true }),
        )
        .await
}

/// `GET path` as a download: its `Content-Disposition` and its text.
async fn download(browser: &Browser, path: &str) -> (String, String) {
    let response = browser.request(Method::GET, path).send().await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    (disposition, response.text().await.unwrap())
}

/// The field named by an error's first violation.
fn first_field(body: &Value) -> &str {
    body["error"]["details"][0]["fieldViolations"][0]["field"]
        .as_str()
        .unwrap_or_default()
}

#[tokio::test]
async fn bills_are_created_read_edited_ended_restarted_and_deleted() {
    let (_app, browser) = app().await;
    let bill = create(&browser, rent()).await;
    let id = bill["id"].as_i64().unwrap();
    assert_eq!(bill["currency"], "USD");
    assert_eq!(bill["active"], true);
    let next_due = bill["nextDue"].as_str().unwrap();
    assert!(next_due.ends_with("-01"), "{next_due}");

    let listed = browser.json("/api/bills").await;
    assert_eq!(listed["bills"].as_array().unwrap().len(), 1);
    assert!(listed["today"].as_str().unwrap().len() == 10);

    let mut edited = rent();
    edited["amountMinor"] = json!(155_000);
    edited["dueDay"] = json!(31);
    let (status, after) = browser
        .send(Method::PUT, &format!("/api/bills/{id}"), edited)
        .await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["amountMinor"], 155_000);

    let (status, ended) = browser
        .send(
            Method::POST,
            &format!("/api/bills/{id}/deactivate"),
            json!({ "reason": "moved out" }),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(ended["active"], false);
    assert_eq!(ended["inactiveReason"], "moved out");
    assert!(ended["inactivatedAt"].is_string());
    let (_, again) = browser
        .send(
            Method::POST,
            &format!("/api/bills/{id}/reactivate"),
            json!({}),
        )
        .await;
    assert_eq!(again["active"], true);
    assert_eq!(again["inactiveReason"], Value::Null);

    assert_eq!(
        browser
            .status(Method::DELETE, &format!("/api/bills/{id}"))
            .await,
        204
    );
    assert_eq!(
        browser
            .status(Method::GET, &format!("/api/bills/{id}"))
            .await,
        404
    );
}

#[tokio::test]
async fn bad_bills_name_every_field_and_store_nothing() {
    let (_app, browser) = app().await;
    let (status, body) = browser
        .send(
            Method::POST,
            "/api/bills",
            json!({ "name": "", "amountMinor": -5, "cadence": "sometimes", "dueDay": 0, "anchorDate": "soon" }),
        )
        .await;
    assert_eq!(status, 400);
    let fields: Vec<&str> = body["error"]["details"][0]["fieldViolations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        ["name", "amountMinor", "cadence", "dueDay", "anchorDate"]
    );
    let (status, _) = browser
        .send(
            Method::POST,
            "/api/bills",
            json!({ "name": "x", "surprise": 1 }),
        )
        .await;
    assert_eq!(status, 400, "unknown fields are refused");
    assert!(browser.json("/api/bills").await["bills"]
        .as_array()
        .unwrap()
        .is_empty());

    // A malformed id in the path is a 400 in the usual JSON shape.
    for (method, path) in [
        (Method::GET, "/api/bills/abc"),
        (Method::DELETE, "/api/payments/1.5"),
    ] {
        let (status, body) = browser.send(method, path, Value::Null).await;
        assert_eq!(status, 400, "{path}");
        assert_eq!(
            body["error"]["status"], "INVALID_ARGUMENT",
            "{path}: {body}"
        );
    }
}

#[tokio::test]
async fn payments_are_recorded_flagged_and_undone() {
    let (_app, browser) = app().await;
    let bill = create(&browser, rent()).await;
    let id = bill["id"].as_i64().unwrap();
    // "Mark paid": no amount means the bill's amount, today.
    let (status, payment) = pay(&browser, id, json!({})).await;
    assert_eq!(status, 201, "{payment}");
    assert_eq!(payment["amountMinor"], 150_000);
    assert_eq!(payment["method"], "manual");
    let payment_id = payment["id"].as_i64().unwrap();

    let (status, flagged) = flag_failed(&browser, payment_id).await;
    assert_eq!(status, 200);
    assert_eq!(flagged["autopayFailure"], true);

    let (status, body) = pay(
        &browser,
        id,
        json!({ "amountMinor": 100, "paidOn": "31/01/2026" }),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(first_field(&body), "paidOn");

    let listed = browser.json(&format!("/api/bills/{id}/payments")).await;
    assert_eq!(listed["payments"].as_array().unwrap().len(), 1);
    assert_eq!(
        browser
            .status(Method::DELETE, &format!("/api/payments/{payment_id}"))
            .await,
        204
    );
    let listed = browser.json(&format!("/api/bills/{id}/payments")).await;
    assert!(listed["payments"].as_array().unwrap().is_empty());
}

/// The user's current month (dates in these tests follow the clock, as the
/// monthly accrual does).
async fn this_month(browser: &Browser) -> YearMonth {
    let today = browser.json("/api/bills").await["today"]
        .as_str()
        .unwrap()
        .to_owned();
    YearMonth::parse(&today[..7]).unwrap()
}

fn on(month: YearMonth, day: u8) -> String {
    format!("{month}-{day:02}")
}

#[tokio::test]
async fn debt_interest_is_charged_once_per_month_even_across_a_restart() {
    let (app, browser) = app().await;
    let this = this_month(&browser).await;
    let card = create(&browser, card()).await;
    let id = card["id"].as_i64().unwrap();
    assert_eq!(
        card["interestAccruedMonth"],
        this.previous().to_string(),
        "the balance is today's: this month is the first charged"
    );
    assert_eq!(
        card["interestPendingMinor"], 1000,
        "this month's, not yet charged"
    );

    let (_, first) = pay(
        &browser,
        id,
        json!({ "amountMinor": 10_000, "paidOn": on(this, 5) }),
    )
    .await;
    assert_eq!(
        first["interestDeltaMinor"], 1000,
        "1 % of 1,000.00 for the month"
    );
    let bill = browser.json(&format!("/api/bills/{id}")).await;
    assert_eq!(bill["balanceMinor"], 91_000);
    assert_eq!(bill["interestAccruedMonth"], this.to_string());
    assert_eq!(bill["interestPendingMinor"], 0);

    // Same month after a restart: no second charge.
    let app = app.restart(&vars()).await;
    let browser = Browser::signed_in(&app.address, ADMIN, PASSWORD).await;
    let (_, second) = pay(
        &browser,
        id,
        json!({ "amountMinor": 10_000, "paidOn": on(this, 20) }),
    )
    .await;
    assert_eq!(second["interestDeltaMinor"], 0);
    assert_eq!(
        browser.json(&format!("/api/bills/{id}")).await["balanceMinor"],
        81_000
    );

    // Two months later: both months are charged, compounding.
    let later = this.next().next();
    let (_, third) = pay(
        &browser,
        id,
        json!({ "amountMinor": 10_000, "paidOn": on(later, 20) }),
    )
    .await;
    assert_eq!(third["interestDeltaMinor"], 810 + 818);
    let bill = browser.json(&format!("/api/bills/{id}")).await;
    assert_eq!(bill["balanceMinor"], 81_000 + 1628 - 10_000);
    assert_eq!(bill["interestAccruedMonth"], later.to_string());

    // Undoing it gives the balance and the months back.
    let third_id = third["id"].as_i64().unwrap();
    assert_eq!(
        browser
            .status(Method::DELETE, &format!("/api/payments/{third_id}"))
            .await,
        204
    );
    let bill = browser.json(&format!("/api/bills/{id}")).await;
    assert_eq!(bill["balanceMinor"], 81_000);
    assert_eq!(bill["interestAccruedMonth"], this.to_string());

    // Paying more than is owed is refused and changes nothing.
    let (status, body) = pay(
        &browser,
        id,
        json!({ "amountMinor": 1_000_000, "paidOn": on(this, 21) }),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(first_field(&body), "amountMinor");
    assert_eq!(
        browser.json(&format!("/api/bills/{id}")).await["balanceMinor"],
        81_000
    );
}

#[tokio::test]
async fn months_that_ended_without_a_payment_are_charged_by_the_accrual() {
    let (app, browser) = app().await;
    let this = this_month(&browser).await;
    let id = create(&browser, card()).await["id"].as_i64().unwrap();
    // As if Tally had last charged the card three months ago and then been
    // switched off.
    let three_ago = this.previous().previous().previous();
    let pool = app::ssr::db::connect(&app.database_path()).await.unwrap();
    sqlx::query("UPDATE bills SET interest_accrued_month = ? WHERE id = ?")
        .bind(three_ago.to_string())
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;

    // Starting up runs the accrual: the two months since, each once.
    let app = app.restart(&vars()).await;
    let browser = Browser::signed_in(&app.address, ADMIN, PASSWORD).await;
    let mut payments = Value::Null;
    for _ in 0..100 {
        payments = browser.json(&format!("/api/bills/{id}/payments")).await["payments"].clone();
        if payments.as_array().is_some_and(|rows| rows.len() == 2) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let rows: Vec<(String, i64, String, i64)> = payments
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["paidOn"].as_str().unwrap()[..7].to_owned(),
                p["interestDeltaMinor"].as_i64().unwrap(),
                p["kind"].as_str().unwrap().to_owned(),
                p["amountMinor"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (this.previous().to_string(), 1010, "interest".to_owned(), 0),
            (
                this.previous().previous().to_string(),
                1000,
                "interest".to_owned(),
                0
            ),
        ]
    );
    let bill = browser.json(&format!("/api/bills/{id}")).await;
    assert_eq!(bill["balanceMinor"], 102_010);
    assert_eq!(bill["interestAccruedMonth"], this.previous().to_string());
    assert_eq!(
        bill["interestPendingMinor"], 1020,
        "this month, on the new balance"
    );

    // A charge is not a payment: it cannot be undone.
    let charge = payments[0]["id"].as_i64().unwrap();
    let (status, body) = browser
        .send(
            Method::DELETE,
            &format!("/api/payments/{charge}"),
            Value::Null,
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(first_field(&body), "paymentId");
}

#[tokio::test]
async fn the_tracker_shows_the_month_and_marking_paid_moves_the_totals() {
    let (_app, browser) = app().await;
    let today = browser.get::<BillList>("/api/bills").await.today;
    let day: i64 = today[8..10].parse().unwrap();
    let mut due_today = rent();
    due_today["dueDay"] = json!(day);
    due_today["anchorDate"] = json!(format!("{}-{:02}", &today[..7], day));
    let bill = create(&browser, due_today).await;
    let id = bill["id"].as_i64().unwrap();

    let tracker: Tracker = browser.get("/api/tracker").await;
    assert_eq!(tracker.today, today);
    assert_eq!(
        tracker.period.kind,
        PeriodKind::Month,
        "no pay schedule set"
    );
    let entry = &tracker.entries[0];
    assert_eq!(
        (
            entry.bill_id,
            entry.status,
            entry.name.as_str(),
            entry.category.as_str()
        ),
        (id, Status::DueSoon, "Rent", "Housing")
    );
    assert_eq!(
        tracker.totals,
        Totals {
            due_minor: 150_000,
            paid_minor: 0,
            remaining_minor: 150_000,
            overdue_minor: 0
        }
    );

    let payment: Payment = browser
        .call(
            Method::POST,
            &format!("/api/bills/{id}/payments"),
            &RecordPayment::default(),
        )
        .await
        .unwrap()
        .expect("the payment");
    assert_eq!(
        payment.amount_minor, 150_000,
        "the bill's amount by default"
    );
    let tracker: Tracker = browser.get("/api/tracker").await;
    assert_eq!(tracker.entries[0].status, Status::Paid);
    assert_eq!(tracker.totals.paid_minor, 150_000);
    assert_eq!(tracker.totals.remaining_minor, 0);

    // The autopay failed after all: the bill is not paid.
    let flagged: Payment = browser
        .call(
            Method::PUT,
            &format!("/api/payments/{}/autopay-failure", payment.id),
            &AutopayFailure { failed: true },
        )
        .await
        .unwrap()
        .expect("the payment");
    assert!(flagged.autopay_failure);
    let tracker: Tracker = browser.get("/api/tracker").await;
    assert_eq!(tracker.entries[0].status, Status::DueSoon);
    assert_eq!(tracker.totals.paid_minor, 0);
}

#[tokio::test]
async fn another_user_cannot_see_or_touch_a_bill() {
    let (app, admin) = app().await;
    let bill = create(&admin, rent()).await;
    let id = bill["id"].as_i64().unwrap();
    let (_, payment) = pay(&admin, id, json!({})).await;
    let payment_id = payment["id"].as_i64().unwrap();

    let (status, _) = admin
        .send(
            Method::PUT,
            "/api/admin/registration",
            json!({ "open": true }),
        )
        .await;
    assert_eq!(status, 200);
    let mut bea = Browser::open(&app.address).await;
    let registered = bea
        .register(json!({ "email": "bea@example.com", "name": "Bea", "password": PASSWORD }))
        .await;
    assert_eq!(registered.status(), 200);

    for (method, path, body) in [
        (Method::GET, format!("/api/bills/{id}"), json!(null)),
        (Method::PUT, format!("/api/bills/{id}"), rent()),
        (Method::DELETE, format!("/api/bills/{id}"), json!(null)),
        (
            Method::POST,
            format!("/api/bills/{id}/deactivate"),
            json!({}),
        ),
        (
            Method::POST,
            format!("/api/bills/{id}/reactivate"),
            json!({}),
        ),
        (
            Method::GET,
            format!("/api/bills/{id}/payments"),
            json!(null),
        ),
        (Method::POST, format!("/api/bills/{id}/payments"), json!({})),
        (
            Method::DELETE,
            format!("/api/payments/{payment_id}"),
            json!(null),
        ),
        (
            Method::PUT,
            format!("/api/payments/{payment_id}/autopay-failure"),
            json!({ "failed": true }),
        ),
    ] {
        let (status, answer) = bea.send(method.clone(), &path, body).await;
        assert_eq!(status, 404, "{method} {path}: {answer}");
    }
    assert!(bea.json("/api/bills").await["bills"]
        .as_array()
        .unwrap()
        .is_empty());
    assert!(bea.json("/api/tracker").await["entries"]
        .as_array()
        .unwrap()
        .is_empty());
    let mine = admin.json(&format!("/api/bills/{id}")).await;
    assert_eq!(mine["active"], true);
    assert_eq!(mine["amountMinor"], 150_000);
    assert_eq!(
        admin.json(&format!("/api/bills/{id}/payments")).await["payments"][0]["autopayFailure"],
        false
    );
}

#[tokio::test]
async fn bills_and_payments_export_to_csv_and_json_and_import_into_another_account_all_or_nothing()
{
    let (app, admin) = app().await;
    let this = this_month(&admin).await;
    create(&admin, rent()).await;
    let card = create(&admin, card()).await;
    pay(
        &admin,
        card["id"].as_i64().unwrap(),
        json!({ "amountMinor": 5000, "paidOn": on(this, 5) }),
    )
    .await;

    let (disposition, csv) = download(&admin, "/api/data/bills.csv").await;
    assert!(disposition.contains("attachment"), "{disposition}");
    assert!(csv.starts_with("name,amount,currency,cadence"), "{csv}");
    assert!(csv.contains("Rent,1500.00,USD,monthly"), "{csv}");
    let json_export: Value = admin.json("/api/data/export.json").await;
    assert_eq!(json_export["bills"].as_array().unwrap().len(), 2);
    assert_eq!(json_export["payments"].as_array().unwrap().len(), 1);
    let (disposition, payments) = download(&admin, "/api/data/payments.csv").await;
    assert!(disposition.contains("tally-payments-"), "{disposition}");
    assert_eq!(
        payments.lines().collect::<Vec<_>>(),
        [
            "bill,paid_on,amount,currency,method,kind,interest_charged,autopay_failed",
            format!(
                "Credit card,{},50.00,USD,manual,payment,10.00,false",
                on(this, 5)
            )
            .as_str(),
        ]
    );

    let (status, _) = admin
        .send(
            Method::PUT,
            "/api/admin/registration",
            json!({ "open": true }),
        )
        .await;
    assert_eq!(status, 200);
    let mut bea = Browser::open(&app.address).await;
    bea.register(json!({ "email": "bea@example.com", "name": "Bea", "password": PASSWORD }))
        .await;
    let post = |path: &'static str, body: String| {
        bea.request(Method::POST, path)
            .header("content-type", "text/csv")
            .body(body)
            .send()
    };

    // A file with one bad row: the preview names it, the import refuses
    // the whole file.
    let broken = format!("{csv}Broken,12.345,USD,monthly,1,1,2026-01-01,,,false,false,false,,,\n");
    let preview: Value = post("/api/data/import/preview", broken.clone())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (preview["valid"].as_i64(), preview["invalid"].as_i64()),
        (Some(2), Some(1))
    );
    assert_eq!(preview["rows"][2]["line"], 4);
    assert_eq!(preview["rows"][2]["problems"][0]["field"], "amountMinor");
    let refused = post("/api/data/import", broken).await.unwrap();
    assert_eq!(refused.status(), 400);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(first_field(&body), "rows[2].amountMinor");
    assert!(bea.json("/api/bills").await["bills"]
        .as_array()
        .unwrap()
        .is_empty());

    let imported = post("/api/data/import", csv.clone()).await.unwrap();
    assert_eq!(imported.status(), 201);
    assert_eq!(imported.json::<Value>().await.unwrap()["imported"], 2);
    let mine = bea.json("/api/bills").await;
    let names: Vec<&str> = mine["bills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"Rent") && names.contains(&"Credit card"));
    let imported_card = mine["bills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "Credit card")
        .unwrap();
    assert_eq!(
        imported_card["balanceMinor"], 96_000,
        "the balance as exported"
    );
    assert_eq!(imported_card["aprBasisPoints"], 1200);
    // Re-exporting gives the same file.
    let (_, again) = download(&bea, "/api/data/bills.csv").await;
    assert_eq!(again, csv);
}

#[tokio::test]
async fn the_session_endpoint_says_who_is_signed_in_without_an_error() {
    let (app, admin) = app().await;
    let anonymous: Value = reqwest::get(app.url("/api/auth/session"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(anonymous, json!({ "user": null }));
    let signed_in: Session = admin.get("/api/auth/session").await;
    assert_eq!(
        signed_in.user.map(|user| user.email).as_deref(),
        Some(ADMIN)
    );
}

#[tokio::test]
async fn spending_is_summed_per_category_and_month_without_failed_autopays() {
    let (_app, browser) = app().await;
    let today = browser.json("/api/bills").await["today"]
        .as_str()
        .unwrap()
        .to_owned();
    let rent = create(&browser, rent()).await["id"].as_i64().unwrap();
    let mut water = rent_like("Water", "Utilities", 4250);
    water["anchorDate"] = json!("2026-01-01");
    let water = create(&browser, water).await["id"].as_i64().unwrap();
    pay(&browser, rent, json!({ "paidOn": today })).await;
    pay(&browser, water, json!({ "paidOn": today })).await;
    let (_, failed) = pay(&browser, water, json!({ "paidOn": today })).await;
    let failed = failed["id"].as_i64().unwrap();
    flag_failed(&browser, failed).await;

    let report: Spending = browser.get("/api/reports/spending").await;
    assert_eq!(report.months.len(), 6);
    assert_eq!(report.months[5], today[..7]);
    let totals = |name: &str| {
        report
            .categories
            .iter()
            .find(|c| c.name == name)
            .unwrap()
            .totals_minor
            .clone()
    };
    assert_eq!(totals("Housing"), [0, 0, 0, 0, 0, 150_000]);
    assert_eq!(
        totals("Utilities"),
        [0, 0, 0, 0, 0, 4250],
        "the failed autopay is not spending"
    );
}

fn rent_like(name: &str, category: &str, amount: i64) -> Value {
    let mut bill = rent();
    bill["name"] = json!(name);
    bill["category"] = json!(category);
    bill["amountMinor"] = json!(amount);
    bill
}

#[tokio::test]
async fn preferences_are_checked_and_change_today_and_formatting() {
    let (app, browser) = app().await;
    let (status, body) = browser
        .send(
            Method::PUT,
            "/api/profile/preferences",
            json!({ "locale": "xx-XX", "currency": "dollars", "timeZone": "Mars/Olympus" }),
        )
        .await;
    assert_eq!(status, 400);
    let fields: Vec<&str> = body["error"]["details"][0]["fieldViolations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["locale", "currency", "timeZone"]);

    let (status, saved) = browser
        .send(
            Method::PUT,
            "/api/profile/preferences",
            json!({ "locale": "de-DE", "currency": "eur", "timeZone": "Pacific/Kiritimati" }),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(
        saved,
        json!({ "locale": "de-DE", "currency": "EUR", "timeZone": "Pacific/Kiritimati",
                "paySchedule": "", "payday": "" })
    );
    let bills = browser.json("/api/bills").await;
    assert_eq!(
        (bills["locale"].as_str(), bills["currency"].as_str()),
        (Some("de-DE"), Some("EUR"))
    );
    // UTC+14: "today" there is never behind today in UTC.
    let utc_today = app::ssr::bills::today_for(
        &app::ssr::db::connect(&app.database_path()).await.unwrap(),
        999,
    )
    .await
    .unwrap();
    assert!(bills["today"].as_str().unwrap() >= utc_today.to_string().as_str());
}

#[tokio::test]
async fn a_pay_schedule_gives_the_tracker_pay_periods() {
    let (_app, browser) = app().await;
    let preferences = |extra: Value| {
        let mut body = json!({ "locale": "en-US", "currency": "USD", "timeZone": "UTC" });
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    for (extra, field) in [
        (json!({ "paySchedule": "fortnightly" }), "paySchedule"),
        (json!({ "paySchedule": "biweekly" }), "payday"),
        (
            json!({ "paySchedule": "weekly", "payday": "next friday" }),
            "payday",
        ),
    ] {
        let (status, body) = browser
            .send(Method::PUT, "/api/profile/preferences", preferences(extra))
            .await;
        assert_eq!((status, first_field(&body)), (400, field), "{body}");
    }
    for query in ["period=pay", "period=fortnight"] {
        let (status, body) = browser
            .send(Method::GET, &format!("/api/tracker?{query}"), Value::Null)
            .await;
        assert_eq!((status, first_field(&body)), (400, "period"), "{body}");
    }
    assert_eq!(
        browser.json("/api/tracker").await["period"]["kind"],
        "month"
    );

    // Paid every two weeks, today being a payday: the period is today and
    // the 13 days after it.
    let today = browser.json("/api/bills").await["today"]
        .as_str()
        .unwrap()
        .to_owned();
    let today = app::domain::date::Date::parse(&today).unwrap();
    let (status, saved) = browser
        .send(
            Method::PUT,
            "/api/profile/preferences",
            preferences(json!({ "paySchedule": "biweekly", "payday": today.to_string() })),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["paySchedule"], "biweekly");
    let due_in = |name: &str, days: i64| {
        let due = today.add_days(days).unwrap();
        json!({ "name": name, "amountMinor": 1000, "cadence": "custom_days",
                "cadenceInterval": 90, "dueDay": due.day(), "anchorDate": due.to_string() })
    };
    create(&browser, due_in("Inside", 13)).await;
    create(&browser, due_in("After", 14)).await;
    let tracker = browser.json("/api/tracker").await;
    assert_eq!(
        tracker["period"],
        json!({ "kind": "pay", "first": today.to_string(),
                "last": today.add_days(13).unwrap().to_string() })
    );
    assert_eq!(tracker["paySchedule"], "biweekly");
    let names: Vec<&str> = tracker["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Inside"]);
    assert_eq!(tracker["totals"]["dueMinor"], 1000);
    let month = browser.json("/api/tracker?period=month").await;
    assert_eq!(month["period"]["kind"], "month");
    assert!(month["period"]["first"].as_str().unwrap().ends_with("-01"));

    // Clearing the schedule brings back the month.
    let (status, _) = browser
        .send(
            Method::PUT,
            "/api/profile/preferences",
            preferences(json!({})),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        browser.json("/api/tracker").await["period"]["kind"],
        "month"
    );
}

#[tokio::test]
async fn the_tracker_pages_send_a_signed_out_visitor_to_sign_in_and_back() {
    let (app, browser) = app().await;
    for path in ["/tracker", "/bills/12?x=1", "/subscriptions", "/data"] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 303, "{path}");
        let location = response.headers()["location"].to_str().unwrap();
        assert!(location.starts_with("/login?next=%2F"), "{location}");
    }
    assert_eq!(
        app.client
            .get(app.url("/tracker"))
            .send()
            .await
            .unwrap()
            .headers()["location"],
        "/login?next=%2Ftracker"
    );
    // Signed in, the page renders.
    let page = browser
        .request(Method::GET, "/tracker")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    // Public pages stay public.
    assert_eq!(
        app.client
            .get(app.url("/features"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

#[tokio::test]
async fn a_subscription_links_to_a_known_catalog_service() {
    let (_app, browser) = app().await;
    let catalog = browser.json("/api/catalog").await;
    let services = catalog["services"].as_array().unwrap();
    assert!(services.len() > 300, "{}", services.len());
    let netflix = services.iter().find(|s| s["name"] == "Netflix").unwrap()["id"]
        .as_i64()
        .unwrap();

    let mut bill = rent_like("Netflix", "Streaming", 799);
    bill["subscription"] = json!(true);
    bill["catalogId"] = json!(netflix);
    let linked = create(&browser, bill.clone()).await;
    assert_eq!(linked["catalogId"], netflix);

    bill["catalogId"] = json!(999_999);
    let (status, body) = browser.send(Method::POST, "/api/bills", bill).await;
    assert_eq!(status, 400);
    assert_eq!(first_field(&body), "catalogId");
}
