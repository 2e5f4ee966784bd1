//! Benchmark: a bank sync of 3 accounts × 10,000 transactions against a
//! local fake SimpleFIN provider, by the real `tally` binary. Run with
//! `cargo bench -p server --bench bank_sync` (or `make bench-bank`).
//! Reports the seed sync's time (claim, the connect's balance read, fetch,
//! 30,000 inserts in batches, matching),
//! a second sync's (every transaction already known), the server's peak
//! memory (VmHWM) before and after, and the yardstick: the same 30,000
//! rows inserted by a raw SQLite loop in one transaction. Not a test:
//! nothing asserts a duration.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use app::contract::bank::{ConnectBank, Connected};
use app::contract::operations::{Operation, WaitOperation};
use axum::routing::{get, post};
use axum::Router;
use base64::Engine as _;
use reqwest::Method;
use serde_json::json;
use support::browser::Browser;
use support::{peak_mib, RunningBinary, ADMIN_EMAIL, ADMIN_PASSWORD};

const ACCOUNTS: usize = 3;
const PER_ACCOUNT: usize = 10_000;
const DAY: i64 = 86_400;

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

const PAYEES: &[&str] = &[
    "NETFLIX.COM 866-579-7172 CA",
    "FRESHMART #0412",
    "SHELL OIL 5734 AUSTIN TX",
    "AMAZON PRIME*2K4RT6",
    "CITY POWER & LIGHT AUTOPAY",
    "BLUE BOTTLE COFFEE",
    "PAYROLL ACME CORP DIRECT DEP",
];

/// The provider's `balances-only` answer: the accounts, no transactions.
fn balances() -> String {
    let accounts: Vec<_> = (0..ACCOUNTS)
        .map(|account| {
            json!({"id": format!("ACT-{account}"), "name": format!("Account {account}"),
                "currency": "USD", "balance": "1520.75", "available-balance": "1500.00",
                "balance-date": now(), "org": {"domain": "bench.example", "name": "Bench Bank"},
                "transactions": []})
        })
        .collect();
    json!({"errors": [], "accounts": accounts}).to_string()
}

/// The provider's answer: every account with its transactions, spread
/// over the last 40 days.
fn answer() -> String {
    let start = now() - 40 * DAY;
    let accounts: Vec<_> = (0..ACCOUNTS)
        .map(|account| {
            let transactions: Vec<_> = (0..PER_ACCOUNT)
                .map(|i| {
                    let posted = start + (i as i64 * 40 * DAY) / PER_ACCOUNT as i64;
                    json!({"id": format!("A{account}-T{i}"), "posted": posted,
                        "amount": format!("-{}.{:02}", 1 + i % 400, i % 100),
                        "description": format!("{} {}", PAYEES[i % PAYEES.len()], i),
                        "payee": null, "memo": "", "transacted_at": posted})
                })
                .collect();
            json!({"id": format!("ACT-{account}"), "name": format!("Account {account}"),
                "currency": "USD", "balance": "1520.75", "available-balance": "1500.00",
                "balance-date": now(), "org": {"domain": "bench.example", "name": "Bench Bank"},
                "transactions": transactions})
        })
        .collect();
    json!({"errors": [], "accounts": accounts}).to_string()
}

async fn wait(browser: &Browser, operation: &Operation) -> Operation {
    loop {
        let done: Operation = browser
            .call(
                Method::POST,
                &format!("/v1/{}:wait", operation.name),
                &WaitOperation {
                    timeout: Some("60s".into()),
                },
            )
            .await
            .unwrap()
            .unwrap();
        if done.done {
            assert!(done.error.is_none(), "{done:?}");
            return done;
        }
    }
}

/// The yardstick: the same number of rows by a raw prepared INSERT loop.
async fn raw_sqlite_loop() -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let pool = app::backend::db::connect(&dir.path().join("raw.db"))
        .await
        .unwrap();
    sqlx::query(
        "CREATE TABLE raw (id INTEGER PRIMARY KEY, account TEXT, provider_id TEXT UNIQUE,
             posted_at TEXT, amount_cents INTEGER, description TEXT)",
    )
    .execute(&pool)
    .await
    .unwrap();
    let started = Instant::now();
    let mut tx = pool.begin().await.unwrap();
    for account in 0..ACCOUNTS {
        for i in 0..PER_ACCOUNT {
            sqlx::query(
                "INSERT INTO raw (account, provider_id, posted_at, amount_cents, description)
                 VALUES (?, ?, ?, ?, ?)",
            )
            .bind(format!("ACT-{account}"))
            .bind(format!("A{account}-T{i}"))
            .bind("2026-11-01T12:00:00Z")
            .bind(-((1 + i % 400) as i64 * 100))
            .bind(PAYEES[i % PAYEES.len()])
            .execute(&mut *tx)
            .await
            .unwrap();
        }
    }
    tx.commit().await.unwrap();
    started.elapsed()
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let body = answer();
        println!(
            "provider answer: {} accounts × {} transactions, {:.1} MiB of JSON",
            ACCOUNTS,
            PER_ACCOUNT,
            body.len() as f64 / 1_048_576.0
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let access = format!("http://user:pass@127.0.0.1:{port}/simplefin");
        let router = Router::new()
            .route("/claim", post(move || async move { access }))
            .route(
                "/simplefin/accounts",
                get(
                    move |query: axum::extract::Query<std::collections::HashMap<String, String>>| {
                        let body = if query.contains_key("balances-only") {
                            balances()
                        } else {
                            body.clone()
                        };
                        async move { ([("content-type", "application/json")], body) }
                    },
                ),
            );
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });

        let server = RunningBinary::start(&[
            ("BANK_SYNC_ENABLED", "true"),
            ("SIMPLEFIN_ALLOW_HTTP", "true"),
            ("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1"),
            ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
            ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
            ("RUST_LOG", "info"),
        ]);
        let pid = server.child.id();
        let admin = Browser::signed_in(&server.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
        let before = peak_mib(pid);

        let token = base64::engine::general_purpose::STANDARD
            .encode(format!("http://127.0.0.1:{port}/claim"));
        let started = Instant::now();
        let connected: Connected = admin
            .call(
                Method::POST,
                "/api/bank/connections",
                &ConnectBank { setup_token: token },
            )
            .await
            .unwrap()
            .unwrap();
        let seeded = wait(&admin, &connected.operation).await;
        let seed = started.elapsed();
        let after_seed = peak_mib(pid);
        println!(
            "seed sync: {seed:.2?} ({}), peak memory {before:.1} MiB before, {after_seed:.1} MiB after",
            seeded.response.unwrap()["transactionsAdded"]
        );

        let started = Instant::now();
        let operation: Operation = admin
            .call(
                Method::POST,
                &format!("/api/bank/connections/{}/sync", connected.connection.id),
                &json!({}),
            )
            .await
            .unwrap()
            .unwrap();
        wait(&admin, &operation).await;
        let again = started.elapsed();
        println!(
            "second sync (nothing new): {again:.2?}, peak memory {:.1} MiB",
            peak_mib(pid)
        );

        let raw = raw_sqlite_loop().await;
        println!(
            "yardstick, raw SQLite insert loop of {} rows: {raw:.2?}; seed sync / raw = {:.1}×",
            ACCOUNTS * PER_ACCOUNT,
            seed.as_secs_f64() / raw.as_secs_f64()
        );
    });
}
