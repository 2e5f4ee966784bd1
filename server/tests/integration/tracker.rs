//! The Tracker people keep open (issue 30): any month or pay period by
//! address, what is coming, the paid total from the payments themselves,
//! payments made early, and per-month overrides (this time's amount, skip,
//! snooze, note) through `/api/bills/{id}/months/{month}` and the
//! Tracker's row forms.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::Method;
use serde_json::{json, Value};

use crate::support;
use app::contract::bills::{BillList, BillRecord};
use app::domain::bill::BillForm;
use app::domain::date::{Date, YearMonth};
use support::browser::Browser;
use support::{pay, plain_user, with_admin, TestApp};

async fn today(browser: &Browser) -> Date {
    Date::parse(&browser.get::<BillList>("/api/bills").await.today).unwrap()
}

async fn add(browser: &Browser, form: BillForm) -> BillRecord {
    browser
        .call(Method::POST, "/api/bills", &form)
        .await
        .unwrap()
        .unwrap()
}

fn monthly(name: &str, amount_minor: i64, first_due: Date) -> BillForm {
    BillForm {
        name: name.into(),
        amount_minor,
        cadence: "monthly".into(),
        due_day: i64::from(first_due.day()),
        anchor_date: first_due.to_string(),
        ..BillForm::default()
    }
}

fn month_query(month: YearMonth) -> String {
    format!("/api/tracker?year={}&month={}", month.year, month.month)
}

/// (field, status) of a refused request.
async fn refused(
    browser: &Browser,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (u16, String) {
    let mut request = browser.request(method, path);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap();
    let field = body["error"]["details"]
        .as_array()
        .and_then(|details| {
            details.iter().find_map(|detail| {
                detail["fieldViolations"][0]["field"]
                    .as_str()
                    .map(str::to_owned)
            })
        })
        .unwrap_or_default();
    (status, field)
}

/// Records a payment said to pay the due date `due`.
async fn pay_for(browser: &Browser, bill: i64, amount_minor: i64, on: Date, due: Date) -> Value {
    browser
        .call(
            Method::POST,
            &format!("/api/bills/{bill}/payments"),
            &json!({"amountMinor": amount_minor, "paidOn": on.to_string(), "forOccurrence": due.to_string()}),
        )
        .await
        .unwrap()
        .unwrap()
}

#[tokio::test]
async fn rent_paid_today_for_next_month_pays_it_and_stands_beside_this_months_totals() {
    let (_app, admin) = with_admin(&[]).await;
    let today = today(&admin).await;
    let next = today.year_month().next();
    let first_of_next = Date::new(next.year, next.month, 1).unwrap();
    // The walk: bills all first due next month, rent paid today for it.
    let rent = add(&admin, monthly("Rent", 150_000, first_of_next)).await;
    add(&admin, monthly("Power", 2_500, first_of_next)).await;
    let paid = pay_for(&admin, rent.id, 150_000, today, first_of_next).await;
    assert_eq!(paid["forOccurrence"], first_of_next.to_string());

    let now = admin.json_raw("/api/tracker?period=month").await;
    assert_eq!(now["month"], today.year_month().to_string());
    assert_eq!(now["entries"], json!([]), "nothing is due this month");
    assert_eq!(
        now["totals"],
        json!([{"currency": "USD", "dueMinor": 0, "paidMinor": 0, "remainingMinor": 0,
            "skippedMinor": 0, "overdueMinor": 0, "paidAheadMinor": 150_000, "paidLateMinor": 0}]),
        "paid today, ahead, beside this month's totals"
    );
    let upcoming: Vec<&str> = now["upcoming"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["name"].as_str().unwrap())
        .collect();
    // Upcoming looks 30 days ahead: on the 1st of a 31-day month the
    // 1st of the next is beyond it (found by the run as if on 1 January).
    let ahead = today
        .add_days(app::backend::bills::views::UPCOMING_DAYS)
        .unwrap();
    let coming: &[&str] = if first_of_next <= ahead {
        &["Power"]
    } else {
        &[]
    };
    assert_eq!(upcoming, coming, "rent is paid, power is coming");

    let then = admin.json_raw(&month_query(next)).await;
    assert_eq!(then["month"], next.to_string());
    let statuses: Vec<(&str, &str)> = then["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["status"].as_str().unwrap()))
        .collect();
    assert!(statuses.contains(&("Rent", "paid")), "{statuses:?}");
    assert_eq!(
        then["totals"][0]["paidMinor"], 150_000,
        "paid toward next month, wherever it was dated"
    );
    assert_eq!(then["totals"][0]["remainingMinor"], 2_500);
    assert_eq!(then["totals"][0]["dueMinor"], 152_500);

    let bills = admin.get::<BillList>("/api/bills").await.bills;
    let rent_now = bills.iter().find(|bill| bill.id == rent.id).unwrap();
    let after = Date::new(next.next().year, next.next().month, 1).unwrap();
    assert_eq!(
        rent_now.next_due.as_deref(),
        Some(after.to_string().as_str())
    );
    let shown: BillRecord = admin.get(&format!("/api/bills/{}", rent.id)).await;
    assert_eq!(shown.next_due, rent_now.next_due);
}

#[tokio::test]
async fn a_month_is_asked_for_by_year_and_month_and_bad_ones_name_their_field() {
    let (_app, admin) = with_admin(&[]).await;
    let may = admin.json_raw("/api/tracker?year=2026&month=5").await;
    assert_eq!(may["month"], "2026-05");
    assert_eq!(may["period"]["first"], "2026-05-01");
    assert_eq!(may["period"]["last"], "2026-05-31");
    for (query, field) in [
        ("year=2026&month=13", "month"),
        ("year=20x6&month=1", "year"),
        ("year=2026", "month"),
        ("month=4", "year"),
        ("period=pay", "period"),
        ("period=month&from=2026-01-01", "from"),
        ("period=weekly", "period"),
    ] {
        assert_eq!(
            refused(&admin, Method::GET, &format!("/api/tracker?{query}"), None).await,
            (400, field.to_owned()),
            "{query}"
        );
    }
}

#[tokio::test]
async fn a_skipped_month_leaves_the_totals_and_a_snoozed_one_moves() {
    let (app, admin) = with_admin(&[]).await;
    let today = today(&admin).await;
    let month = today.year_month();
    let last = month.last_day().unwrap();
    // Due on the last day of this month: snoozing moves it into the next.
    let power = add(&admin, monthly("Power", 6_000, last)).await;
    let gym = add(&admin, monthly("Gym", 3_000, last)).await;
    let path = |bill: &BillRecord| format!("/api/bills/{}/months/{month}", bill.id);

    let skipped: Value = admin
        .call(
            Method::PUT,
            &path(&gym),
            &json!({"skipped": true, "note": " on holiday "}),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(skipped["occurrence"], last.to_string());
    assert_eq!(skipped["note"], "on holiday");
    let snoozed_to = last.add_days(3).unwrap();
    let _: Value = admin
        .call(
            Method::PUT,
            &path(&power),
            &json!({"snoozedTo": snoozed_to.to_string(), "amountMinor": 9_000}),
        )
        .await
        .unwrap()
        .unwrap();

    let now = admin.json_raw(&month_query(month)).await;
    let entries = now["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "the snoozed one left this month: {now}");
    assert_eq!(entries[0]["name"], "Gym");
    assert_eq!(entries[0]["skipped"], true);
    assert_eq!(entries[0]["status"], "skipped");
    assert_eq!(
        (
            now["totals"][0]["dueMinor"].as_i64(),
            now["totals"][0]["skippedMinor"].as_i64(),
            now["totals"][0]["remainingMinor"].as_i64()
        ),
        (Some(3_000), Some(3_000), Some(0)),
        "a skip is in its own total: due is paid, still to pay and skipped"
    );
    let next = admin.json_raw(&month_query(month.next())).await;
    let moved = next["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "Power" && e["snoozedFrom"].is_string())
        .unwrap()
        .clone();
    assert_eq!(moved["due"], snoozed_to.to_string());
    assert_eq!(moved["snoozedFrom"], last.to_string());
    assert_eq!(moved["amountMinor"], 9_000);
    assert_eq!(moved["usualAmountMinor"], 6_000);

    // Read back, then cleared: the month is as scheduled again.
    let read: Value = admin.json_raw(&path(&power)).await;
    assert_eq!(read["snoozedTo"], snoozed_to.to_string());
    assert_eq!(read["usualAmountMinor"], 6_000);
    let cleared = admin
        .request(Method::DELETE, &path(&power))
        .send()
        .await
        .unwrap();
    assert_eq!(cleared.status(), 204);
    let now = admin.json_raw(&month_query(month)).await;
    assert_eq!(now["entries"].as_array().unwrap().len(), 2);
    assert_eq!(
        (
            now["totals"][0]["dueMinor"].as_i64(),
            now["totals"][0]["skippedMinor"].as_i64()
        ),
        (Some(9_000), Some(3_000)),
        "power due, the gym's skip in its own total"
    );

    // Bad requests name their field; another user's bill is not found.
    for (body, field) in [
        (
            json!({"snoozedTo": last.add_days(32).unwrap().to_string()}),
            "snoozedTo",
        ),
        (json!({"snoozedTo": last.to_string()}), "snoozedTo"),
        (json!({"amountMinor": -5}), "amountMinor"),
        (json!({"note": "x".repeat(501)}), "note"),
    ] {
        assert_eq!(
            refused(&admin, Method::PUT, &path(&power), Some(body.clone())).await,
            (400, field.to_owned()),
            "{body}"
        );
    }
    let (status, _) = refused(
        &admin,
        Method::PUT,
        &path(&power),
        Some(json!({"skip": true})),
    )
    .await;
    assert_eq!(status, 400, "an unknown field is refused");
    let not_due = format!("/api/bills/{}/months/{}", power.id, month.previous());
    let (status, field) = refused(&admin, Method::GET, &not_due, None).await;
    assert_eq!(
        (status, field.as_str()),
        (400, "month"),
        "not due that month"
    );
    let other = plain_user(&app, &admin, "other@example.com").await;
    let (status, _) = refused(&other, Method::GET, &path(&power), None).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_weekly_bill_names_its_occurrence() {
    let (_app, admin) = with_admin(&[]).await;
    let gym = add(
        &admin,
        BillForm {
            name: "Yoga".into(),
            amount_minor: 1_500,
            cadence: "weekly".into(),
            due_day: 2,
            anchor_date: "2026-11-02".into(),
            ..BillForm::default()
        },
    )
    .await;
    let path = format!("/api/bills/{}/months/2026-11", gym.id);
    assert_eq!(
        refused(&admin, Method::GET, &path, None).await,
        (400, "occurrence".to_owned())
    );
    assert_eq!(
        refused(
            &admin,
            Method::GET,
            &format!("{path}?occurrence=2026-11-10"),
            None
        )
        .await,
        (400, "occurrence".to_owned())
    );
    let _: Value = admin
        .call(
            Method::PUT,
            &format!("{path}?occurrence=2026-11-09"),
            &json!({"skipped": true}),
        )
        .await
        .unwrap()
        .unwrap();
    let november = admin.json_raw("/api/tracker?year=2026&month=11").await;
    let skipped: Vec<&str> = november["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["skipped"] == true)
        .map(|e| e["due"].as_str().unwrap())
        .collect();
    assert_eq!(skipped, ["2026-11-09"], "only that week");
    assert_eq!(november["totals"][0]["dueMinor"], 1_500 * 5);
    assert_eq!(november["totals"][0]["skippedMinor"], 1_500);
    assert_eq!(
        november["totals"][0]["remainingMinor"].as_i64().unwrap()
            + november["totals"][0]["paidMinor"].as_i64().unwrap(),
        1_500 * 4
    );
}

/// A Tracker form post as a browser without JavaScript sends it: `act`
/// names the write; the CSRF token rides in the `csrf_token` field.
async fn post_form(app: &TestApp, browser: &Browser, act: &str, fields: &[(&str, &str)]) {
    let mut all = vec![("csrf_token", browser.csrf.as_str()), ("act", act)];
    all.extend_from_slice(fields);
    let response = browser
        .request_without_csrf(Method::POST, "/api/fn/tracker/act")
        .header("origin", app.url(""))
        .header("referer", app.url("/tracker"))
        .form(&all)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    assert!((200..400).contains(&status), "{act}: {status}");
}

#[tokio::test]
async fn the_trackers_row_forms_pay_skip_snooze_and_set_this_time_without_javascript() {
    let (app, admin) = with_admin(&[]).await;
    let today = today(&admin).await;
    let month = today.year_month();
    let last = month.last_day().unwrap();
    let power = add(&admin, monthly("Power", 6_000, last)).await;
    let id = power.id.to_string();
    let occurrence = last.to_string();
    post_form(
        &app,
        &admin,
        "this-time",
        &[
            ("bill", &id),
            ("occurrence", &occurrence),
            ("amount", "71.20"),
            ("note", "cold month"),
        ],
    )
    .await;
    let now = admin.json_raw(&month_query(month)).await;
    assert_eq!(now["entries"][0]["amountMinor"], 7_120);
    assert_eq!(now["entries"][0]["note"], "cold month");
    post_form(
        &app,
        &admin,
        "skip",
        &[("bill", &id), ("occurrence", &occurrence)],
    )
    .await;
    let now = admin.json_raw(&month_query(month)).await;
    assert_eq!(now["entries"][0]["skipped"], true);
    assert_eq!(
        now["entries"][0]["amountMinor"], 7_120,
        "the skip keeps the rest"
    );
    post_form(
        &app,
        &admin,
        "unskip",
        &[("bill", &id), ("occurrence", &occurrence)],
    )
    .await;
    let now = admin.json_raw(&month_query(month)).await;
    assert_eq!(now["entries"][0]["skipped"], false, "Undo skip");
    let snooze_to = last.add_days(2).unwrap().to_string();
    post_form(
        &app,
        &admin,
        "snooze",
        &[
            ("bill", &id),
            ("occurrence", &occurrence),
            ("to", &snooze_to),
        ],
    )
    .await;
    let next = admin.json_raw(&month_query(month.next())).await;
    assert_eq!(next["entries"][0]["due"], snooze_to);
    // The row's form names its due date (as scheduled): the payment pays
    // it, now snoozed into next month, so this month has it beside.
    post_form(
        &app,
        &admin,
        "pay",
        &[("bill", &id), ("occurrence", &occurrence)],
    )
    .await;
    let now = admin.json_raw(&month_query(month)).await;
    assert_eq!(now["totals"][0]["paidAheadMinor"], 6_000);
    let next = admin.json_raw(&month_query(month.next())).await;
    assert_eq!(next["entries"][0]["status"], "paid");
    assert_eq!(
        next["totals"][0]["paidMinor"], 7_120,
        "paid toward: what the due date asked this time"
    );
    // A bad amount is refused, naming the field, and changes nothing.
    let bad = admin
        .request(Method::POST, "/api/fn/tracker/act")
        .form(&[
            ("act", "this-time"),
            ("bill", id.as_str()),
            ("occurrence", occurrence.as_str()),
            ("amount", "12.345"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    let said = bad.text().await.unwrap();
    assert!(said.contains("amountMinor"), "{said}");
}

#[tokio::test]
async fn pin_due_is_a_per_user_switch_the_tracker_answer_carries() {
    let (app, admin) = with_admin(&[]).await;
    let other = plain_user(&app, &admin, "pin-other@example.com").await;
    let shown = admin.json_raw("/api/tracker").await;
    assert_eq!(shown["pinDue"], false, "off until the user turns it on");
    post_form(&app, &admin, "pin-due", &[("bill", "0")]).await;
    assert_eq!(admin.json_raw("/api/tracker").await["pinDue"], true);
    assert_eq!(
        other.json_raw("/api/tracker").await["pinDue"],
        false,
        "one user's switch is theirs alone"
    );
    post_form(&app, &admin, "unpin-due", &[("bill", "0")]).await;
    assert_eq!(admin.json_raw("/api/tracker").await["pinDue"], false);
}

#[tokio::test]
async fn the_csv_export_carries_the_per_month_overrides() {
    let (app, admin) = with_admin(&[]).await;
    let today = today(&admin).await;
    let last = today.year_month().last_day().unwrap();
    let power = add(&admin, monthly("Power", 6_000, last)).await;
    let rent = add(&admin, monthly("Rent", 150_000, last)).await;
    let occurrence = last.to_string();
    let (power_id, rent_id) = (power.id.to_string(), rent.id.to_string());
    post_form(
        &app,
        &admin,
        "this-time",
        &[
            ("bill", &power_id),
            ("occurrence", &occurrence),
            ("amount", "71.20"),
            ("note", "=cold month"),
        ],
    )
    .await;
    let snooze_to = last.add_days(3).unwrap().to_string();
    post_form(
        &app,
        &admin,
        "snooze",
        &[
            ("bill", &rent_id),
            ("occurrence", &occurrence),
            ("to", &snooze_to),
        ],
    )
    .await;

    let response = admin
        .request(Method::GET, "/api/data/months.csv")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains("tally-months-"));
    let csv = response.text().await.unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "bill,occurrence,amount_this_time,currency,skipped,snoozed_to,note"
    );
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(
        lines.contains(&format!("Power,{occurrence},71.20,USD,false,,'=cold month").as_str()),
        "this time's amount and the note, its formula defused: {csv}"
    );
    assert!(
        lines.contains(&format!("Rent,{occurrence},,USD,false,{snooze_to},").as_str()),
        "{csv}"
    );
}

#[tokio::test]
async fn half_months_run_from_the_1st_to_the_14th_and_from_the_15th_to_the_end() {
    let (_app, admin) = with_admin(&[]).await;
    // No pay schedule is needed.
    let first_half = admin
        .json_raw("/api/tracker?period=half&from=2027-02-03")
        .await;
    assert_eq!(
        first_half["period"],
        json!({"kind": "half", "first": "2027-02-01", "last": "2027-02-14"})
    );
    assert_eq!(first_half["month"], "2027-02");
    let leap = admin
        .json_raw("/api/tracker?period=half&from=2028-02-20")
        .await;
    assert_eq!(
        leap["period"],
        json!({"kind": "half", "first": "2028-02-15", "last": "2028-02-29"})
    );

    // A bill due on the 20th is in the second half only.
    add(
        &admin,
        monthly("Power", 6_000, Date::parse("2027-01-20").unwrap()),
    )
    .await;
    let names = |answer: &Value| -> Vec<String> {
        answer["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| entry["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let early = admin
        .json_raw("/api/tracker?period=half&from=2027-02-01")
        .await;
    let late = admin
        .json_raw("/api/tracker?period=half&from=2027-02-15")
        .await;
    assert!(names(&early).is_empty(), "{early}");
    assert_eq!(names(&late), ["Power"]);

    let (status, field) = refused(&admin, Method::GET, "/api/tracker?period=quarter", None).await;
    assert_eq!((status, field.as_str()), (400, "period"));
}

/// A period's totals add up: due is paid, still to pay and skipped.
fn adds_up(totals: &Value) -> bool {
    totals.as_array().unwrap().iter().all(|sum| {
        let minor = |key: &str| sum[key].as_i64().unwrap();
        minor("dueMinor") == minor("paidMinor") + minor("remainingMinor") + minor("skippedMinor")
    })
}

#[tokio::test]
async fn a_payment_from_before_the_first_due_date_is_history_and_totals_are_per_currency() {
    let (_app, admin) = with_admin(&[]).await;
    let today = today(&admin).await;
    let ago = |days: i64| today.add_days(-days).unwrap();
    // The December rent: first due today, last month's payment
    // entered on the first day.
    let rent = add(&admin, monthly("Rent", 150_000, today)).await;
    pay(&admin, rent.id, 150_000, ago(30)).await;
    // A quarter of a streaming plan's charges, all from before Tally.
    let netflix = add(&admin, monthly("Netflix", 1_549, today)).await;
    for days in [30, 60, 90] {
        pay(&admin, netflix.id, 1_549, ago(days)).await;
    }
    // A flat abroad, in euros.
    let flat = add(
        &admin,
        BillForm {
            currency: "EUR".into(),
            ..monthly("Flat in Lyon", 45_000, today)
        },
    )
    .await;

    let now = admin.json_raw(&month_query(today.year_month())).await;
    for entry in now["entries"].as_array().unwrap() {
        assert_ne!(
            entry["status"], "paid",
            "nothing was paid for this month: {entry}"
        );
    }
    assert_eq!(
        now["totals"],
        json!([
            {"currency": "USD", "dueMinor": 151_549, "paidMinor": 0, "remainingMinor": 151_549,
                "skippedMinor": 0, "overdueMinor": 0, "paidAheadMinor": 0, "paidLateMinor": now["totals"][0]["paidLateMinor"]},
            {"currency": "EUR", "dueMinor": 45_000, "paidMinor": 0, "remainingMinor": 45_000,
                "skippedMinor": 0, "overdueMinor": 0, "paidAheadMinor": 0, "paidLateMinor": 0}
        ]),
        "the person's dollars first, the euros never added to them"
    );
    for (name, bill) in [("Rent", &rent), ("Netflix", &netflix)] {
        let listed = admin.get::<BillList>("/api/bills").await.bills;
        let found = listed.iter().find(|b| b.id == bill.id).unwrap();
        assert_eq!(
            found.next_due.as_deref(),
            Some(today.to_string().as_str()),
            "{name}: history never moves the next due date on"
        );
    }
    // Each month the history was paid in has it beside its totals.
    let month = ago(30).year_month();
    let then = admin.json_raw(&month_query(month)).await;
    let dated_then: i64 = [(30, 150_000 + 1_549), (60, 1_549), (90, 1_549)]
        .iter()
        .filter(|(days, _)| ago(*days).year_month() == month)
        .map(|(_, minor)| minor)
        .sum();
    assert_eq!(then["totals"][0]["paidLateMinor"], dated_then, "{then}");
    assert_eq!(then["totals"][0]["paidMinor"], 0);
    assert!(adds_up(&now["totals"]) && adds_up(&then["totals"]));

    // Said to pay today's due date, a payment does, and only that one.
    let paid = pay_for(&admin, flat.id, 45_000, ago(20), today).await;
    assert_eq!(paid["forOccurrence"], today.to_string());
    let now = admin.json_raw(&month_query(today.year_month())).await;
    let flat_row = now["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "Flat in Lyon")
        .unwrap()
        .clone();
    assert_eq!(flat_row["status"], "paid");
    assert_eq!(now["totals"][1]["paidMinor"], 45_000);
    assert!(adds_up(&now["totals"]));

    // The bill's list of payments says what each pays: history pays none.
    let listed = |id: i64| {
        let admin = &admin;
        async move {
            admin.json_raw(&format!("/api/bills/{id}/payments")).await["payments"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (p["paidOn"].as_str().unwrap().to_owned(), p["pays"].clone()))
                .collect::<Vec<_>>()
        }
    };
    let history: Vec<_> = [30, 60, 90]
        .iter()
        .map(|days| (ago(*days).to_string(), Value::Null))
        .collect();
    assert_eq!(listed(netflix.id).await, history);
    assert_eq!(
        listed(flat.id).await,
        [(ago(20).to_string(), json!(today.to_string()))]
    );

    // A day that is not one of the bill's due dates is refused by name.
    let not_due = today.add_days(1).unwrap().to_string();
    for (sent, why) in [
        (not_due.as_str(), "not one of"),
        ("soon", "like 2026-01-31"),
    ] {
        let (status, field) = refused(
            &admin,
            Method::POST,
            &format!("/api/bills/{}/payments", rent.id),
            Some(json!({"forOccurrence": sent})),
        )
        .await;
        assert_eq!((status, field.as_str()), (400, "forOccurrence"), "{why}");
    }
}
