//! Bank sync against a local fake of the SimpleFIN protocol (in this file):
//! claiming a setup token once, the sync windows, retries and their
//! spacing, 4xx without retry, the call timeout, reconnecting without
//! duplicates (identical twins kept), pending replaced by posted, the
//! provider's 429, the per-user limit, a failed sync changing nothing,
//! matching and its suggestions and review, and autopay checked against
//! the bank.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use app::contract::bank::{
    AutoMatches, BankConnections, BankSyncStatus, BankTransaction, ConnectBank, Connected,
    ConnectionStatus, MatchTransaction, SetMonitored, Suggestions, TransactionPage, UpdateBankSync,
};
use app::contract::bills::{AutopayTrust, BillList, BillRecord, Payment, Payments};
use app::contract::error::ErrorBody;
use app::contract::operations::Operation;
use app::domain::bill::BillForm;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use base64::Engine as _;
use reqwest::Method;
use serde_json::{json, Value};
use support::browser::Browser;
use support::operations::finished;
use support::{with_admin, TestApp};

const DAY: i64 = 86_400;

/// One transaction the fake bank holds.
#[derive(Clone)]
struct FakeTransaction {
    id: String,
    posted: i64,
    amount: &'static str,
    description: &'static str,
    pending: bool,
}

/// What the next accounts call answers instead of the data.
#[derive(Clone, Copy)]
enum Scripted {
    Status(u16),
    Delay(Duration),
    /// Waits until the test lets it go (`Fake::release`), then answers.
    Hold,
    /// An answer of 9 MiB.
    Huge,
}

#[derive(Default)]
struct Bank {
    transactions: Vec<FakeTransaction>,
    script: VecDeque<Scripted>,
    calls: Vec<(Instant, String)>,
    claimed: HashSet<String>,
    v2: bool,
    port: u16,
    /// The account's id at the provider ("ACT-1" unless set).
    account: Option<String>,
    /// `balances-only=1` calls (a connect's account list), kept apart from
    /// `calls` and never answered from the script.
    balance_calls: usize,
}

#[derive(Clone)]
struct Fake(Arc<Mutex<Bank>>, Arc<tokio::sync::Semaphore>);

impl Default for Fake {
    fn default() -> Self {
        Self(Arc::default(), Arc::new(tokio::sync::Semaphore::new(0)))
    }
}

impl Fake {
    async fn start() -> Self {
        let fake = Self::default();
        let router = Router::new()
            .route("/claim/{token}", post(claim))
            .route("/simplefin/accounts", get(accounts))
            .with_state(fake.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        fake.0.lock().unwrap().port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        fake
    }

    /// A setup token for a fresh claim URL.
    fn setup_token(&self, name: &str) -> String {
        let port = self.0.lock().unwrap().port;
        base64::engine::general_purpose::STANDARD
            .encode(format!("http://127.0.0.1:{port}/claim/{name}"))
    }

    fn set(&self, transactions: Vec<FakeTransaction>) {
        self.0.lock().unwrap().transactions = transactions;
    }

    fn script(&self, steps: &[Scripted]) {
        self.0.lock().unwrap().script = steps.iter().copied().collect();
    }

    fn calls(&self) -> Vec<(Instant, String)> {
        self.0.lock().unwrap().calls.clone()
    }

    fn forget_calls(&self) {
        self.0.lock().unwrap().calls.clear();
    }

    /// Lets `n` held calls answer.
    fn release(&self, n: usize) {
        self.1.add_permits(n);
    }

    fn claims(&self) -> usize {
        self.0.lock().unwrap().claimed.len()
    }
}

async fn claim(State(fake): State<Fake>, Path(token): Path<String>) -> Response {
    let mut bank = fake.0.lock().unwrap();
    if !bank.claimed.insert(token) {
        return (StatusCode::FORBIDDEN, "claimed").into_response();
    }
    format!("http://user:s3cret-pass@127.0.0.1:{}/simplefin", bank.port).into_response()
}

async fn accounts(
    State(fake): State<Fake>,
    headers: HeaderMap,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Response {
    let balances_only = query.get("balances-only").is_some_and(|v| v == "1");
    let (step, transactions, v2, account_id) = {
        let mut bank = fake.0.lock().unwrap();
        let mut asked: Vec<_> = query.iter().map(|(k, v)| format!("{k}={v}")).collect();
        asked.sort();
        if balances_only {
            bank.balance_calls += 1;
        } else {
            bank.calls.push((Instant::now(), asked.join("&")));
        }
        (
            if balances_only {
                None
            } else {
                bank.script.pop_front()
            },
            bank.transactions.clone(),
            bank.v2,
            bank.account.clone().unwrap_or_else(|| "ACT-1".into()),
        )
    };
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode("user:s3cret-pass")
    );
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(expected.as_str()) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let start: i64 = query["start-date"].parse().unwrap();
    let end: i64 = query["end-date"].parse().unwrap();
    match step {
        Some(Scripted::Status(code)) => {
            return StatusCode::from_u16(code).unwrap().into_response();
        }
        Some(Scripted::Delay(wait)) => tokio::time::sleep(wait).await,
        Some(Scripted::Hold) => fake.1.acquire().await.unwrap().forget(),
        Some(Scripted::Huge) => {
            let filler = "x".repeat(900);
            let many: Vec<Value> = (0..10_000)
                .map(|i| {
                    json!({"id": format!("h{i}"), "posted": end - 100, "amount": "-1.00",
                    "description": filler})
                })
                .collect();
            return axum::Json(
                json!({"errors": [], "accounts": [{"id": "ACT-1", "name": "Huge",
                "currency": "USD", "balance": "1.00", "transactions": many}]}),
            )
            .into_response();
        }
        None => {}
    }
    let listed: Vec<Value> = transactions
        .iter()
        .filter(|_| !balances_only)
        .filter(|t| t.pending || (start..end).contains(&t.posted))
        .map(|t| {
            json!({"id": t.id, "posted": if t.pending { 0 } else { t.posted }, "amount": t.amount,
                   "description": t.description, "payee": null, "memo": "",
                   "transacted_at": t.posted, "pending": t.pending})
        })
        .collect();
    let account = json!({"id": account_id, "name": "Everyday Checking", "currency": "USD",
        "balance": "1520.75", "available-balance": "1500.00", "balance-date": end - 1,
        "transactions": listed});
    if v2 {
        let mut account = account;
        account["conn_id"] = json!("C1");
        axum::Json(
            json!({"errlist": [], "connections": [{"conn_id": "C1", "name": "First Fake Bank"}],
            "accounts": [account]}),
        )
        .into_response()
    } else {
        let mut account = account;
        account["org"] = json!({"domain": "fake.example", "name": "First Fake Bank"});
        axum::Json(json!({"errors": [], "accounts": [account]})).into_response()
    }
}

/// Now on the server's calendar clock: the fake bank posts on the same
/// day the server thinks it is, also when a run moves the calendar
/// (`TALLY_TEST_TODAY`).
fn now() -> i64 {
    app::backend::clock::now().as_second()
}

fn posted(
    id: &str,
    days_ago: i64,
    amount: &'static str,
    description: &'static str,
) -> FakeTransaction {
    FakeTransaction {
        id: id.into(),
        // A minute back: "today's" charge posted the second a sync asks
        // would fall on its exclusive end and be left out (seen as a flake).
        posted: now() - days_ago * DAY - 60,
        amount,
        description,
        pending: false,
    }
}

/// Bank sync on, and the fake provider (plain http on 127.0.0.1) allowed
/// past the outbound guard.
const SETTINGS: &[(&str, &str)] = &[
    ("BANK_SYNC_ENABLED", "true"),
    ("SIMPLEFIN_ALLOW_HTTP", "true"),
    ("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1"),
];

async fn connect(browser: &Browser, token: &str) -> Result<Connected, (u16, ErrorBody)> {
    browser
        .call(
            Method::POST,
            "/api/bank/connections",
            &ConnectBank {
                setup_token: token.into(),
            },
        )
        .await
        .map(Option::unwrap)
}

async fn all_transactions(browser: &Browser) -> TransactionPage {
    browser.get("/api/bank/transactions?pageSize=200").await
}

async fn sync(browser: &Browser, id: i64, what: &str) -> Operation {
    let operation: Operation = browser
        .call(
            Method::POST,
            &format!("/api/bank/connections/{id}/{what}"),
            &json!({}),
        )
        .await
        .unwrap()
        .unwrap();
    finished(browser, &operation).await
}

fn start_date(call: &str) -> i64 {
    call.split('&')
        .find_map(|pair| pair.strip_prefix("start-date="))
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn a_setup_token_is_claimed_once_sealed_and_seeds_the_last_44_days() {
    let fake = Fake::start().await;
    fake.set(vec![
        posted("t1", 2, "-15.99", "NETFLIX.COM"),
        posted("t2", 40, "-60.00", "CITY WATER"),
        posted("t3", 50, "-99.00", "TOO OLD"),
    ]);
    let (app, admin) = with_admin(SETTINGS).await;
    let token = fake.setup_token("first");

    let connected = connect(&admin, &token).await.unwrap();
    let body = serde_json::to_string(&connected).unwrap();
    assert!(!body.contains("s3cret"), "{body}");
    // The answer carries the accounts and their balances already (read
    // with `balances-only`, before the seed sync).
    assert_eq!(connected.connection.accounts.len(), 1, "{connected:?}");
    assert_eq!(
        connected.connection.accounts[0].balance_minor,
        Some(152_075)
    );
    assert_eq!(connected.connection.institution, "First Fake Bank");
    assert_eq!(fake.0.lock().unwrap().balance_calls, 1);
    let done = finished(&admin, &connected.operation).await;
    assert!(done.done && done.error.is_none(), "{done:?}");

    // The seed asked for 44 days, pending included.
    let calls = fake.calls();
    assert_eq!(calls.len(), 1);
    let asked = start_date(&calls[0].1);
    assert!((now() - 44 * DAY - asked).abs() < 60, "{calls:?}");
    assert!(calls[0].1.contains("pending=1"));

    let page = all_transactions(&admin).await;
    let names: Vec<&str> = page
        .transactions
        .iter()
        .map(|t| t.description.as_str())
        .collect();
    assert_eq!(names, ["NETFLIX.COM", "CITY WATER"]);
    assert_eq!(page.transactions[0].amount_minor, -1599);

    let listed: BankConnections = admin.get("/api/bank/connections").await;
    assert_eq!((listed.seed_days, listed.lookback_cap_days), (44, 45));
    let connection = &listed.connections[0];
    assert_eq!(connection.institution, "First Fake Bank");
    assert_eq!(connection.status, ConnectionStatus::Active);
    assert_eq!(connection.accounts[0].balance_minor, Some(152_075));
    assert_eq!(connection.accounts[0].available_minor, Some(150_000));

    // Sealed at rest: the password is not in the database file.
    let database = std::fs::read(app.database_path()).unwrap();
    assert!(!String::from_utf8_lossy(&database).contains("s3cret-pass"));

    // A second claim of the same token is refused in plain words (the
    // same words whatever the provider answered).
    let (status, error) = connect(&admin, &token).await.unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "setupToken");
    assert!(
        error.error.message.contains("refused the token"),
        "{error:?}"
    );
}

#[tokio::test]
async fn routine_syncs_ask_for_30_days_and_backfill_for_44() {
    let fake = Fake::start().await;
    fake.set(vec![posted("t1", 3, "-10.00", "A")]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("w")).await.unwrap();
    finished(&admin, &connected.operation).await;
    fake.forget_calls();

    sync(&admin, connected.connection.id, "sync").await;
    sync(&admin, connected.connection.id, "backfill").await;
    let calls = fake.calls();
    assert!(
        (now() - 30 * DAY - start_date(&calls[0].1)).abs() < 60,
        "{calls:?}"
    );
    assert!(
        (now() - 44 * DAY - start_date(&calls[1].1)).abs() < 60,
        "{calls:?}"
    );
    assert_eq!(all_transactions(&admin).await.transactions.len(), 1);
}

#[tokio::test]
async fn failures_are_retried_after_1_and_2_seconds_then_reported_and_change_nothing() {
    let fake = Fake::start().await;
    fake.set(vec![posted("t1", 3, "-10.00", "A")]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("r")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let id = connected.connection.id;

    // Two 5xx, then an answer: three attempts, spaced 1 s and 2 s.
    fake.set(vec![
        posted("t1", 3, "-10.00", "A"),
        posted("t2", 1, "-5.00", "B"),
    ]);
    fake.forget_calls();
    fake.script(&[Scripted::Status(503), Scripted::Status(500)]);
    let done = sync(&admin, id, "sync").await;
    assert!(done.error.is_none(), "{done:?}");
    let calls = fake.calls();
    assert_eq!(calls.len(), 3);
    assert!(calls[1].0 - calls[0].0 >= Duration::from_millis(950));
    assert!(calls[2].0 - calls[1].0 >= Duration::from_millis(1950));
    assert_eq!(all_transactions(&admin).await.transactions.len(), 2);

    // Three 5xx: the operation fails in plain words and nothing changes.
    fake.set(vec![posted("t3", 0, "-1.00", "C")]);
    fake.forget_calls();
    fake.script(&[
        Scripted::Status(502),
        Scripted::Status(502),
        Scripted::Status(502),
    ]);
    let done = sync(&admin, id, "sync").await;
    let error = done.error.unwrap();
    assert_eq!(error.code, 14, "UNAVAILABLE");
    // One sentence for every failure of its kind: no status code.
    assert!(error.message.contains("could not be reached"), "{error:?}");
    assert!(!error.message.contains("502"), "{error:?}");
    assert_eq!(fake.calls().len(), 3);
    assert_eq!(all_transactions(&admin).await.transactions.len(), 2);
    let listed: BankConnections = admin.get("/api/bank/connections").await;
    assert_eq!(listed.connections[0].status, ConnectionStatus::Error);
    let recorded = listed.connections[0].last_error.as_deref().unwrap();
    assert!(recorded.contains("could not be reached"), "{recorded}");
    assert!(!recorded.contains("502"), "{recorded}");

    // A 4xx is not retried; the provider's 429 says so.
    fake.forget_calls();
    fake.script(&[Scripted::Status(429)]);
    let error = sync(&admin, id, "sync").await.error.unwrap();
    assert!(error.message.contains("limiting"), "{error:?}");
    assert_eq!(fake.calls().len(), 1);
    fake.forget_calls();
    fake.script(&[Scripted::Status(401)]);
    let error = sync(&admin, id, "sync").await.error.unwrap();
    assert!(error.message.contains("revoked"), "{error:?}");
    assert_eq!(fake.calls().len(), 1);

    // The next good sync clears the error.
    sync(&admin, id, "sync").await;
    let listed: BankConnections = admin.get("/api/bank/connections").await;
    assert_eq!(listed.connections[0].status, ConnectionStatus::Active);
    assert!(listed.connections[0].last_error.is_none());
}

#[tokio::test]
async fn a_provider_that_does_not_answer_in_time_is_given_up_on() {
    let fake = Fake::start().await;
    fake.set(vec![posted("t1", 3, "-10.00", "A")]);
    let mut settings = SETTINGS.to_vec();
    settings.push(("SIMPLEFIN_TIMEOUT_SECONDS", "1"));
    let (_app, admin) = with_admin(&settings).await;
    let connected = connect(&admin, &fake.setup_token("t")).await.unwrap();
    finished(&admin, &connected.operation).await;
    fake.forget_calls();
    let slow = Scripted::Delay(Duration::from_secs(3));
    fake.script(&[slow, slow, slow]);
    let error = sync(&admin, connected.connection.id, "sync")
        .await
        .error
        .unwrap();
    assert!(error.message.contains("could not be reached"), "{error:?}");
    assert_eq!(fake.calls().len(), 3);
}

#[tokio::test]
async fn reconnecting_never_duplicates_and_identical_twins_are_both_kept() {
    let fake = Fake::start().await;
    fake.set(vec![
        posted("a1", 5, "-4.50", "CORNER CAFE"),
        posted("a2", 5, "-4.50", "CORNER CAFE"),
        posted("a3", 9, "-80.00", "POWER CO"),
    ]);
    fake.0.lock().unwrap().v2 = true;
    let (_app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("one")).await.unwrap();
    finished(&admin, &connected.operation).await;
    assert_eq!(all_transactions(&admin).await.transactions.len(), 3);

    // The provider hands out new ids after a reconnect.
    fake.set(vec![
        posted("b1", 5, "-4.50", "CORNER CAFE"),
        posted("b2", 5, "-4.50", "CORNER CAFE"),
        posted("b3", 9, "-80.00", "POWER CO"),
    ]);
    let again: Connected = admin
        .call(
            Method::POST,
            &format!(
                "/api/bank/connections/{}/reconnect",
                connected.connection.id
            ),
            &ConnectBank {
                setup_token: fake.setup_token("two"),
            },
        )
        .await
        .unwrap()
        .unwrap();
    finished(&admin, &again.operation).await;
    assert_eq!(all_transactions(&admin).await.transactions.len(), 3);

    // Disconnected and connected anew: the history continues, no copies.
    let status = admin
        .status(
            Method::DELETE,
            &format!("/api/bank/connections/{}", connected.connection.id),
        )
        .await;
    assert_eq!(status, 204);
    assert_eq!(all_transactions(&admin).await.transactions.len(), 3);
    let fresh = connect(&admin, &fake.setup_token("three")).await.unwrap();
    finished(&admin, &fresh.operation).await;
    let page = all_transactions(&admin).await;
    assert_eq!(page.transactions.len(), 3);
    let listed: BankConnections = admin.get("/api/bank/connections").await;
    assert_eq!(listed.connections[0].status, ConnectionStatus::Disconnected);
    assert_eq!(listed.connections[1].accounts.len(), 1, "the account moved");
}

#[tokio::test]
async fn a_pending_transaction_is_replaced_when_it_posts_with_a_tip() {
    let fake = Fake::start().await;
    let mut diner = posted("p1", 1, "-20.00", "DINER");
    diner.pending = true;
    fake.set(vec![diner]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("p")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let page = all_transactions(&admin).await;
    assert_eq!(page.transactions.len(), 1);
    assert!(page.transactions[0].pending);
    let listed: BankConnections = admin.get("/api/bank/connections").await;
    assert_eq!(listed.connections[0].accounts[0].pending_minor, -2000);

    fake.set(vec![posted("x9", 0, "-23.00", "DINER")]);
    sync(&admin, connected.connection.id, "sync").await;
    let page = all_transactions(&admin).await;
    assert_eq!(page.transactions.len(), 1, "{page:?}");
    assert!(!page.transactions[0].pending);
    assert_eq!(page.transactions[0].amount_minor, -2300);
}

#[tokio::test]
async fn connects_reconnects_and_syncs_share_the_per_user_limit_and_reads_do_not() {
    let fake = Fake::start().await;
    let mut settings = SETTINGS.to_vec();
    settings.push(("BANK_SYNC_DEMO", "true"));
    let (_app, admin) = with_admin(&settings).await;
    // 1: a connect.
    let connected = connect(&admin, &fake.setup_token("l")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let id = connected.connection.id;
    // 2: a connect that fails still counts.
    let (status, _) = connect(&admin, "not a token").await.unwrap_err();
    assert_eq!(status, 400);
    // 3: the demo bank's connect counts too.
    connect(&admin, "demo").await.unwrap();
    // 4: a reconnect.
    let again: Result<Option<Connected>, _> = admin
        .call(
            Method::POST,
            &format!("/api/bank/connections/{id}/reconnect"),
            &ConnectBank {
                setup_token: fake.setup_token("l2"),
            },
        )
        .await;
    again.unwrap();
    // 5–10: syncs of every kind.
    for n in 0..6 {
        let path = match n % 3 {
            0 => format!("/api/bank/connections/{id}/sync"),
            1 => "/api/bank/connections/sync-all".to_owned(),
            _ => format!("/api/bank/connections/{id}/backfill"),
        };
        let status = admin.status(Method::POST, &path).await;
        assert_eq!(status, 200, "request {n}");
    }
    // 11: over the limit, whichever door.
    let response = admin
        .request(Method::POST, "/api/bank/connections")
        .json(&ConnectBank {
            setup_token: fake.setup_token("l3"),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 429);
    let wait: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=90).contains(&wait), "{wait}");
    assert_eq!(fake.claims(), 2, "the refused connect claimed nothing");
    let status = admin
        .status(Method::POST, &format!("/api/bank/connections/{id}/sync"))
        .await;
    assert_eq!(status, 429);
    for _ in 0..15 {
        assert_eq!(
            admin.status(Method::GET, "/api/bank/connections").await,
            200
        );
    }
}

#[tokio::test]
async fn a_user_has_at_most_ten_connections_and_the_eleventh_is_refused_before_the_claim() {
    let fake = Fake::start().await;
    let (app, admin) = with_admin(SETTINGS).await;
    let me: app::contract::account::Me = admin.get("/api/auth/me").await;
    // Nine made directly (the sync limit would stop a tenth request first),
    // one disconnected, which does not count.
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    for n in 0..10 {
        sqlx::query(
            "INSERT INTO bank_connections (user_id, provider, institution, access_secret, status)
             VALUES (?, 'simplefin', 'Made', 'x', ?)",
        )
        .bind(me.user.id)
        .bind(if n == 0 { "disconnected" } else { "active" })
        .execute(&pool)
        .await
        .unwrap();
    }
    // The tenth.
    let tenth = connect(&admin, &fake.setup_token("ten")).await.unwrap();
    finished(&admin, &tenth.operation).await;
    // The eleventh: refused in plain words, the token not used up.
    let (status, error) = connect(&admin, &fake.setup_token("eleven"))
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{error:?}");
    assert!(
        error.error.message.contains("10 bank connections"),
        "{error:?}"
    );
    assert_eq!(fake.claims(), 1);
    // Reviving the disconnected one would make eleven too.
    let revived: Result<Option<Connected>, (u16, ErrorBody)> = admin
        .call(
            Method::POST,
            "/api/bank/connections/1/reconnect",
            &ConnectBank {
                setup_token: fake.setup_token("revive"),
            },
        )
        .await;
    assert_eq!(revived.unwrap_err().0, 400);
    // Once one is disconnected, there is room again.
    let status = admin
        .status(
            Method::DELETE,
            &format!("/api/bank/connections/{}", tenth.connection.id),
        )
        .await;
    assert_eq!(status, 204);
    connect(&admin, &fake.setup_token("again")).await.unwrap();
}

#[tokio::test]
async fn at_most_two_bank_jobs_run_at_once_and_the_third_says_it_is_queued() {
    let fake = Fake::start().await;
    fake.set(vec![posted("t1", 3, "-10.00", "A")]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let mut ids = Vec::new();
    for name in ["q1", "q2", "q3"] {
        let connected = connect(&admin, &fake.setup_token(name)).await.unwrap();
        finished(&admin, &connected.operation).await;
        ids.push(connected.connection.id);
    }
    fake.forget_calls();
    // The first two calls that reach the provider are held there.
    fake.script(&[Scripted::Hold, Scripted::Hold]);
    let mut operations = Vec::new();
    for id in &ids {
        let operation: Operation = admin
            .call(
                Method::POST,
                &format!("/api/bank/connections/{id}/sync"),
                &json!({}),
            )
            .await
            .unwrap()
            .unwrap();
        operations.push(operation);
    }
    // Two jobs reach the provider and wait there; the third waits for a
    // place, and its metadata says so.
    let mut queued = Vec::new();
    for _ in 0..600 {
        queued.clear();
        for operation in &operations {
            let now: Operation = admin.get(&format!("/v1/{}", operation.name)).await;
            if now.metadata.get("queued") == Some(&Value::Bool(true)) {
                queued.push(now.name.clone());
            }
        }
        if fake.calls().len() == 2 && queued.len() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(fake.calls().len(), 2, "two jobs at the provider");
    assert_eq!(queued.len(), 1, "one job queued");
    fake.release(2);
    for operation in &operations {
        let done = finished(&admin, operation).await;
        assert!(done.error.is_none(), "{done:?}");
        assert!(done.metadata.get("queued").is_none(), "{done:?}");
    }
    assert_eq!(fake.calls().len(), 3);
}

#[tokio::test]
async fn a_provider_answer_over_the_cap_is_refused_and_control_characters_are_dropped() {
    let fake = Fake::start().await;
    fake.set(vec![posted("t1", 3, "-10.00", "NET\u{1b}[2JFLIX\u{202e}")]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("c")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let page = all_transactions(&admin).await;
    assert_eq!(page.transactions[0].description, "NET [2JFLIX");

    fake.script(&[Scripted::Huge]);
    let done = sync(&admin, connected.connection.id, "sync").await;
    let error = done.error.unwrap();
    assert!(
        error
            .message
            .contains("more than Tally accepts: an answer over 8 MiB"),
        "{error:?}"
    );
    assert_eq!(fake.calls().len(), 2, "a refused answer is not asked again");
    assert_eq!(all_transactions(&admin).await.transactions.len(), 1);
}

#[tokio::test]
async fn a_large_sync_writes_in_batches_so_the_write_lock_is_let_go_between_them() {
    let fake = Fake::start().await;
    let (app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("big")).await.unwrap();
    finished(&admin, &connected.operation).await;
    fake.set(
        (0..12_000)
            .map(|i| posted(&format!("b{i}"), 2, "-1.00", "BULK"))
            .collect(),
    );
    // The 11,001st row fails: what earlier batches wrote is committed, the
    // failing batch (at most `BATCH_ROWS` statements, fewer when cut by
    // time) is not; one transaction for the whole sync would leave nothing.
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    sqlx::query(
        "CREATE TRIGGER fail_late BEFORE INSERT ON transactions WHEN NEW.provider_id = 'b11000'
         BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    )
    .execute(&pool)
    .await
    .unwrap();
    let done = sync(&admin, connected.connection.id, "sync").await;
    assert!(done.error.is_some(), "{done:?}");
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM transactions")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(
        (11_001 - app::backend::bank::sync::BATCH_ROWS as i64..11_000).contains(&stored),
        "{stored}"
    );
    // The next sync finishes the job, nothing twice.
    sqlx::query("DROP TRIGGER fail_late")
        .execute(&pool)
        .await
        .unwrap();
    let done = sync(&admin, connected.connection.id, "sync").await;
    assert!(done.error.is_none(), "{done:?}");
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM transactions")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(stored, 12_000);
}

#[tokio::test]
async fn an_unmatch_that_fails_to_unlink_keeps_the_payment_and_the_match() {
    let fake = Fake::start().await;
    fake.set(vec![posted("p1", 3, "-42.00", "CITY WATER")]);
    let (app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("u")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let water = bill(&admin, "Water", 4200, false).await;
    let transaction = transaction_named(&admin, "CITY WATER").await;
    let _ = matched(&admin, transaction.id, water.id, false).await;
    assert_eq!(payments_of(&admin, water.id).await.len(), 1);
    // The unlink step fails after the payment was undone.
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    sqlx::query(
        "CREATE TRIGGER fail_the_unlink BEFORE UPDATE OF unmatched_at ON transactions
         BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    )
    .execute(&pool)
    .await
    .unwrap();
    let unmatch = format!("/api/bank/transactions/{}/unmatch", transaction.id);
    assert_eq!(admin.status(Method::POST, &unmatch).await, 500);
    assert_eq!(payments_of(&admin, water.id).await.len(), 1);
    assert_eq!(
        transaction_named(&admin, "CITY WATER").await.bill_id,
        Some(water.id)
    );
    sqlx::query("DROP TRIGGER fail_the_unlink")
        .execute(&pool)
        .await
        .unwrap();
    let _: BankTransaction = post_empty(&admin, &unmatch).await;
    assert!(payments_of(&admin, water.id).await.is_empty());
}

/// Rings the automatic sync and waits for that pass to end.
async fn worker_pass(admin: &Browser) -> app::contract::bank::WorkerState {
    let before: BankSyncStatus = admin.get("/api/admin/bank-sync").await;
    let _: BankSyncStatus = admin
        .call_expecting(202, Method::POST, "/api/admin/bank-sync/run", &json!({}))
        .await;
    for _ in 0..200 {
        let status: BankSyncStatus = admin.get("/api/admin/bank-sync").await;
        if status.worker.last_run_at.is_some()
            && status.worker.last_run_at != before.worker.last_run_at
            && !status.worker.running
        {
            return status.worker;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the worker never ran");
}

#[tokio::test]
async fn a_failing_connection_is_backed_off_by_the_automatic_sync() {
    let fake = Fake::start().await;
    let (app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("b")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    sqlx::query("UPDATE bank_connections SET last_synced_at = '2000-01-01T00:00:00Z'")
        .execute(&pool)
        .await
        .unwrap();
    fake.forget_calls();
    fake.script(&[Scripted::Status(401)]);
    let first = worker_pass(&admin).await;
    assert_eq!((first.last_synced, first.last_failed), (0, 1));
    assert_eq!(fake.calls().len(), 1);
    // Asked again at once: the failing connection waits its backoff.
    let second = worker_pass(&admin).await;
    assert_eq!(
        (
            second.last_synced,
            second.last_failed,
            second.last_backed_off
        ),
        (0, 0, 1)
    );
    assert_eq!(fake.calls().len(), 1, "the provider was left alone");
    // A manual sync still works and ends the backoff.
    let done = sync(&admin, connected.connection.id, "sync").await;
    assert!(done.error.is_none(), "{done:?}");
}

#[tokio::test]
async fn one_users_slow_bank_spends_only_their_share_of_an_automatic_pass() {
    let fake = Fake::start().await;
    let mut settings = SETTINGS.to_vec();
    settings.push(("BANK_SYNC_USER_BUDGET_SECONDS", "1"));
    let (app, admin) = with_admin(&settings).await;
    for name in ["slow-1", "slow-2"] {
        let connected = connect(&admin, &fake.setup_token(name)).await.unwrap();
        finished(&admin, &connected.operation).await;
    }
    let other = stranger(&app, &admin).await;
    let connected = connect(&other, &fake.setup_token("other")).await.unwrap();
    finished(&other, &connected.operation).await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    sqlx::query("UPDATE bank_connections SET last_synced_at = '2000-01-01T00:00:00Z'")
        .execute(&pool)
        .await
        .unwrap();
    fake.forget_calls();
    // The administrator's first connection (the oldest id) answers slowly
    // and spends their second of the pass.
    fake.script(&[Scripted::Delay(Duration::from_millis(1500))]);
    let pass = worker_pass(&admin).await;
    assert_eq!(
        (pass.last_synced, pass.last_failed, pass.last_deferred),
        (2, 0, 1),
        "the other user's connection still synced: {pass:?}"
    );
    assert_eq!(fake.calls().len(), 2);
    // The deferred connection is first in the next pass.
    let next = worker_pass(&admin).await;
    assert_eq!((next.last_synced, next.last_deferred), (1, 0), "{next:?}");
}

#[tokio::test]
async fn a_match_that_fails_to_link_leaves_no_payment_behind() {
    let fake = Fake::start().await;
    fake.set(vec![posted("p1", 3, "-42.00", "CITY WATER")]);
    let (app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("x")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let water = bill(&admin, "Water", 4200, false).await;
    let transaction = transaction_named(&admin, "CITY WATER").await;
    // The link step fails: the transaction cannot take its bill.
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    sqlx::query(
        "CREATE TRIGGER fail_the_link BEFORE UPDATE OF bill_id ON transactions
         WHEN NEW.bill_id IS NOT NULL
         BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    )
    .execute(&pool)
    .await
    .unwrap();
    let failed: Result<Option<BankTransaction>, (u16, ErrorBody)> = admin
        .call(
            Method::POST,
            &format!("/api/bank/transactions/{}/match", transaction.id),
            &MatchTransaction {
                bill_id: water.id,
                remember: true,
            },
        )
        .await;
    assert_eq!(failed.unwrap_err().0, 500);
    assert!(
        payments_of(&admin, water.id).await.is_empty(),
        "a payment without its link was left"
    );
    let rules: i64 = sqlx::query_scalar("SELECT count(*) FROM merchant_rules")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(rules, 0);
    // Once the link works, the match is whole.
    sqlx::query("DROP TRIGGER fail_the_link")
        .execute(&pool)
        .await
        .unwrap();
    let matched = matched(&admin, transaction.id, water.id, false).await;
    assert_eq!(matched.bill_id, Some(water.id));
    assert_eq!(payments_of(&admin, water.id).await.len(), 1);
}

#[tokio::test]
async fn switched_off_accounts_keep_their_balance_but_take_no_transactions() {
    let fake = Fake::start().await;
    fake.set(vec![posted("t1", 2, "-10.00", "A")]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("m")).await.unwrap();
    let seeded = finished(&admin, &connected.operation).await;
    // Once seen failing under a full parallel run with no accounts; say why.
    assert!(seeded.error.is_none(), "{seeded:?}");
    let listed: BankConnections = admin.get("/api/bank/connections").await;
    assert!(!listed.connections[0].accounts.is_empty(), "{listed:?}");
    let account = listed.connections[0].accounts[0].id;
    let changed: app::contract::bank::BankAccount = admin
        .call(
            Method::PATCH,
            &format!("/api/bank/accounts/{account}"),
            &SetMonitored { monitored: false },
        )
        .await
        .unwrap()
        .unwrap();
    assert!(!changed.monitored);
    fake.set(vec![
        posted("t1", 2, "-10.00", "A"),
        posted("t2", 1, "-7.00", "B"),
    ]);
    sync(&admin, connected.connection.id, "sync").await;
    assert_eq!(all_transactions(&admin).await.transactions.len(), 1);
}

#[tokio::test]
async fn bank_sync_is_off_until_enabled_and_http_providers_need_the_switch() {
    let fake = Fake::start().await;
    let (_app, admin) = with_admin(&[]).await;
    assert_eq!(
        admin.status(Method::GET, "/api/bank/connections").await,
        403
    );
    // Both doors of every connection use case answer the same while it is
    // off: the bank service checks the switch, not each handler.
    assert_eq!(
        admin
            .status(Method::DELETE, "/api/bank/connections/1")
            .await,
        403
    );
    let answer = admin
        .request(Method::PATCH, "/api/bank/accounts/1")
        .json(&json!({"monitored": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 403);
    // The page's forms, as they post (an unticked box sends nothing).
    for path in ["/api/fn/bank/disconnect", "/api/fn/bank/monitor"] {
        let answer = admin
            .request(Method::POST, path)
            .form(&[("id", "1")])
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 403, "{path}");
    }
    assert_eq!(
        admin.status(Method::GET, "/api/fn/bank/connections").await,
        403
    );

    let (_app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let (status, error) = connect(&admin, &fake.setup_token("h")).await.unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "setupToken");
    assert!(error.error.message.contains("https"), "{error:?}");
    let (status, _) = connect(&admin, "not a token").await.unwrap_err();
    assert_eq!(status, 400);

    // Somebody else's connection is not found.
    let (app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("o")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let stranger = stranger(&app, &admin).await;
    let status = stranger
        .status(
            Method::POST,
            &format!("/api/bank/connections/{}/sync", connected.connection.id),
        )
        .await;
    assert_eq!(status, 404);
    let page: TransactionPage = stranger.get("/api/bank/transactions").await;
    assert!(page.transactions.is_empty());
}

/// A second, ordinary user of the same app.
async fn stranger(app: &TestApp, admin: &Browser) -> Browser {
    use app::contract::account::Register;
    use app::contract::admin::Invited;
    let invited: Invited = admin
        .call(
            Method::POST,
            "/api/admin/invitations",
            &crate::support::invitation(None, None),
        )
        .await
        .unwrap()
        .unwrap();
    let token = invited
        .link
        .rsplit("invitation=")
        .next()
        .unwrap()
        .to_owned();
    let browser = Browser::open(&app.address).await;
    let response = browser
        .request(Method::POST, "/api/auth/register")
        .json(&Register {
            invitation: Some(token),
            email: "stranger@example.com".into(),
            name: String::new(),
            password: "a long enough passphrase".into(),
            time_zone: None,
        })
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    support::browser::Browser::signed_in(
        &app.address,
        "stranger@example.com",
        "a long enough passphrase",
    )
    .await
}

#[tokio::test]
async fn the_automatic_sync_gives_what_a_manual_one_does_and_admin_sees_it() {
    let history = vec![
        posted("t1", 2, "-15.99", "NETFLIX.COM"),
        posted("t2", 20, "-60.00", "CITY WATER"),
        posted("t3", 20, "-60.00", "CITY WATER"),
    ];
    let manual_bank = Fake::start().await;
    let automatic_bank = Fake::start().await;
    automatic_bank.0.lock().unwrap().account = Some("ACT-2".into());
    let (app, admin) = with_admin(SETTINGS).await;
    let manual = connect(&admin, &manual_bank.setup_token("m"))
        .await
        .unwrap();
    finished(&admin, &manual.operation).await;
    let automatic = connect(&admin, &automatic_bank.setup_token("a"))
        .await
        .unwrap();
    finished(&admin, &automatic.operation).await;

    // Both banks gain the same history; one is synced by hand, the other
    // by the worker.
    manual_bank.set(history.clone());
    automatic_bank.set(history);
    sync(&admin, manual.connection.id, "sync").await;
    // Synced within the hour: the worker skips both until they are older.
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    sqlx::query("UPDATE bank_connections SET last_synced_at = '2000-01-01T00:00:00Z' WHERE id = ?")
        .bind(automatic.connection.id)
        .execute(&pool)
        .await
        .unwrap();
    manual_bank.forget_calls();
    let status: BankSyncStatus = admin
        .call_expecting(202, Method::POST, "/api/admin/bank-sync/run", &json!({}))
        .await;
    assert!(status.enabled);
    let mut waited = 0;
    loop {
        let status: BankSyncStatus = admin.get("/api/admin/bank-sync").await;
        if status.worker.last_run_at.is_some() && !status.worker.running {
            assert_eq!(
                (status.worker.last_synced, status.worker.last_failed),
                (1, 0)
            );
            break;
        }
        waited += 1;
        assert!(waited < 100, "the worker never ran: {status:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        manual_bank.calls().is_empty(),
        "a fresh connection was skipped"
    );

    let page = all_transactions(&admin).await;
    let accounts: BankConnections = admin.get("/api/bank/connections").await;
    let account_of_connection = |id: i64| {
        accounts
            .connections
            .iter()
            .find(|c| c.id == id)
            .unwrap()
            .accounts[0]
            .id
    };
    let rows = |account: i64| {
        let mut rows: Vec<_> = page
            .transactions
            .iter()
            .filter(|t| t.account_id == account)
            .map(|t| (t.amount_minor, t.description.clone(), t.pending, t.bill_id))
            .collect();
        rows.sort();
        rows
    };
    let by_hand = rows(account_of_connection(manual.connection.id));
    assert_eq!(by_hand.len(), 3);
    assert_eq!(
        by_hand,
        rows(account_of_connection(automatic.connection.id))
    );

    // Admin sees every connection, the windows and the key source.
    let status: BankSyncStatus = admin.get("/api/admin/bank-sync").await;
    assert_eq!((status.seed_days, status.lookback_cap_days), (44, 45));
    assert_eq!(status.interval_hours, 4);
    assert_eq!(status.key_source, "database key");
    assert_eq!(status.connections.len(), 2);
    let changed: BankSyncStatus = admin
        .call(
            Method::PUT,
            "/api/admin/bank-sync",
            &UpdateBankSync {
                enabled: false,
                interval_hours: 12,
            },
        )
        .await
        .unwrap()
        .unwrap();
    assert!(!changed.enabled);
    assert_eq!(changed.interval_hours, 12);
    assert_eq!(
        admin.status(Method::GET, "/api/bank/connections").await,
        403
    );
    let (status, error) = admin
        .call::<_, BankSyncStatus>(
            Method::PUT,
            "/api/admin/bank-sync",
            &UpdateBankSync {
                enabled: true,
                interval_hours: 0,
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "intervalHours");
}

#[tokio::test]
async fn the_demo_bank_connects_without_a_provider_and_its_page_arrives_with_the_accounts() {
    // Not offered: "demo" is just a bad token.
    let (_app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let (status, _) = connect(&admin, "demo").await.unwrap_err();
    assert_eq!(status, 400);
    let listed: BankConnections = admin.get("/api/fn/bank/connections").await;
    assert!(!listed.demo_bank);

    let (app, admin) =
        with_admin(&[("BANK_SYNC_ENABLED", "true"), ("BANK_SYNC_DEMO", "true")]).await;
    let listed: BankConnections = admin.get("/api/fn/bank/connections").await;
    assert!(listed.demo_bank);
    // Through the page's server function, as the button does.
    let response = admin
        .request(Method::POST, "/api/fn/bank/connect")
        .form(&[("request[setupToken]", "demo")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let connected: Connected = response.json().await.unwrap();
    assert_eq!(
        connected.connection.institution,
        "Demo Bank (not a real bank)"
    );
    let done = finished(&admin, &connected.operation).await;
    assert!(done.error.is_none(), "{done:?}");
    let first = all_transactions(&admin).await.transactions.len();
    assert!(first > 10, "{first}");
    // Nothing new: proto3 JSON leaves the zero out.
    let again = sync(&admin, connected.connection.id, "sync").await;
    assert!(again.response.unwrap().get("transactionsAdded").is_none());
    assert_eq!(all_transactions(&admin).await.transactions.len(), first);

    // The page is rendered with the accounts in it.
    let html = admin.text("/data/bank").await;
    assert!(
        html.contains("Demo Checking") && html.contains("Demo Credit Card"),
        "{html}"
    );
    let _ = app;
}

async fn bill(browser: &Browser, name: &str, amount_minor: i64, autopay: bool) -> BillRecord {
    let today = browser.get::<BillList>("/api/bills").await.today;
    browser
        .call(
            Method::POST,
            "/api/bills",
            &BillForm {
                name: name.into(),
                amount_minor,
                cadence: "monthly".into(),
                due_day: 12,
                anchor_date: today,
                autopay,
                ..BillForm::default()
            },
        )
        .await
        .unwrap()
        .unwrap()
}

async fn transaction_named(browser: &Browser, description: &str) -> BankTransaction {
    all_transactions(browser)
        .await
        .transactions
        .into_iter()
        .find(|t| t.description == description)
        .unwrap()
}

async fn payments_of(browser: &Browser, bill: i64) -> Vec<Payment> {
    browser
        .get::<Payments>(&format!("/api/bills/{bill}/payments"))
        .await
        .payments
}

#[tokio::test]
async fn a_match_by_hand_pays_the_bill_teaches_a_rule_and_the_next_sync_matches_itself() {
    let fake = Fake::start().await;
    fake.set(vec![
        posted("p1", 20, "-84.20", "CITY POWER & LIGHT AUTOPAY"),
        posted("x1", 3, "-500.00", "ONLINE TRANSFER TO SAVINGS"),
        posted("f1", 2, "-2.50", "ATM FEE"),
        posted("s1", 4, "-11.99", "SPOTIFY USA"),
    ]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let power = bill(&admin, "Power", 8_420, true).await;
    let music = bill(&admin, "Music", 1_199, false).await;
    let other_music = bill(&admin, "Music (family)", 1_199, false).await;
    let connected = connect(&admin, &fake.setup_token("match")).await.unwrap();
    finished(&admin, &connected.operation).await;
    assert!(all_transactions(&admin)
        .await
        .transactions
        .iter()
        .all(|t| t.bill_id.is_none()));

    // By hand, remembering the payee: the payment is the transaction's,
    // and the autopay is verified.
    let charge = transaction_named(&admin, "CITY POWER & LIGHT AUTOPAY").await;
    let matched = matched(&admin, charge.id, power.id, true).await;
    assert_eq!(
        (matched.bill_id, matched.matched_by.as_deref()),
        (Some(power.id), Some("manual"))
    );
    let paid = payments_of(&admin, power.id).await;
    assert_eq!(paid.len(), 1);
    assert_eq!(
        (paid[0].amount_minor, paid[0].method.as_str()),
        (8_420, "bank")
    );
    assert_eq!(paid[0].paid_on.to_string(), charge.posted_at[..10]);
    let record: BillRecord = admin.get(&format!("/api/bills/{}", power.id)).await;
    assert!(record.autopay_verified_at.is_some());

    // Next month's charge (a new description suffix, same payee) matches
    // itself on the next sync.
    fake.set(vec![
        posted("p1", 20, "-84.20", "CITY POWER & LIGHT AUTOPAY"),
        posted("p2", 0, "-86.10", "CITY POWER & LIGHT AUTOPAY 0412"),
    ]);
    let done = sync(&admin, connected.connection.id, "sync").await;
    assert_eq!(done.response.unwrap()["transactionsMatched"], "1");
    let second = transaction_named(&admin, "CITY POWER & LIGHT AUTOPAY 0412").await;
    assert_eq!(
        (second.bill_id, second.matched_by.as_deref()),
        (Some(power.id), Some("auto"))
    );
    assert_eq!(payments_of(&admin, power.id).await.len(), 2);

    // Undone: the payment goes with it.
    let undone: BankTransaction = admin
        .call(
            Method::POST,
            &format!("/api/bank/transactions/{}/unmatch", second.id),
            &json!({}),
        )
        .await
        .unwrap()
        .unwrap();
    assert!(undone.bill_id.is_none());
    assert_eq!(payments_of(&admin, power.id).await.len(), 1);

    // Never a bill: a transfer; a generic payee is no rule; a payee with
    // rules for two bills is not matched automatically.
    let transfer = transaction_named(&admin, "ONLINE TRANSFER TO SAVINGS").await;
    let (status, error) = admin
        .call::<_, BankTransaction>(
            Method::POST,
            &format!("/api/bank/transactions/{}/match", transfer.id),
            &MatchTransaction {
                bill_id: power.id,
                remember: false,
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{error:?}");
    let fee = transaction_named(&admin, "ATM FEE").await;
    let (status, error) = admin
        .call::<_, BankTransaction>(
            Method::POST,
            &format!("/api/bank/transactions/{}/match", fee.id),
            &MatchTransaction {
                bill_id: power.id,
                remember: true,
            },
        )
        .await
        .unwrap_err();
    assert_eq!(
        (status, error.field_violations()[0].field.as_str()),
        (400, "remember")
    );
    assert!(
        payments_of(&admin, power.id).await.len() == 1,
        "nothing recorded"
    );
    let spotify = transaction_named(&admin, "SPOTIFY USA").await;
    for target in [music.id, other_music.id] {
        admin
            .call::<_, BankTransaction>(
                Method::POST,
                &format!("/api/bank/transactions/{}/match", spotify.id),
                &MatchTransaction {
                    bill_id: target,
                    remember: true,
                },
            )
            .await
            .unwrap();
        admin
            .call::<_, BankTransaction>(
                Method::POST,
                &format!("/api/bank/transactions/{}/unmatch", spotify.id),
                &json!({}),
            )
            .await
            .unwrap();
    }
    fake.set(vec![posted("s2", 0, "-11.99", "SPOTIFY USA")]);
    let done = sync(&admin, connected.connection.id, "sync").await;
    assert!(done.response.unwrap().get("transactionsMatched").is_none());
    let page = all_transactions(&admin).await;
    assert!(page
        .transactions
        .iter()
        .filter(|t| t.description == "SPOTIFY USA")
        .all(|t| t.bill_id.is_none()));
}

async fn post_empty<T: serde::de::DeserializeOwned>(browser: &Browser, path: &str) -> T {
    browser
        .call(Method::POST, path, &json!({}))
        .await
        .unwrap()
        .unwrap()
}

#[tokio::test]
async fn suggestions_are_scored_and_explained_never_applied_and_auto_matches_can_be_undone() {
    let fake = Fake::start().await;
    fake.set(vec![
        posted("n1", 3, "-15.49", "NETFLIX.COM 866-579-7172 CA"),
        posted("x1", 2, "-15.49", "ONLINE TRANSFER TO SAVINGS"),
        posted("g1", 1, "-62.33", "FRESHMART #0412"),
    ]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let netflix = bill(&admin, "Netflix", 1_549, false).await;
    bill(&admin, "Rent", 145_000, false).await;
    let connected = connect(&admin, &fake.setup_token("suggest")).await.unwrap();
    finished(&admin, &connected.operation).await;

    let found: Suggestions = admin.get("/api/bank/suggestions").await;
    assert_eq!(found.suggestions.len(), 1, "{found:?}");
    let first = &found.suggestions[0];
    assert_eq!(first.transaction.description, "NETFLIX.COM 866-579-7172 CA");
    assert_eq!(
        first.transaction.name, "NETFLIX.COM",
        "cleaned up beside it"
    );
    assert_eq!(first.bills[0].bill_id, netflix.id);
    assert!(first.bills[0].score >= 65, "{first:?}");
    assert!(first.bills[0]
        .reasons
        .iter()
        .any(|r| r == "the amount equals the bill's"));
    assert!(first.bills[0].reasons.iter().any(|r| r.contains("NETFLIX")));
    // Shown, never applied.
    assert!(all_transactions(&admin)
        .await
        .transactions
        .iter()
        .all(|t| t.bill_id.is_none()));
    let transfer = transaction_named(&admin, "ONLINE TRANSFER TO SAVINGS").await;
    let none: Suggestions = admin
        .get(&format!(
            "/api/bank/suggestions?transactionId={}",
            transfer.id
        ))
        .await;
    assert!(none.suggestions.is_empty(), "a transfer is never a bill");
    assert_eq!(
        admin
            .status(Method::GET, "/api/bank/suggestions?transactionId=999999")
            .await,
        404
    );

    // Taught by hand; the next charge matches itself and is up for review.
    let charge = transaction_named(&admin, "NETFLIX.COM 866-579-7172 CA").await;
    let _ = matched(&admin, charge.id, netflix.id, true).await;
    let review: AutoMatches = admin.get("/api/bank/auto-matches").await;
    assert!(review.matches.is_empty(), "a match by hand is not reviewed");
    assert_eq!(review.review_days, 7);
    fake.set(vec![posted(
        "n2",
        0,
        "-15.49",
        "NETFLIX.COM 866-579-7172 CA",
    )]);
    sync(&admin, connected.connection.id, "sync").await;
    let review: AutoMatches = admin.get("/api/bank/auto-matches").await;
    assert_eq!(review.matches.len(), 1, "{review:?}");
    assert_eq!(review.matches[0].bill_name, "Netflix");
    assert_eq!(payments_of(&admin, netflix.id).await.len(), 2);
    let id = review.matches[0].transaction.id;
    let _: BankTransaction =
        post_empty(&admin, &format!("/api/bank/transactions/{id}/unmatch")).await;
    let review: AutoMatches = admin.get("/api/bank/auto-matches").await;
    assert!(review.matches.is_empty());
    assert_eq!(payments_of(&admin, netflix.id).await.len(), 1, "undone");
}

#[tokio::test]
async fn autopay_debits_missing_late_or_returned_show_in_the_trust_indicator() {
    use app::domain::date::Date;
    let fake = Fake::start().await;
    fake.set(vec![posted(
        "p1",
        40,
        "-84.20",
        "CITY POWER & LIGHT AUTOPAY",
    )]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let today = Date::parse(&admin.get::<BillList>("/api/bills").await.today).unwrap();
    let anchor = today.add_days(-40).unwrap();
    let power: BillRecord = admin
        .call(
            Method::POST,
            "/api/bills",
            &BillForm {
                name: "Power".into(),
                amount_minor: 8_420,
                cadence: "monthly".into(),
                due_day: i64::from(anchor.day()),
                anchor_date: anchor.to_string(),
                autopay: true,
                ..BillForm::default()
            },
        )
        .await
        .unwrap()
        .unwrap();
    let trust_path = format!("/api/bills/{}/autopay", power.id);
    let connected = connect(&admin, &fake.setup_token("autopay")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let first = transaction_named(&admin, "CITY POWER & LIGHT AUTOPAY").await;
    let _ = matched(&admin, first.id, power.id, true).await;

    // The next due date passed its grace with no debit: a failed autopay.
    sync(&admin, connected.connection.id, "sync").await;
    let paid = payments_of(&admin, power.id).await;
    let missed: Vec<&Payment> = paid.iter().filter(|p| p.autopay_failure).collect();
    assert_eq!(missed.len(), 1, "{paid:?}");
    assert_eq!(missed[0].amount_minor, 0);
    let trust: AutopayTrust = admin.get(&trust_path).await;
    assert_eq!(
        (trust.label.as_str(), trust.kept),
        ("⚠ 1/2", 1),
        "{trust:?}"
    );
    sync(&admin, connected.connection.id, "sync").await;
    assert_eq!(
        payments_of(&admin, power.id).await.len(),
        2,
        "flagged once, not at every sync"
    );

    // It came late after all: matched by the rule, the flag goes.
    fake.set(vec![
        posted("p1", 40, "-84.20", "CITY POWER & LIGHT AUTOPAY"),
        posted("p2", 5, "-84.20", "CITY POWER & LIGHT AUTOPAY"),
    ]);
    sync(&admin, connected.connection.id, "sync").await;
    let paid = payments_of(&admin, power.id).await;
    assert!(paid.iter().all(|p| !p.autopay_failure), "{paid:?}");
    assert_eq!(paid.len(), 2);
    let trust: AutopayTrust = admin.get(&trust_path).await;
    assert_eq!(trust.label, "✓ 2/2");

    // Then the bank gave it back: the payment is a failed autopay.
    fake.set(vec![
        posted("p1", 40, "-84.20", "CITY POWER & LIGHT AUTOPAY"),
        posted("p2", 5, "-84.20", "CITY POWER & LIGHT AUTOPAY"),
        posted("r1", 1, "84.20", "ACH RETURN CITY POWER & LIGHT AUTOPAY"),
    ]);
    sync(&admin, connected.connection.id, "sync").await;
    let paid = payments_of(&admin, power.id).await;
    assert_eq!(paid.iter().filter(|p| p.autopay_failure).count(), 1);
    assert_eq!(paid.len(), 2, "no missed-debit row on top of the return");
    let trust: AutopayTrust = admin.get(&trust_path).await;
    assert_eq!(trust.label, "⚠ 1/2");
    let returned = transaction_named(&admin, "ACH RETURN CITY POWER & LIGHT AUTOPAY").await;
    assert_eq!(
        (returned.bill_id, returned.matched_by.as_deref()),
        (Some(power.id), Some("return"))
    );
    // Unmatching the return counts the payment again.
    let _: BankTransaction = post_empty(
        &admin,
        &format!("/api/bank/transactions/{}/unmatch", returned.id),
    )
    .await;
    let trust: AutopayTrust = admin.get(&trust_path).await;
    assert_eq!(trust.label, "✓ 2/2");
    assert!(trust.verified_at.is_some());
}

#[tokio::test]
async fn secrets_never_reach_the_log_files_stdout_or_any_answer() {
    use support::{RunningBinary, ADMIN_EMAIL, ADMIN_PASSWORD};
    let fake = Fake::start().await;
    fake.set(vec![posted("t1", 2, "-10.00", "NETFLIX.COM")]);
    let mut server = RunningBinary::start(&[
        ("BANK_SYNC_ENABLED", "true"),
        ("SIMPLEFIN_ALLOW_HTTP", "true"),
        ("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1"),
        ("SIMPLEFIN_TIMEOUT_SECONDS", "1"),
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("RUST_LOG", "debug"),
    ]);
    let admin = Browser::signed_in(&server.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let token = fake.setup_token("logged");
    let connected = connect(&admin, &token).await.unwrap();
    finished(&admin, &connected.operation).await;
    let id = connected.connection.id;
    // Failures that carry the provider's address inside the client: a
    // timeout, a refusal, and a used token.
    fake.script(&[Scripted::Delay(Duration::from_secs(3)); 3]);
    let timed_out = sync(&admin, id, "sync").await;
    assert!(timed_out.error.is_some());
    fake.script(&[Scripted::Status(401)]);
    sync(&admin, id, "sync").await;
    let reused = connect(&admin, &token).await.unwrap_err();
    assert_eq!(reused.0, 400);

    let mut answers = String::new();
    for path in [
        "/api/bank/connections",
        "/api/bank/transactions",
        "/api/admin/bank-sync",
        "/v1/operations",
    ] {
        answers.push_str(&admin.get::<Value>(path).await.to_string());
    }
    answers.push_str(&format!("{connected:?}{reused:?}"));
    let written = server.stop_and_read_logs();
    assert!(
        written.contains("bank sync failed"),
        "the failures were logged"
    );
    let basic = base64::engine::general_purpose::STANDARD.encode("user:s3cret-pass");
    for secret in [
        "s3cret-pass",
        basic.as_str(),
        token.as_str(),
        "/claim/logged",
    ] {
        assert!(!written.contains(secret), "{secret} in the logs");
        assert!(!answers.contains(secret), "{secret} in an answer");
    }
}

#[tokio::test]
async fn undoing_an_automatic_match_on_a_debt_restores_its_balance_and_interest() {
    let fake = Fake::start().await;
    fake.set(vec![posted("c1", 20, "-250.00", "BIGBANK CARD LOAN PMT")]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let today = admin.get::<BillList>("/api/bills").await.today;
    let loan: BillRecord = admin
        .call(
            Method::POST,
            "/api/bills",
            &BillForm {
                name: "Car loan".into(),
                amount_minor: 25_000,
                cadence: "monthly".into(),
                due_day: 12,
                anchor_date: today,
                debt: true,
                balance_minor: Some(1_000_000),
                apr_basis_points: Some(1_999),
                ..BillForm::default()
            },
        )
        .await
        .unwrap()
        .unwrap();
    let connected = connect(&admin, &fake.setup_token("loan")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let first = transaction_named(&admin, "BIGBANK CARD LOAN PMT").await;
    let _ = matched(&admin, first.id, loan.id, true).await;
    let before: BillRecord = admin.get(&format!("/api/bills/{}", loan.id)).await;

    fake.set(vec![
        posted("c1", 20, "-250.00", "BIGBANK CARD LOAN PMT"),
        posted("c2", 0, "-250.00", "BIGBANK CARD LOAN PMT"),
    ]);
    sync(&admin, connected.connection.id, "sync").await;
    let review: AutoMatches = admin.get("/api/bank/auto-matches").await;
    assert_eq!(review.matches.len(), 1, "{review:?}");
    let paid: BillRecord = admin.get(&format!("/api/bills/{}", loan.id)).await;
    assert!(paid.balance_minor < before.balance_minor, "{paid:?}");

    let id = review.matches[0].transaction.id;
    let _: BankTransaction =
        post_empty(&admin, &format!("/api/bank/transactions/{id}/unmatch")).await;
    let undone: BillRecord = admin.get(&format!("/api/bills/{}", loan.id)).await;
    assert_eq!(undone.balance_minor, before.balance_minor);
    assert_eq!(undone.interest_accrued_month, before.interest_accrued_month);
}

#[tokio::test]
async fn a_transaction_stored_under_its_v0_93_id_is_adopted_not_duplicated() {
    let fake = Fake::start().await;
    fake.set(vec![
        posted("t1", 3, "-15.49", "NETFLIX.COM"),
        posted("t2", 2, "-4.50", "BLUE BOTTLE COFFEE"),
    ]);
    let (app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("legacy")).await.unwrap();
    finished(&admin, &connected.operation).await;
    // As a v0.93 database holds it: `<account>:<provider id>`.
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    let stable: String = sqlx::query_scalar(
        "UPDATE transactions SET provider_transaction_id = 'ACT-1:t1'
         WHERE description = 'NETFLIX.COM' RETURNING provider_id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(stable, "t1");
    sync(&admin, connected.connection.id, "sync").await;
    let page = all_transactions(&admin).await;
    assert_eq!(page.transactions.len(), 2, "{page:?}");
    let ids: Vec<String> =
        sqlx::query_scalar("SELECT provider_transaction_id FROM transactions ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert!(ids.iter().all(|id| id != "ACT-1:t1"), "adopted: {ids:?}");
    assert_eq!(ids.len(), 2);
}

/// Matches a transaction to a bill by hand; the transaction as matched.
async fn matched(
    browser: &Browser,
    transaction: i64,
    bill_id: i64,
    remember: bool,
) -> BankTransaction {
    browser
        .call(
            Method::POST,
            &format!("/api/bank/transactions/{transaction}/match"),
            &MatchTransaction { bill_id, remember },
        )
        .await
        .unwrap()
        .unwrap()
}

/// `GET /api/bank/transactions?{query}`.
async fn listed(browser: &Browser, query: &str) -> TransactionPage {
    browser
        .get(&format!("/api/bank/transactions?{query}"))
        .await
}

/// The descriptions of a transaction list, in its order.
fn descriptions(page: &TransactionPage) -> Vec<&str> {
    page.transactions
        .iter()
        .map(|t| t.description.as_str())
        .collect()
}

#[tokio::test]
async fn the_transaction_list_filters_searches_literally_and_pages_without_gaps() {
    let fake = Fake::start().await;
    let mut diner = posted("f5", 1, "-20.00", "DINER 50%_OFF");
    diner.pending = true;
    fake.set(vec![
        diner,
        posted("f1", 2, "-4.50", "CORNER CAFE"),
        posted("f2", 3, "-4.50", "CORNER CAFE"),
        posted("f3", 4, "-42.00", "CITY WATER"),
        posted("f4", 6, "-80.00", "POWER CO 5000"),
    ]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let connected = connect(&admin, &fake.setup_token("f")).await.unwrap();
    finished(&admin, &connected.operation).await;
    let water = bill(&admin, "Water", 4200, false).await;
    let city = transaction_named(&admin, "CITY WATER").await;
    let _ = matched(&admin, city.id, water.id, false).await;

    let all = all_transactions(&admin).await;
    assert_eq!(
        descriptions(&all),
        [
            "DINER 50%_OFF",
            "CORNER CAFE",
            "CORNER CAFE",
            "CITY WATER",
            "POWER CO 5000"
        ],
        "newest first"
    );
    assert_eq!(all.next_page_token, "");
    assert_eq!(
        descriptions(&listed(&admin, "pending=true").await),
        ["DINER 50%_OFF"]
    );
    assert_eq!(listed(&admin, "pending=false").await.transactions.len(), 4);
    assert_eq!(
        descriptions(&listed(&admin, "matched=true").await),
        ["CITY WATER"]
    );
    assert_eq!(listed(&admin, "matched=false").await.transactions.len(), 4);
    let account = all.transactions[0].account_id;
    assert_eq!(
        listed(&admin, &format!("accountId={account}"))
            .await
            .transactions
            .len(),
        5
    );
    assert!(listed(&admin, &format!("accountId={}", account + 1000))
        .await
        .transactions
        .is_empty());
    // Words match anywhere, in any case; `%` and `_` are only themselves.
    assert_eq!(listed(&admin, "q=cafe").await.transactions.len(), 2);
    assert_eq!(
        descriptions(&listed(&admin, "q=50%25_").await),
        ["DINER 50%_OFF"]
    );
    assert_eq!(
        descriptions(&listed(&admin, "q=0%25").await),
        ["DINER 50%_OFF"],
        "5000 has no %"
    );
    assert!(
        listed(&admin, "q=R_C").await.transactions.is_empty(),
        "_ is not any letter"
    );
    assert_eq!(
        listed(&admin, "q=cafe&matched=false&pending=false")
            .await
            .transactions
            .len(),
        2
    );

    // Two at a time: every transaction once, in the same order.
    let mut seen = Vec::new();
    let mut query = "pageSize=2".to_owned();
    for _ in 0..5 {
        let page = listed(&admin, &query).await;
        assert!(page.transactions.len() <= 2);
        seen.extend(page.transactions.iter().map(|t| t.id));
        if page.next_page_token.is_empty() {
            break;
        }
        query = format!("pageSize=2&pageToken={}", page.next_page_token);
    }
    let every: Vec<i64> = all.transactions.iter().map(|t| t.id).collect();
    assert_eq!(seen, every);
    // A token with a filter pages within the filter.
    let first = listed(&admin, "pageSize=1&pending=false").await;
    let second = listed(
        &admin,
        &format!(
            "pageSize=1&pending=false&pageToken={}",
            first.next_page_token
        ),
    )
    .await;
    assert_eq!(descriptions(&first), ["CORNER CAFE"]);
    assert_eq!(descriptions(&second), ["CORNER CAFE"]);
    assert_ne!(first.transactions[0].id, second.transactions[0].id);
}

#[tokio::test]
async fn the_payee_outranks_an_equal_amount_in_suggestions() {
    // The issue's walk: Netflix raised its price to the Spotify plan's.
    let fake = Fake::start().await;
    fake.set(vec![
        posted("n3", 2, "-17.99", "NETFLIX.COM 866-579-7172 CA"),
        posted("n2", 32, "-15.49", "NETFLIX.COM 866-579-7172 CA"),
    ]);
    let (_app, admin) = with_admin(SETTINGS).await;
    let spotify = bill(&admin, "Spotify Family", 1_799, false).await;
    let netflix = bill(&admin, "Netflix", 1_549, false).await;
    let connected = connect(&admin, &fake.setup_token("payee")).await.unwrap();
    finished(&admin, &connected.operation).await;

    let found: Suggestions = admin.get("/api/bank/suggestions").await;
    assert_eq!(
        found.suggestions.len(),
        2,
        "both Netflix charges: {found:?}"
    );
    for charge in &found.suggestions {
        let ids: Vec<i64> = charge.bills.iter().map(|b| b.bill_id).collect();
        assert_eq!(ids, [netflix.id], "{charge:?}");
        assert!(!ids.contains(&spotify.id));
        assert!(charge.bills[0]
            .reasons
            .iter()
            .any(|r| r.contains("the service this bill is")));
    }

    // Matched at its new price, the charge is recorded as charged and the
    // price rise is a drift at once (issue 53, rule 5).
    let charge = transaction_named(&admin, "NETFLIX.COM 866-579-7172 CA").await;
    let charge = if charge.amount_minor == -1_799 {
        charge
    } else {
        all_transactions(&admin)
            .await
            .transactions
            .into_iter()
            .find(|t| t.amount_minor == -1_799)
            .unwrap()
    };
    matched(&admin, charge.id, netflix.id, false).await;
    let paid = payments_of(&admin, netflix.id).await;
    assert_eq!(paid.len(), 1);
    assert_eq!(paid[0].amount_minor, 1_799);
    let drifts = admin.json_raw("/api/bills/drift").await;
    let drifting: Vec<_> = drifts["bills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["billId"].as_i64().unwrap(),
                d["medianMinor"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(drifting, [(netflix.id, 1_799)], "{drifts}");
}
