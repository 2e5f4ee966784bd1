//! Benchmarks of the operations API (issue 6). Run with
//! `cargo bench -p server --bench operations` (or `make bench-operations`).
//! Not a test: nothing here asserts a duration; it prints figures.
//!
//! 1. Wake-up: how long after an operation completes a client blocked in
//!    `:wait` gets its answer — in-process (the engine's `wait`, timed from
//!    the start of the call that records the outcome, so the SQLite commit
//!    is included) and over HTTP (timed from sending `:cancel` for a running
//!    sleep, so one more request round trip is included).
//! 2. Listing: one page of `GET /v1/operations` (50, newest first) with
//!    1,000,000 operations stored, first page, a deep page and a filtered
//!    page, through the engine.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use app::backend::operations::{Engine, ListRequest, OperationKind, Outcome, Viewer};
use reqwest::Method;
use serde_json::json;
use support::browser::Browser;

const WAKE_RUNS: usize = 300;
const HTTP_RUNS: usize = 100;
const STORED: i64 = 1_000_000;
const LIST_RUNS: usize = 200;

const ADMIN: Viewer = Viewer {
    user_id: 1,
    admin: true,
};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at]
}

fn report(label: &str, mut timings: Vec<Duration>) {
    timings.sort();
    println!(
        "{label}: p50 {:.2?}, p99 {:.2?}, max {:.2?} over {} runs",
        percentile(&timings, 0.50),
        percentile(&timings, 0.99),
        timings[timings.len() - 1],
        timings.len()
    );
}

async fn engine(dir: &std::path::Path) -> Arc<Engine> {
    let pool = app::backend::db::connect(&dir.join("bench.db"))
        .await
        .unwrap();
    app::backend::migrate::Migrator::default()
        .run(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO users (id, email) VALUES (1, 'a@example.com'), (2, 'b@example.com')")
        .execute(&pool)
        .await
        .unwrap();
    Engine::new(pool, Duration::from_secs(86_400))
        .await
        .unwrap()
}

async fn wake_up_in_process(engine: &Arc<Engine>) {
    let mut timings = Vec::with_capacity(WAKE_RUNS);
    for _ in 0..WAKE_RUNS {
        let record = engine
            .start_external(Some(1), OperationKind::Sleep)
            .await
            .unwrap();
        let waiter = {
            let engine = Arc::clone(engine);
            let id = record.id.clone();
            tokio::spawn(async move {
                engine
                    .wait(ADMIN, &id, Duration::from_secs(30))
                    .await
                    .unwrap();
                Instant::now()
            })
        };
        // Let the waiter reach its wait before the operation completes.
        tokio::time::sleep(Duration::from_millis(2)).await;
        let completed = Instant::now();
        engine
            .finish(
                &record.id,
                OperationKind::Sleep,
                Outcome::Response(json!({})),
            )
            .await
            .unwrap();
        let returned = waiter.await.unwrap();
        timings.push(returned.saturating_duration_since(completed));
    }
    report(
        "wait wake-up, in process (completion incl. commit -> wait returns)",
        timings,
    );
}

async fn wake_up_over_http() {
    let app = support::spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", "admin@example.com"),
        ("BOOTSTRAP_ADMIN_PASSWORD", "correct horse battery staple"),
        ("TALLY_DIAGNOSTICS", "1"),
    ])
    .await;
    let admin = Arc::new(
        Browser::signed_in(
            &app.address,
            "admin@example.com",
            "correct horse battery staple",
        )
        .await,
    );
    let mut timings = Vec::with_capacity(HTTP_RUNS);
    for _ in 0..HTTP_RUNS {
        let (_, started) = admin
            .send_raw(
                Method::POST,
                "/v1/diagnostics:sleep",
                json!({ "duration": "60s" }),
            )
            .await;
        let name = started["name"].as_str().unwrap().to_owned();
        let waiter = {
            let admin = Arc::clone(&admin);
            let path = format!("/v1/{name}:wait");
            tokio::spawn(async move {
                let (status, operation) = admin
                    .send_raw(Method::POST, &path, json!({ "timeout": "20s" }))
                    .await;
                assert_eq!((status, &operation["done"]), (200, &json!(true)));
                Instant::now()
            })
        };
        tokio::time::sleep(Duration::from_millis(5)).await;
        let cancelled = Instant::now();
        let (status, _) = admin
            .send_raw(Method::POST, &format!("/v1/{name}:cancel"), json!({}))
            .await;
        assert_eq!(status, 200);
        let returned = waiter.await.unwrap();
        timings.push(returned.saturating_duration_since(cancelled));
    }
    report(
        "wait wake-up, over HTTP (send :cancel -> :wait answers)",
        timings,
    );
}

async fn list_with_a_million(engine: &Arc<Engine>) {
    let started = Instant::now();
    sqlx::query(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO operations (id, owner_id, kind, metadata_type, metadata, done,
                                 response_type, response, created_at, updated_at, ended_at)
         SELECT printf('%032x', i), 1 + (i % 2),
                CASE WHEN i % 100 = 0 THEN 'backup' ELSE 'sleep' END,
                CASE WHEN i % 100 = 0 THEN 'tally.v1.BackupMetadata' ELSE 'tally.v1.SleepMetadata' END,
                '{\"duration\":\"1s\"}', 1,
                CASE WHEN i % 100 = 0 THEN 'tally.v1.BackupResponse' ELSE 'tally.v1.SleepResponse' END,
                '{}', stamp, stamp, stamp
         FROM (SELECT i, strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', printf('+%d seconds', i)) AS stamp FROM n)",
    )
    .bind(STORED)
    .execute(engine.pool())
    .await
    .unwrap();
    println!("stored {STORED} operations in {:.1?}", started.elapsed());

    let time = |request: ListRequest, viewer: Viewer| {
        let engine = Arc::clone(engine);
        async move {
            let mut timings = Vec::with_capacity(LIST_RUNS);
            let mut shown = 0;
            for _ in 0..LIST_RUNS {
                let started = Instant::now();
                let page = engine.list(viewer, &request).await.unwrap();
                timings.push(started.elapsed());
                shown = page.operations.len();
            }
            (timings, shown)
        }
    };
    let (timings, shown) = time(ListRequest::default(), ADMIN).await;
    report(
        &format!("list, first page of {shown} (admin, all {STORED})"),
        timings,
    );

    // A page half a million rows deep, reached with a real token.
    let mut deep = ListRequest {
        page_size: Some(1000),
        ..ListRequest::default()
    };
    for _ in 0..500 {
        let page = engine.list(ADMIN, &deep).await.unwrap();
        deep.page_token = page.next_page_token;
    }
    deep.page_size = Some(1000);
    let (timings, shown) = time(deep.clone(), ADMIN).await;
    report(&format!("list, page of {shown} at 500,000 deep"), timings);

    let filtered = ListRequest {
        filter: "done = true AND kind = \"backup\"".into(),
        ..ListRequest::default()
    };
    let (timings, shown) = time(filtered, ADMIN).await;
    report(
        &format!("list, first page of {shown} with filter kind = backup (1 in 100)"),
        timings,
    );

    let user = Viewer {
        user_id: 2,
        admin: false,
    };
    let (timings, shown) = time(ListRequest::default(), user).await;
    report(
        &format!("list, first page of {shown} for one user (half of them)"),
        timings,
    );
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine(dir.path()).await;
        wake_up_in_process(&engine).await;
        wake_up_over_http().await;
        list_with_a_million(&engine).await;
    });
}
