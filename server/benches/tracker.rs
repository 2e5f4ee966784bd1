//! Benchmark: the Tracker for a user with 500 bills and 20,000 payments.
//! Run with `cargo bench -p server --bench tracker` (or `make bench-tracker`).
//! Reports p50/p99 of `GET /api/tracker` (the month's view: every bill's due
//! date and the month's payments) and `GET /api/bills` over HTTP against the
//! real server. Not a test: nothing asserts a duration.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use reqwest::Method;
use support::browser::Browser;

const BILLS: i64 = 500;
const PAYMENTS: i64 = 20_000;
const RUNS: usize = 200;

fn report(label: &str, mut timings: Vec<Duration>) {
    timings.sort();
    let at = |p: f64| timings[((timings.len() - 1) as f64 * p).round() as usize];
    println!(
        "{label}: p50 {:.2?}, p99 {:.2?}, max {:.2?} over {} runs",
        at(0.5),
        at(0.99),
        timings[timings.len() - 1],
        timings.len()
    );
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let app = support::spawn_app(&[
            ("BOOTSTRAP_ADMIN_EMAIL", "admin@example.com"),
            ("BOOTSTRAP_ADMIN_PASSWORD", "correct horse battery staple"),
        ])
        .await;
        let pool = app::ssr::db::connect(&app.database_path()).await.unwrap();
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
             INSERT INTO bills (user_id, name, amount_cents, cadence, cadence_interval, due_day,
                                anchor_date, category, is_debt, balance_cents, apr_basis_points)
             SELECT 1, 'Bill ' || i, 1000 + i,
                    CASE i % 5 WHEN 0 THEN 'weekly' WHEN 1 THEN 'monthly' WHEN 2 THEN 'quarterly'
                               WHEN 3 THEN 'yearly' ELSE 'custom_days' END,
                    CASE WHEN i % 5 = 4 THEN 10 ELSE 1 END,
                    1 + i % 28, '2024-01-' || printf('%02d', 1 + i % 28),
                    'Category ' || (i % 12), i % 10 = 0, CASE WHEN i % 10 = 0 THEN 500000 END,
                    CASE WHEN i % 10 = 0 THEN 1999 END
             FROM n",
        )
        .bind(BILLS)
        .execute(&pool)
        .await
        .unwrap();
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
             INSERT INTO payments (bill_id, user_id, amount_cents, paid_on)
             SELECT 1 + i % ?, 1, 1000, date('now', printf('-%d days', i % 900)) FROM n",
        )
        .bind(PAYMENTS)
        .bind(BILLS)
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;

        let browser = Browser::signed_in(
            &app.address,
            "admin@example.com",
            "correct horse battery staple",
        )
        .await;
        for (label, path) in [
            (
                "GET /api/tracker (500 bills, 20,000 payments)",
                "/api/tracker",
            ),
            (
                "GET /api/bills (500 bills with next due dates)",
                "/api/bills",
            ),
            (
                "GET /api/reports/spending (six months)",
                "/api/reports/spending",
            ),
        ] {
            let mut timings = Vec::with_capacity(RUNS);
            for _ in 0..RUNS {
                let started = Instant::now();
                let response = browser.request(Method::GET, path).send().await.unwrap();
                assert_eq!(response.status(), 200);
                response.bytes().await.unwrap();
                timings.push(started.elapsed());
            }
            report(label, timings);
        }
    });
}
