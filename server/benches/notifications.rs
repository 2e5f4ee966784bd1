//! Benchmark: one reminders run for 1,000 users × 20 bills, each user with
//! an ntfy channel pointed at a local receiver, by the real `tally` binary.
//! Run with `cargo bench -p server --bench notifications` (or `make
//! bench-notifications`). Reports the run's time, the messages sent, the
//! server's peak memory (VmHWM) before and after, a second run's time
//! (nothing new to send), and the yardsticks in the same run: a raw SQLite
//! loop reading the 20,000 bills and a bare client posting 1,000 messages
//! to the same receiver. Not a test: nothing asserts a duration.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use app::contract::operations::{Operation, WaitOperation};
use axum::routing::post;
use axum::Router;
use reqwest::Method;
use serde_json::json;
use support::browser::Browser;
use support::{peak_mib, RunningBinary, ADMIN_EMAIL, ADMIN_PASSWORD};

const USERS: usize = 1_000;
const BILLS: usize = 20;

async fn run(admin: &Browser) -> (Duration, Operation) {
    let started = Instant::now();
    let operation: Operation = admin
        .call(Method::POST, "/api/admin/notifications/run", &json!({}))
        .await
        .unwrap()
        .unwrap();
    loop {
        let done: Operation = admin
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
            return (started.elapsed(), done);
        }
    }
}

/// 1,000 users, 20 bills each (due from 10 days ago to 20 days ahead), an
/// ntfy channel each, reminders started a week ago.
async fn populate(database: &std::path::Path, receiver: &str) {
    let pool = app::backend::db::connect(database).await.unwrap();
    let mut tx = pool.begin().await.unwrap();
    for user in 0..USERS {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO users (email, password_hash) VALUES (?, 'x') RETURNING id",
        )
        .bind(format!("user{user}@bench.example"))
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        for bill in 0..BILLS {
            let offset = (bill as i64 * 3 + user as i64) % 30 - 10;
            sqlx::query(
                "INSERT INTO bills (user_id, name, amount_cents, cadence, cadence_interval,
                     due_day, anchor_date)
                 VALUES (?, ?, ?, 'custom_days', 30, 1, date('now', ? || ' days'))",
            )
            .bind(id)
            .bind(format!("Bill {bill}"))
            .bind(1_000 + bill as i64 * 250)
            .bind(offset.to_string())
            .execute(&mut *tx)
            .await
            .unwrap();
        }
        sqlx::query(
            "INSERT INTO notification_channels (user_id, kind, name, events, settings, confirmed_at)
             VALUES (?, 'ntfy', 'Phone', 'due_soon,overdue,autopay_failed,bank_sync_failed,bank_sync_recovered,price_changed',
                 ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
        )
        .bind(id)
        .bind(json!({"serverUrl": receiver, "topic": format!("user{user}")}).to_string())
        .execute(&mut *tx)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO notification_preferences (user_id, started_on) VALUES (?, date('now', '-7 days'))",
        )
        .bind(id)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    pool.close().await;
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let received = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&received);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let receiver = format!("http://{}", listener.local_addr().unwrap());
        let router = Router::new().route(
            "/",
            post(move || {
                counter.fetch_add(1, Ordering::Relaxed);
                async { r#"{"id":"1"}"# }
            }),
        );
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });

        let server = RunningBinary::start(&[
            ("NOTIFY_ALLOW_HTTP", "true"),
            ("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1"),
            ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
            ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
            ("REMINDER_HOUR", "23"),
        ]);
        let pid = server.child.id();
        let database = server.dir.path().join("data/db/bills.db");
        populate(&database, &receiver).await;
        let admin = Browser::signed_in(&server.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
        let before = peak_mib(pid);

        let (first, done) = run(&admin).await;
        let response = done.response.unwrap();
        println!(
            "one run, {USERS} users × {BILLS} bills: {first:.2?}; {} messages sent (receiver got {}), peak memory {before:.1} MiB before, {:.1} MiB after",
            response["sent"],
            received.load(Ordering::Relaxed),
            peak_mib(pid)
        );
        let (second, _) = run(&admin).await;
        println!("a second run (nothing new): {second:.2?}");

        // Yardsticks: reading the bills raw, and posting as many messages.
        let pool = app::backend::db::connect(&database).await.unwrap();
        let started = Instant::now();
        let rows: Vec<(i64, i64, String, i64)> = sqlx::query_as(
            "SELECT id, user_id, anchor_date, amount_cents FROM bills ORDER BY user_id",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        let raw_read = started.elapsed();
        let client = reqwest::Client::new();
        let started = Instant::now();
        for user in 0..USERS {
            client
                .post(format!("{receiver}/"))
                .json(&json!({"topic": format!("user{user}"), "title": "Tally", "message": "x"}))
                .send()
                .await
                .unwrap();
        }
        let raw_posts = started.elapsed();
        println!(
            "yardsticks: a raw SQLite read of {} bills {raw_read:.2?}; a bare client posting {USERS} messages {raw_posts:.2?}; run / (read + posts) = {:.1}×",
            rows.len(),
            first.as_secs_f64() / (raw_read + raw_posts).as_secs_f64()
        );
    });
}
