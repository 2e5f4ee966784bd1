//! What the server renders knows who is signed in: the header's navigation
//! comes in the HTML itself (no JavaScript needed), with Admin for
//! administrators, and the `current_session` server function answers the
//! same to the browser. The signed-in pages arrive with their data (bills,
//! totals, the user's email, the users table), never "Loading…" or a false
//! empty state, and their server functions answer the contract types with
//! REST's statuses.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::{Me, Register, Session};
use app::contract::bills::{BillList, BillRecord, Tracker, TrackerPageData};
use app::domain::bill::BillForm;
use reqwest::Method;
use support::browser::Browser;
use support::{with_admin, ADMIN_EMAIL};

/// The `<header>` of a page as the server sent it.
fn header_of(html: &str) -> &str {
    let start = html.find("<header").expect("a header");
    let end = html[start..].find("</header>").expect("its end") + start;
    &html[start..end]
}

async fn page(browser: &Browser, path: &str) -> String {
    let response = browser.request(Method::GET, path).send().await.unwrap();
    assert_eq!(response.status(), 200, "GET {path}");
    response.text().await.unwrap()
}

#[tokio::test]
async fn the_header_is_rendered_for_who_is_signed_in() {
    let (app, admin) = with_admin(&[]).await;

    let anonymous = Browser::open(&app.address).await;
    let home = page(&anonymous, "/").await;
    let header = header_of(&home);
    assert!(header.contains(">Sign in<"), "{header}");
    assert!(!header.contains(">Tracker<"), "{header}");

    let tracker = page(&admin, "/tracker").await;
    let header = header_of(&tracker);
    assert!(header.contains(">Tracker<"), "{header}");
    assert!(
        header.contains("href=\"/admin\""),
        "administrators get Admin: {header}"
    );
    assert!(!header.contains(">Sign in<"), "{header}");

    // A user who is not an administrator has no Admin link.
    let invite: app::contract::admin::Invited = admin
        .call(
            Method::POST,
            "/api/admin/invitations",
            &crate::support::invitation(None, None),
        )
        .await
        .unwrap()
        .unwrap();
    let token = invite.link.split("invitation=").nth(1).unwrap().to_owned();
    let mut user = Browser::open(&app.address).await;
    let registered = user
        .register(&Register {
            invitation: Some(token),
            email: "user@example.com".into(),
            name: String::new(),
            password: "a long enough passphrase 7".into(),
            time_zone: None,
        })
        .await;
    assert_eq!(registered.status(), 200);
    let profile = page(&user, "/profile").await;
    let header = header_of(&profile);
    assert!(header.contains(">Profile<"), "{header}");
    assert!(!header.contains("href=\"/admin\""), "{header}");
}

#[tokio::test]
async fn the_session_server_function_answers_the_contract() {
    let (app, admin) = with_admin(&[]).await;
    let anonymous: Session = reqwest::get(app.url("/api/fn/session"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(anonymous, Session { user: None });
    let signed_in: Session = admin.get("/api/fn/session").await;
    assert_eq!(
        signed_in.user.map(|user| user.email).as_deref(),
        Some(ADMIN_EMAIL)
    );
    let response = reqwest::get(app.url("/api/fn/session")).await.unwrap();
    assert_eq!(response.headers()["cache-control"], "no-store");
}

/// The part of a page inside `<main>`, as the server sent it.
fn main_of(html: &str) -> &str {
    let start = html.find("<main").expect("a main");
    let end = html[start..].find("</main>").expect("its end") + start;
    &html[start..end]
}

async fn add_bill(browser: &Browser, form: BillForm) -> BillRecord {
    browser
        .call(Method::POST, "/api/bills", &form)
        .await
        .unwrap()
        .unwrap()
}

/// The Tracker page reads what it shows in one answer (the period, the
/// drift panel, the bank bar, the chart), and so its spending chart is in
/// the server-rendered page, not drawn later by the browser.
#[tokio::test]
async fn the_tracker_page_is_one_read_with_its_chart_in_the_page() {
    let (_app, admin) = with_admin(&[]).await;
    let today = admin.get::<BillList>("/api/bills").await.today;
    let rent = add_bill(
        &admin,
        BillForm {
            name: "Rent for the flat".into(),
            amount_minor: 90_000,
            cadence: "monthly".into(),
            due_day: today[8..10].parse().unwrap(),
            anchor_date: today.clone(),
            category: "Housing".into(),
            ..BillForm::default()
        },
    )
    .await;
    support::pay(
        &admin,
        rent.id,
        90_000,
        app::domain::date::Date::parse(&today).unwrap(),
    )
    .await;

    let read: TrackerPageData = admin.get("/api/fn/tracker/page").await;
    let alone: Tracker = admin.get("/api/fn/tracker").await;
    assert_eq!(read.tracker, alone, "the period as the Tracker's own read");
    let spending = read.spending.expect("the chart's data");
    assert_eq!(spending.months.len(), 6);
    assert_eq!(spending.categories[0].name, "Housing");
    assert_eq!(spending.categories[0].totals_minor[5], 90_000);
    assert!(read
        .drifts
        .expect("the drift panel's data")
        .bills
        .is_empty());
    // Bank sync is off by default: no bank bar, and the page goes on.
    assert_eq!(read.bank, None);
    // A month the address names is read the same way.
    let may: TrackerPageData = admin.get("/api/fn/tracker/page?year=2026&month=5").await;
    assert_eq!(may.tracker.month, "2026-05");

    let tracker = page(&admin, "/tracker").await;
    let main = main_of(&tracker);
    assert!(main.contains(r#"data-testid="spending-chart""#), "{main}");
    assert!(main.contains("Housing"), "{main}");
}

#[tokio::test]
async fn signed_in_pages_arrive_with_their_data() {
    let (app, admin) = with_admin(&[]).await;
    let today = admin.get::<BillList>("/api/bills").await.today;
    let day: i64 = today[8..10].parse().unwrap();
    let rent = add_bill(
        &admin,
        BillForm {
            name: "Rent for the flat".into(),
            amount_minor: 123_456,
            cadence: "monthly".into(),
            due_day: day,
            anchor_date: today.clone(),
            ..BillForm::default()
        },
    )
    .await;
    add_bill(
        &admin,
        BillForm {
            name: "Streaming service".into(),
            amount_minor: 1_599,
            cadence: "monthly".into(),
            due_day: day,
            anchor_date: today.clone(),
            subscription: true,
            ..BillForm::default()
        },
    )
    .await;

    // Profile's own data, written through its server functions.
    let saved = admin
        .request(Method::POST, "/api/fn/profile/save-preferences")
        .form(&[
            ("locale", "en-US"),
            ("currency", "USD"),
            ("time_zone", "Europe/Berlin"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(saved.status(), 200);
    let made = admin
        .request(Method::POST, "/api/fn/make-token")
        .json(&serde_json::json!({"request": {"name": "Nightly export script"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), 200);

    // A backup: an operation for the viewer.
    let backup: serde_json::Value = admin
        .call(Method::POST, "/v1/admin:backup", &serde_json::json!({}))
        .await
        .unwrap()
        .unwrap();
    let backup = backup["name"].as_str().unwrap().to_owned();

    let expectations: [(String, &[&str]); 7] = [
        (
            "/tracker".into(),
            &["Rent for the flat", "$1,234.56", "$1,250.55"],
        ),
        ("/bills".into(), &["Rent for the flat", "Streaming service"]),
        (
            format!("/bills/{}", rent.id),
            &["Rent for the flat", "$1,234.56", "Record a payment"],
        ),
        (
            "/subscriptions".into(),
            &["Streaming service", "$15.99", "$191.88"],
        ),
        (
            "/profile".into(),
            &[
                ADMIN_EMAIL,
                "Nightly export script",
                "value=\"Europe/Berlin\"",
                "Correct password",
                // How each sign-in was made (the administrator's password).
                "data-method=\"password\"",
            ],
        ),
        ("/admin".into(), &[ADMIN_EMAIL, "data-testid=\"users\""]),
        (
            "/operations".into(),
            &["data-testid=\"operation-row\"", "Backup"],
        ),
    ];
    for (path, wanted) in expectations {
        let html = page(&admin, &path).await;
        let main = main_of(&html);
        for text in wanted {
            assert!(main.contains(text), "{path} lacks {text:?}: {main}");
        }
        assert!(!main.contains("Loading…"), "{path} arrived loading: {main}");
        assert!(
            !main.contains("No subscriptions tracked yet"),
            "{path} claims nothing is tracked: {main}"
        );
        assert!(!main.contains("You are signed out"), "{path}: {main}");
        assert!(!main.contains("No operations match"), "{path}: {main}");
    }
    let operations: app::contract::operations::OperationList =
        admin.get("/api/fn/operations?filter=").await;
    assert_eq!(operations.operations[0].name, backup);

    // Signed out, the profile says so instead of showing anything (the
    // tracker's pages send the visitor to sign in first).
    let anonymous = Browser::open(&app.address).await;
    let profile = page(&anonymous, "/profile").await;
    assert!(
        main_of(&profile).contains("You are signed out"),
        "{profile}"
    );
}

#[tokio::test]
async fn the_pages_server_functions_answer_the_contract_with_rest_statuses() {
    let (app, admin) = with_admin(&[]).await;
    let tracker: Tracker = admin.get("/api/fn/tracker").await;
    assert!(tracker.entries.is_empty());
    let me: Me = admin.get("/api/fn/me").await;
    assert_eq!(me.user.email, ADMIN_EMAIL);
    let users: Vec<app::contract::admin::UserSummary> = admin.get("/api/fn/admin/users").await;
    assert_eq!(users.len(), 1);

    // Nobody signed in: 401 with the error body, as from REST.
    let anonymous = Browser::open(&app.address).await;
    for path in [
        "/api/fn/tracker",
        "/api/fn/tracker/page",
        "/api/fn/bills",
        "/api/fn/me",
        "/api/fn/admin/users",
    ] {
        let response = anonymous.request(Method::GET, path).send().await.unwrap();
        assert_eq!(
            response.status(),
            401,
            "GET {path}: {:?}",
            response.headers()
        );
        let body: app::contract::error::ErrorBody = response.json().await.unwrap();
        assert_eq!(body.error.status, "UNAUTHENTICATED", "GET {path}");
    }
    // Another user's bill is not found; a bad argument names itself.
    let response = admin
        .request(Method::GET, "/api/fn/bill?id=999")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let response = admin
        .request(Method::GET, "/api/fn/tracker?period=fortnight")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
}

/// Leptos works out a server's routes by running the app with resource
/// loading suppressed through a process-global flag; a page whose resource
/// was first polled while another server of the process was starting hung
/// until its deadline (leptos-rs/leptos#4773). The routes are now worked out
/// once per process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_render_while_other_servers_start_in_the_same_process() {
    let (_app, admin) = with_admin(&[("REQUEST_TIMEOUT_SECONDS", "5")]).await;
    // Another test of the same process, starting its servers.
    let starting = std::thread::spawn(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        for _ in 0..15 {
            runtime.block_on(async { drop(support::spawn_app(&[]).await) });
        }
    });
    let mut rounds = 0;
    while !starting.is_finished() {
        let mut pages = Vec::new();
        for path in ["/tracker", "/bills", "/subscriptions"] {
            pages.push(tokio::spawn(admin.request(Method::GET, path).send()));
        }
        for page in pages {
            let page = page.await.unwrap().unwrap();
            assert_eq!(page.status(), 200, "after {rounds} rounds: {}", page.url());
        }
        rounds += 1;
    }
    starting.join().unwrap();
    assert!(rounds > 0);
}
