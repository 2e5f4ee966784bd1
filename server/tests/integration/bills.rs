//! The bill tracker's API against a fresh database: bills, payments, debts
//! with monthly interest (also across a restart), the Tracker, and that one
//! user cannot reach another's bills. Requests and answers are the
//! contract's types, so a change that breaks a client breaks this at
//! compile time; raw JSON is sent only where a test means to send what the
//! contract cannot express (unknown fields, wrong types).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::{Register, Session};
use app::contract::admin::RegistrationSetting;
use app::contract::bills::{
    AutopayFailure, BillList, BillRecord, Catalog, Deactivation, Payment, Payments, PeriodKind,
    RecordPayment, Spending, Tracker,
};
use app::contract::data::{Export, ImportPreview, Imported};
use app::contract::error::ErrorBody;
use app::contract::preferences::{Preferences, UpdatePreferences};
use app::domain::bill::BillForm;
use app::domain::date::{Date, YearMonth};
use app::domain::tracker::{Status, Totals};
use reqwest::Method;
use serde_json::json;
use support::browser::Browser;
use support::TestApp;
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

fn vars() -> Vec<(&'static str, &'static str)> {
    vec![
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ]
}

async fn app() -> (TestApp, Browser) {
    support::with_admin(&[]).await
}

fn rent() -> BillForm {
    BillForm {
        name: "Rent".into(),
        amount_minor: 150_000,
        cadence: "monthly".into(),
        due_day: 1,
        anchor_date: "2026-01-01".into(),
        category: "Housing".into(),
        autopay: true,
        ..BillForm::default()
    }
}

fn card() -> BillForm {
    BillForm {
        name: "Credit card".into(),
        amount_minor: 10_000,
        cadence: "monthly".into(),
        due_day: 20,
        anchor_date: "2026-01-20".into(),
        debt: true,
        balance_minor: Some(100_000),
        apr_basis_points: Some(1200),
        ..BillForm::default()
    }
}

fn rent_like(name: &str, category: &str, amount: i64) -> BillForm {
    BillForm {
        name: name.into(),
        category: category.into(),
        amount_minor: amount,
        ..rent()
    }
}

type Refusal = (u16, ErrorBody);

/// A call whose answer has a body (not 204).
async fn answer<B: serde::Serialize, T: serde::de::DeserializeOwned>(
    browser: &Browser,
    method: Method,
    path: &str,
    body: &B,
) -> Result<T, Refusal> {
    browser
        .call(method.clone(), path, body)
        .await
        .map(|found| found.unwrap_or_else(|| panic!("{method} {path} answered no body")))
}

async fn create(browser: &Browser, form: BillForm) -> BillRecord {
    answer(browser, Method::POST, "/api/bills", &form)
        .await
        .unwrap_or_else(|refusal| panic!("creating a bill: {refusal:?}"))
}

async fn pay(browser: &Browser, bill: i64, request: RecordPayment) -> Result<Payment, Refusal> {
    answer(
        browser,
        Method::POST,
        &format!("/api/bills/{bill}/payments"),
        &request,
    )
    .await
}

fn paid(amount_minor: Option<i64>, paid_on: Option<String>) -> RecordPayment {
    RecordPayment {
        amount_minor,
        paid_on,
        method: String::new(),
        for_occurrence: None,
    }
}

/// Flags (or clears) a payment as a failed autopay.
async fn flag_failed(browser: &Browser, payment: i64) -> Result<Payment, Refusal> {
    answer(
        browser,
        Method::PUT,
        &format!("/api/payments/{payment}/autopay-failure"),
        &AutopayFailure { failed: true },
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

/// Every field an error names, in order.
fn fields(error: &ErrorBody) -> Vec<String> {
    error
        .field_violations()
        .into_iter()
        .map(|violation| violation.field)
        .collect()
}

/// The field named by an error's first violation.
fn first_field(error: &ErrorBody) -> String {
    fields(error).into_iter().next().unwrap_or_default()
}

async fn bill(browser: &Browser, id: i64) -> BillRecord {
    browser.get(&format!("/api/bills/{id}")).await
}

async fn payments(browser: &Browser, id: i64) -> Vec<Payment> {
    browser
        .get::<Payments>(&format!("/api/bills/{id}/payments"))
        .await
        .payments
}

/// Bea's registration, once open registration is on.
fn bea_registers() -> Register {
    Register {
        invitation: None,
        email: "bea@example.com".into(),
        name: "Bea".into(),
        password: ADMIN_PASSWORD.into(),
        time_zone: None,
    }
}

async fn open_registration(admin: &Browser) {
    let setting: RegistrationSetting = answer(
        admin,
        Method::PUT,
        "/api/admin/registration",
        &support::registration(true),
    )
    .await
    .unwrap();
    assert!(setting.open);
}

#[tokio::test]
async fn bills_are_created_read_edited_ended_restarted_and_deleted() {
    let (_app, browser) = app().await;
    let made = create(&browser, rent()).await;
    let id = made.id;
    assert_eq!(made.currency, "USD");
    assert!(made.active);
    let next_due = made.next_due.unwrap();
    assert!(next_due.ends_with("-01"), "{next_due}");

    let listed: BillList = browser.get("/api/bills").await;
    assert_eq!(listed.bills.len(), 1);
    assert_eq!(listed.today.len(), 10);

    let edited = BillForm {
        amount_minor: 155_000,
        due_day: 31,
        ..rent()
    };
    let after: BillRecord = answer(&browser, Method::PUT, &format!("/api/bills/{id}"), &edited)
        .await
        .unwrap();
    assert_eq!(after.amount_minor, 155_000);

    let ended: BillRecord = answer(
        &browser,
        Method::POST,
        &format!("/api/bills/{id}/deactivate"),
        &Deactivation {
            reason: "moved out".into(),
        },
    )
    .await
    .unwrap();
    assert!(!ended.active);
    assert_eq!(ended.inactive_reason.as_deref(), Some("moved out"));
    assert!(ended.inactivated_at.is_some());
    let again: BillRecord = answer(
        &browser,
        Method::POST,
        &format!("/api/bills/{id}/reactivate"),
        &json!({}),
    )
    .await
    .unwrap();
    assert!(again.active);
    assert_eq!(again.inactive_reason, None);

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
    let bad = BillForm {
        name: String::new(),
        amount_minor: -5,
        cadence: "sometimes".into(),
        due_day: 0,
        anchor_date: "soon".into(),
        ..BillForm::default()
    };
    let (status, error) = browser
        .call::<_, BillRecord>(Method::POST, "/api/bills", &bad)
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(
        fields(&error),
        ["name", "amountMinor", "cadence", "dueDay", "anchorDate"]
    );
    // Not expressible in the contract: a field it does not have.
    let (status, _) = browser
        .call::<_, BillRecord>(
            Method::POST,
            "/api/bills",
            &json!({ "name": "x", "surprise": 1 }),
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400, "unknown fields are refused");
    assert!(browser.get::<BillList>("/api/bills").await.bills.is_empty());

    // A malformed id in the path is a 400 in the usual JSON shape.
    for (method, path) in [
        (Method::GET, "/api/bills/abc"),
        (Method::DELETE, "/api/payments/1.5"),
    ] {
        let (status, error) = browser
            .call::<_, BillRecord>(method, path, &json!(null))
            .await
            .unwrap_err();
        assert_eq!(status, 400, "{path}");
        assert_eq!(error.error.status, "INVALID_ARGUMENT", "{path}: {error:?}");
    }
}

#[tokio::test]
async fn payments_are_recorded_flagged_and_undone() {
    let (_app, browser) = app().await;
    let id = create(&browser, rent()).await.id;
    // "Mark paid": no amount means the bill's amount, today.
    let payment = pay(&browser, id, RecordPayment::default()).await.unwrap();
    assert_eq!(payment.amount_minor, 150_000);
    assert_eq!(payment.method, "manual");

    let flagged = flag_failed(&browser, payment.id).await.unwrap();
    assert!(flagged.autopay_failure);

    let (status, error) = pay(&browser, id, paid(Some(100), Some("31/01/2026".into())))
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(first_field(&error), "paidOn");

    assert_eq!(payments(&browser, id).await.len(), 1);
    assert_eq!(
        browser
            .status(Method::DELETE, &format!("/api/payments/{}", payment.id))
            .await,
        204
    );
    assert!(payments(&browser, id).await.is_empty());
}

/// The user's current month (dates in these tests follow the clock, as the
/// monthly accrual does).
async fn this_month(browser: &Browser) -> YearMonth {
    let today = browser.get::<BillList>("/api/bills").await.today;
    YearMonth::parse(&today[..7]).unwrap()
}

fn on(month: YearMonth, day: u8) -> String {
    format!("{month}-{day:02}")
}

#[tokio::test]
async fn debt_interest_is_charged_once_per_month_even_across_a_restart() {
    let (app, browser) = app().await;
    let this = this_month(&browser).await;
    let made = create(&browser, card()).await;
    let id = made.id;
    assert_eq!(
        made.interest_accrued_month,
        Some(this.previous().to_string()),
        "the balance is today's: this month is the first charged"
    );
    assert_eq!(
        made.interest_pending_minor,
        Some(1000),
        "this month's, not yet charged"
    );

    let first = pay(&browser, id, paid(Some(10_000), Some(on(this, 5))))
        .await
        .unwrap();
    assert_eq!(
        first.interest_delta_minor, 1000,
        "1 % of 1,000.00 for the month"
    );
    let now = bill(&browser, id).await;
    assert_eq!(now.balance_minor, Some(91_000));
    assert_eq!(now.interest_accrued_month, Some(this.to_string()));
    assert_eq!(now.interest_pending_minor, Some(0));

    // Same month after a restart: no second charge.
    let app = app.restart(&vars()).await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let second = pay(&browser, id, paid(Some(10_000), Some(on(this, 20))))
        .await
        .unwrap();
    assert_eq!(second.interest_delta_minor, 0);
    assert_eq!(bill(&browser, id).await.balance_minor, Some(81_000));

    // Two months later: both months are charged, compounding.
    let later = this.next().next();
    let third = pay(&browser, id, paid(Some(10_000), Some(on(later, 20))))
        .await
        .unwrap();
    assert_eq!(third.interest_delta_minor, 810 + 818);
    let now = bill(&browser, id).await;
    assert_eq!(now.balance_minor, Some(81_000 + 1628 - 10_000));
    assert_eq!(now.interest_accrued_month, Some(later.to_string()));

    // Undoing it gives the balance and the months back.
    assert_eq!(
        browser
            .status(Method::DELETE, &format!("/api/payments/{}", third.id))
            .await,
        204
    );
    let now = bill(&browser, id).await;
    assert_eq!(now.balance_minor, Some(81_000));
    assert_eq!(now.interest_accrued_month, Some(this.to_string()));

    // Paying more than is owed is refused and changes nothing.
    let (status, error) = pay(&browser, id, paid(Some(1_000_000), Some(on(this, 21))))
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{error:?}");
    assert_eq!(first_field(&error), "amountMinor");
    assert_eq!(bill(&browser, id).await.balance_minor, Some(81_000));
}

#[tokio::test]
async fn months_that_ended_without_a_payment_are_charged_by_the_accrual() {
    let (app, browser) = app().await;
    let this = this_month(&browser).await;
    let id = create(&browser, card()).await.id;
    // As if Tally had last charged the card three months ago and then been
    // switched off.
    let three_ago = this.previous().previous().previous();
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    sqlx::query("UPDATE bills SET interest_accrued_month = ? WHERE id = ?")
        .bind(three_ago.to_string())
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;

    // Starting up runs the accrual: the two months since, each once.
    let app = app.restart(&vars()).await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let mut charged = Vec::new();
    for _ in 0..100 {
        charged = payments(&browser, id).await;
        if charged.len() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let rows: Vec<(String, i64, bool, i64)> = charged
        .iter()
        .map(|p| {
            (
                p.paid_on[..7].to_owned(),
                p.interest_delta_minor,
                p.is_interest_charge(),
                p.amount_minor,
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (this.previous().to_string(), 1010, true, 0),
            (this.previous().previous().to_string(), 1000, true, 0),
        ]
    );
    let now = bill(&browser, id).await;
    assert_eq!(now.balance_minor, Some(102_010));
    assert_eq!(
        now.interest_accrued_month,
        Some(this.previous().to_string())
    );
    assert_eq!(
        now.interest_pending_minor,
        Some(1020),
        "this month, on the new balance"
    );

    // A charge is not a payment: it cannot be undone.
    let (status, error) = browser
        .call::<_, Payment>(
            Method::DELETE,
            &format!("/api/payments/{}", charged[0].id),
            &json!(null),
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{error:?}");
    assert_eq!(first_field(&error), "paymentId");
}

#[tokio::test]
async fn the_tracker_shows_the_month_and_marking_paid_moves_the_totals() {
    let (_app, browser) = app().await;
    let today = browser.get::<BillList>("/api/bills").await.today;
    let day: i64 = today[8..10].parse().unwrap();
    let due_today = BillForm {
        due_day: day,
        anchor_date: format!("{}-{:02}", &today[..7], day),
        ..rent()
    };
    let id = create(&browser, due_today).await.id;

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
        [Totals {
            due_minor: 150_000,
            paid_minor: 0,
            remaining_minor: 150_000,
            overdue_minor: 0,
            ..Totals::zero("USD")
        }]
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
    assert_eq!(tracker.totals[0].paid_minor, 150_000);
    assert_eq!(tracker.totals[0].remaining_minor, 0);

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
    assert_eq!(tracker.totals[0].paid_minor, 0);
}

#[tokio::test]
async fn another_user_cannot_see_or_touch_a_bill() {
    let (app, admin) = app().await;
    let id = create(&admin, rent()).await.id;
    let payment_id = pay(&admin, id, RecordPayment::default()).await.unwrap().id;

    open_registration(&admin).await;
    let mut bea = Browser::open(&app.address).await;
    let registered = bea.register(&bea_registers()).await;
    assert_eq!(registered.status(), 200);

    let form = serde_json::to_value(rent()).unwrap();
    let nothing = json!(null);
    let empty = json!({});
    let failed = serde_json::to_value(AutopayFailure { failed: true }).unwrap();
    for (method, path, body) in [
        (Method::GET, format!("/api/bills/{id}"), &nothing),
        (Method::PUT, format!("/api/bills/{id}"), &form),
        (Method::DELETE, format!("/api/bills/{id}"), &nothing),
        (Method::POST, format!("/api/bills/{id}/deactivate"), &empty),
        (Method::POST, format!("/api/bills/{id}/reactivate"), &empty),
        (Method::GET, format!("/api/bills/{id}/payments"), &nothing),
        (Method::POST, format!("/api/bills/{id}/payments"), &empty),
        (
            Method::DELETE,
            format!("/api/payments/{payment_id}"),
            &nothing,
        ),
        (
            Method::PUT,
            format!("/api/payments/{payment_id}/autopay-failure"),
            &failed,
        ),
    ] {
        let (status, error) = bea
            .call::<_, serde_json::Value>(method.clone(), &path, body)
            .await
            .unwrap_err();
        assert_eq!(status, 404, "{method} {path}: {error:?}");
    }
    assert!(bea.get::<BillList>("/api/bills").await.bills.is_empty());
    assert!(bea.get::<Tracker>("/api/tracker").await.entries.is_empty());
    let mine = bill(&admin, id).await;
    assert!(mine.active);
    assert_eq!(mine.amount_minor, 150_000);
    assert!(!payments(&admin, id).await[0].autopay_failure);
}

#[tokio::test]
async fn bills_and_payments_export_to_csv_and_json_and_import_into_another_account_all_or_nothing()
{
    let (app, admin) = app().await;
    let this = this_month(&admin).await;
    create(&admin, rent()).await;
    let card = create(&admin, card()).await;
    pay(&admin, card.id, paid(Some(5000), Some(on(this, 5))))
        .await
        .unwrap();

    let (disposition, csv) = download(&admin, "/api/data/bills.csv").await;
    assert!(disposition.contains("attachment"), "{disposition}");
    assert!(csv.starts_with("name,amount,currency,cadence"), "{csv}");
    assert!(csv.contains("Rent,1500.00,USD,monthly"), "{csv}");
    let json_export: Export = admin.get("/api/data/export.json").await;
    assert_eq!(json_export.bills.len(), 2);
    assert_eq!(json_export.payments.len(), 1);
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

    open_registration(&admin).await;
    let mut bea = Browser::open(&app.address).await;
    bea.register(&bea_registers()).await;
    let post = |path: &'static str, body: String| {
        bea.request(Method::POST, path)
            .header("content-type", "text/csv")
            .body(body)
            .send()
    };

    // A file with one bad row: the preview names it, the import refuses
    // the whole file.
    let broken = format!("{csv}Broken,12.345,USD,monthly,1,1,2026-01-01,,,false,false,false,,,\n");
    let preview: ImportPreview = post("/api/data/import/preview", broken.clone())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!((preview.valid, preview.invalid), (2, 1));
    assert_eq!(preview.rows[2].line, 4);
    assert_eq!(preview.rows[2].problems[0].field, "amountMinor");
    let refused = post("/api/data/import", broken).await.unwrap();
    assert_eq!(refused.status(), 400);
    let error: ErrorBody = refused.json().await.unwrap();
    assert_eq!(first_field(&error), "rows[2].amountMinor");
    assert!(bea.get::<BillList>("/api/bills").await.bills.is_empty());

    let imported = post("/api/data/import", csv.clone()).await.unwrap();
    assert_eq!(imported.status(), 201);
    assert_eq!(imported.json::<Imported>().await.unwrap().imported, 2);
    let mine = bea.get::<BillList>("/api/bills").await.bills;
    let names: Vec<&str> = mine.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"Rent") && names.contains(&"Credit card"));
    let imported_card = mine.iter().find(|b| b.name == "Credit card").unwrap();
    assert_eq!(
        imported_card.balance_minor,
        Some(96_000),
        "the balance as exported"
    );
    assert_eq!(imported_card.apr_basis_points, Some(1200));
    // Re-exporting gives the same file.
    let (_, again) = download(&bea, "/api/data/bills.csv").await;
    assert_eq!(again, csv);
}

#[tokio::test]
async fn the_session_endpoint_says_who_is_signed_in_without_an_error() {
    let (app, admin) = app().await;
    let anonymous = reqwest::get(app.url("/api/auth/session"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(anonymous, r#"{"user":null}"#, "null, not left out");
    let read: Session = serde_json::from_str(&anonymous).unwrap();
    assert!(read.user.is_none());
    let signed_in: Session = admin.get("/api/auth/session").await;
    assert_eq!(
        signed_in.user.map(|user| user.email).as_deref(),
        Some(ADMIN_EMAIL)
    );
}

#[tokio::test]
async fn spending_is_summed_per_category_and_month_without_failed_autopays() {
    let (_app, browser) = app().await;
    let today = browser.get::<BillList>("/api/bills").await.today;
    let rent = create(&browser, rent()).await.id;
    let water = create(&browser, rent_like("Water", "Utilities", 4250))
        .await
        .id;
    let on_today = || paid(None, Some(today.clone()));
    pay(&browser, rent, on_today()).await.unwrap();
    pay(&browser, water, on_today()).await.unwrap();
    let failed = pay(&browser, water, on_today()).await.unwrap();
    flag_failed(&browser, failed.id).await.unwrap();

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

fn preferences(locale: &str, currency: &str, time_zone: &str) -> UpdatePreferences {
    UpdatePreferences {
        locale: locale.into(),
        currency: currency.into(),
        time_zone: time_zone.into(),
        ..UpdatePreferences::default()
    }
}

async fn save_preferences(
    browser: &Browser,
    wanted: &UpdatePreferences,
) -> Result<Preferences, Refusal> {
    answer(browser, Method::PUT, "/api/profile/preferences", wanted).await
}

#[tokio::test]
async fn preferences_are_checked_and_change_today_and_formatting() {
    let (app, browser) = app().await;
    let (status, error) =
        save_preferences(&browser, &preferences("xx-XX", "dollars", "Mars/Olympus"))
            .await
            .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(fields(&error), ["locale", "currency", "timeZone"]);

    let saved = save_preferences(&browser, &preferences("de-DE", "eur", "Pacific/Kiritimati"))
        .await
        .unwrap();
    assert_eq!(
        saved,
        Preferences {
            locale: "de-DE".into(),
            currency: "EUR".into(),
            time_zone: "Pacific/Kiritimati".into(),
            pay_schedule: String::new(),
            payday: String::new(),
            drift_percent: 5,
            drift_min_minor: 100,
        }
    );
    let bills: BillList = browser.get("/api/bills").await;
    assert_eq!(
        (bills.locale.as_str(), bills.currency.as_str()),
        ("de-DE", "EUR")
    );
    // UTC+14: "today" there is never behind today in UTC.
    let utc_today = app::backend::bills::today_for(
        &app::backend::db::connect(&app.database_path())
            .await
            .unwrap(),
        999,
    )
    .await
    .unwrap();
    assert!(bills.today >= utc_today.to_string());
}

/// The fixed-date runs of `make test` (`TALLY_TEST_TODAY`) really move the
/// server's calendar: without this a run that failed to pass the setting on
/// would test today again and pass.
#[tokio::test]
async fn the_server_says_today_is_the_day_the_run_asked_for() {
    let (_app, browser) = app().await;
    save_preferences(&browser, &preferences("en-US", "USD", "UTC"))
        .await
        .unwrap();
    let bills: BillList = browser.get("/api/bills").await;
    let expected = match std::env::var("TALLY_TEST_TODAY") {
        Ok(day) => Date::parse(&day).unwrap(),
        Err(_) => app::backend::bills::date_in(None, app::backend::clock::now()),
    };
    // Either side of midnight UTC the two reads may differ by a day.
    let tomorrow = expected.add_days(1).unwrap().to_string();
    let expected = expected.to_string();
    assert!(
        bills.today == expected || bills.today == tomorrow,
        "the server says {} for {expected}",
        bills.today
    );
}

#[tokio::test]
async fn a_pay_schedule_gives_the_tracker_pay_periods() {
    let (_app, browser) = app().await;
    let schedule = |pay_schedule: &str, payday: &str| UpdatePreferences {
        pay_schedule: pay_schedule.into(),
        payday: payday.into(),
        ..preferences("en-US", "USD", "UTC")
    };
    for (wanted, field) in [
        (schedule("fortnightly", ""), "paySchedule"),
        (schedule("biweekly", ""), "payday"),
        (schedule("weekly", "next friday"), "payday"),
    ] {
        let (status, error) = save_preferences(&browser, &wanted).await.unwrap_err();
        assert_eq!(
            (status, first_field(&error).as_str()),
            (400, field),
            "{error:?}"
        );
    }
    for query in ["period=pay", "period=fortnight"] {
        let (status, error) = browser
            .call::<_, Tracker>(Method::GET, &format!("/api/tracker?{query}"), &json!(null))
            .await
            .unwrap_err();
        assert_eq!(
            (status, first_field(&error).as_str()),
            (400, "period"),
            "{error:?}"
        );
    }
    let tracker: Tracker = browser.get("/api/tracker").await;
    assert_eq!(tracker.period.kind, PeriodKind::Month);

    // Paid every two weeks, today being a payday: the period is today and
    // the 13 days after it.
    let today = browser.get::<BillList>("/api/bills").await.today;
    let today = app::domain::date::Date::parse(&today).unwrap();
    let saved = save_preferences(&browser, &schedule("biweekly", &today.to_string()))
        .await
        .unwrap();
    assert_eq!(saved.pay_schedule, "biweekly");
    let due_in = |name: &str, days: i64| {
        let due = today.add_days(days).unwrap();
        BillForm {
            name: name.into(),
            amount_minor: 1000,
            cadence: "custom_days".into(),
            cadence_interval: Some(90),
            due_day: i64::from(due.day()),
            anchor_date: due.to_string(),
            ..BillForm::default()
        }
    };
    create(&browser, due_in("Inside", 13)).await;
    create(&browser, due_in("After", 14)).await;
    let tracker: Tracker = browser.get("/api/tracker").await;
    assert_eq!(tracker.period.kind, PeriodKind::Pay);
    assert_eq!(
        (tracker.period.first.clone(), tracker.period.last.clone()),
        (today.to_string(), today.add_days(13).unwrap().to_string())
    );
    assert_eq!(tracker.pay_schedule.as_deref(), Some("biweekly"));
    let names: Vec<&str> = tracker.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["Inside"]);
    assert_eq!(tracker.totals[0].due_minor, 1000);
    let month: Tracker = browser.get("/api/tracker?period=month").await;
    assert_eq!(month.period.kind, PeriodKind::Month);
    assert!(month.period.first.ends_with("-01"));

    // Clearing the schedule brings back the month.
    save_preferences(&browser, &schedule("", "")).await.unwrap();
    let tracker: Tracker = browser.get("/api/tracker").await;
    assert_eq!(tracker.period.kind, PeriodKind::Month);
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
    let catalog: Catalog = browser.get("/api/catalog").await;
    assert!(catalog.services.len() > 300, "{}", catalog.services.len());
    let netflix = catalog
        .services
        .iter()
        .find(|s| s.name == "Netflix")
        .unwrap()
        .id;

    let mut form = BillForm {
        subscription: true,
        catalog_id: Some(netflix),
        ..rent_like("Netflix", "Streaming", 799)
    };
    let linked = create(&browser, form.clone()).await;
    assert_eq!(linked.catalog_id, Some(netflix));
    assert_eq!(linked.catalog_name.as_deref(), Some("Netflix"));

    form.catalog_id = Some(999_999);
    let (status, error) = browser
        .call::<_, BillRecord>(Method::POST, "/api/bills", &form)
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(first_field(&error), "catalogId");
}
