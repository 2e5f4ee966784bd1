//! Benchmark: SQLite files people upload, against the real `tally` binary.
//! Run with `cargo bench -p server --bench uploads` (or `make
//! bench-uploads`). Two parts:
//!
//! 1. Hostile files (Hardening III, finding 3: a 45 KB Actual budget whose
//!    schedule names were a generated column of 400 MB each made the server
//!    allocate 2.4 GB). Each file computes `printf('%.*c', 400000000, 'x')`
//!    in a generated column or a view: the Actual budget through the bill
//!    import's preview, a personal export through "Import my data". Reports
//!    each answer's status, time and the server's peak memory (VmHWM, reset
//!    to the current size before each upload where Linux allows) before and
//!    after; the goal is a 4xx within seconds and a rise of at most 64 MiB.
//!    The untouched Actual fixture is the control.
//! 2. The personal import's write lock (finding 4: a 64 MiB import copies in
//!    one transaction). A valid export enlarged to just under the limit is
//!    imported while another person creates bills; reports their create
//!    latency idle and during the import; the goal is no wait over a
//!    second.
//!
//! Not a test: nothing asserts a duration.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use app::backend::personal_data::rules::{MAX_BYTES, TABLES};
use reqwest::Method;
use serde_json::json;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::SqlitePool;
use support::browser::Browser;
use support::{peak_mib, plain_user_at, RunningBinary, ADMIN_EMAIL, ADMIN_PASSWORD};

/// What each hostile file makes SQLite compute: one 400 MB value a row.
const BOMB: &str = "printf('%.*c', 400000000, 'x')";
/// The goal for a hostile upload's rise of the server's peak memory.
const GOAL_RISE_MIB: f64 = 64.0;
/// The importer's own bills, which the enlarged export's payments cycle over.
const BILLS: usize = 5;
/// Payments added per bill per round while enlarging the export.
const ROUND: i64 = 3_000;
/// The enlarged export: past this after a VACUUM, and under [`MAX_BYTES`].
const TARGET_BYTES: u64 = (MAX_BYTES - 4 * 1024 * 1024) as u64;
/// The other person's creates with no import running.
const IDLE_CREATES: usize = 50;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/other_apps")
            .join(name),
    )
    .unwrap()
}

/// The file at `path` as the `sqlite3` shell opens it: foreign keys off
/// (an edit may point anywhere), rollback journal (one file to send).
async fn open(path: &Path) -> SqlitePool {
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(
            SqliteConnectOptions::new()
                .filename(path)
                .foreign_keys(false)
                .journal_mode(SqliteJournalMode::Delete),
        )
        .await
        .unwrap()
}

/// `original` with `sql` run on it, as an attacker edits a file.
async fn edited(original: &[u8], sql: String) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.sqlite");
    std::fs::write(&path, original).unwrap();
    let pool = open(&path).await;
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    std::fs::read(&path).unwrap()
}

/// `table.column` replaced by a generated column computing [`BOMB`]
/// (exactly as the test of finding 3 builds its file).
fn generated_column(table: &str, column: &str) -> String {
    format!(
        "ALTER TABLE {table} RENAME COLUMN {column} TO real_{column};
         ALTER TABLE {table} ADD COLUMN {column} TEXT GENERATED ALWAYS AS ({BOMB}) VIRTUAL;"
    )
}

/// `table` replaced by a view of its rows, `bombed` of `columns` computed
/// by [`BOMB`].
fn view(table: &str, columns: &[&str], bombed: &str) -> String {
    let select = columns
        .iter()
        .map(|column| {
            if *column == bombed {
                format!("{BOMB} AS {column}")
            } else {
                (*column).to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "ALTER TABLE {table} RENAME TO {table}_stored;
         CREATE VIEW {table} AS SELECT {select} FROM {table}_stored;"
    )
}

/// Resets the process's VmHWM to its current resident size (Linux's
/// `clear_refs` 5); whether it could.
fn reset_peak(pid: u32) -> bool {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").is_ok()
}

/// One upload's answer and the server's peak memory around it.
struct Answer {
    status: u16,
    elapsed: Duration,
    before: f64,
    after: f64,
    why: String,
}

async fn measure(pid: u32, browser: &Browser, path: &str, kind: &str, file: Vec<u8>) -> Answer {
    reset_peak(pid);
    let before = peak_mib(pid);
    let started = Instant::now();
    let (status, body) = browser.post_file(path, kind, file).await;
    let elapsed = started.elapsed();
    let after = peak_mib(pid);
    let error = &body["error"];
    let why = error["details"][0]["fieldViolations"][0]["description"]
        .as_str()
        .or_else(|| error["message"].as_str())
        .unwrap_or_default()
        .to_owned();
    Answer {
        status,
        elapsed,
        before,
        after,
        why,
    }
}

async fn download(browser: &Browser) -> Vec<u8> {
    let response = browser
        .request(Method::GET, "/api/data/export.sqlite")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.bytes().await.unwrap().to_vec()
}

fn bill(name: &str) -> serde_json::Value {
    json!({"name": name, "amountMinor": 4_200, "currency": "USD",
        "cadence": "monthly", "dueDay": 9, "anchorDate": "2026-01-09"})
}

/// Part 1: each hostile file, beside the untouched budget as the control.
async fn hostile_files(pid: u32, admin: &Browser, export: &[u8]) {
    let budget = fixture("actual_db.sqlite");
    let bills: Vec<&str> = TABLES
        .iter()
        .find(|table| table.name == "bills")
        .unwrap()
        .columns
        .iter()
        .map(|(name, _)| *name)
        .collect();
    let preview = "/api/data/import/preview?from=actual";
    let personal = "/api/data/import.sqlite";
    // (d) is left out: the restore check (`POST /v1/admin:restoreCheck`)
    // takes only the name of a backup already in the server's backup
    // directory; no route receives a backup file to check.
    let files = [
        (
            "control, the untouched Actual budget (preview)",
            preview,
            "text/csv",
            budget.clone(),
        ),
        (
            "(a) Actual, schedules.name a generated column (preview)",
            preview,
            "text/csv",
            edited(&budget, generated_column("schedules", "name")).await,
        ),
        (
            "(b) Actual, rules a view computing conditions (preview)",
            preview,
            "text/csv",
            edited(
                &budget,
                view(
                    "rules",
                    &[
                        "id",
                        "stage",
                        "conditions",
                        "actions",
                        "tombstone",
                        "conditions_op",
                    ],
                    "conditions",
                ),
            )
            .await,
        ),
        (
            "(c) personal export, bills.name a generated column",
            personal,
            "application/vnd.sqlite3",
            edited(export, generated_column("bills", "name")).await,
        ),
        (
            "(c) personal export, bills a view computing name",
            personal,
            "application/vnd.sqlite3",
            edited(export, view("bills", &bills, "name")).await,
        ),
    ];
    let resets = reset_peak(pid);
    println!(
        "hostile files: peak memory {} before each upload",
        if resets {
            "reset to the current size"
        } else {
            "not resettable here (a rise shows only past the earlier peak)"
        }
    );
    let mut largest: f64 = 0.0;
    let mut all_refused = true;
    for (index, (name, path, kind, file)) in files.into_iter().enumerate() {
        let size = file.len();
        let answer = measure(pid, admin, path, kind, file).await;
        let rise = answer.after - answer.before;
        println!(
            "{name}: {}, {} ms, peak {:.1} -> {:.1} MiB (rise {rise:.1} MiB, goal <= {GOAL_RISE_MIB}); {} KB sent{}",
            answer.status,
            answer.elapsed.as_millis(),
            answer.before,
            answer.after,
            size / 1000,
            if answer.why.is_empty() {
                String::new()
            } else {
                format!("; says: {}", answer.why)
            }
        );
        if index > 0 {
            largest = largest.max(rise);
            all_refused &= (400..500).contains(&answer.status);
        }
    }
    println!(
        "hostile files: largest rise {largest:.1} MiB (goal <= {GOAL_RISE_MIB}: {}); every answer 4xx: {}",
        if largest <= GOAL_RISE_MIB { "met" } else { "NOT met" },
        if all_refused { "yes" } else { "NO" }
    );
}

/// `export` enlarged with valid payments of its own bills (amounts,
/// dates and methods the payment form takes) until, after a VACUUM, it
/// passes [`TARGET_BYTES`]; the file and its payments.
async fn enlarged(export: &[u8]) -> (Vec<u8>, i64) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.sqlite");
    std::fs::write(&path, export).unwrap();
    let pool = open(&path).await;
    let size = || std::fs::metadata(&path).unwrap().len();
    let mut offset = 0_i64;
    loop {
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
             INSERT INTO payments (bill_id, user_id, amount_cents, paid_on, method)
             SELECT b.id, b.user_id, 100 + (n.i * 37 + b.id) % 500000,
                    date('2020-01-01', '+' || ((n.i + ?2) % 2500) || ' days'),
                    'bank transfer from checking, ref ' || printf('%07d', (n.i + ?2) % 10000000)
             FROM n CROSS JOIN bills AS b
             WHERE b.user_id = (SELECT id FROM users)",
        )
        .bind(ROUND)
        .bind(offset)
        .execute(&pool)
        .await
        .unwrap();
        offset += ROUND;
        if size() >= TARGET_BYTES {
            sqlx::raw_sql("VACUUM").execute(&pool).await.unwrap();
            if size() >= TARGET_BYTES {
                break;
            }
        }
    }
    let payments: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payments")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    let file = std::fs::read(&path).unwrap();
    assert!(file.len() <= MAX_BYTES, "{} bytes", file.len());
    (file, payments)
}

/// One bill created by `person`: its status and latency.
async fn create(person: &Browser, name: &str) -> (u16, Duration) {
    let started = Instant::now();
    let status = person
        .request(Method::POST, "/api/bills")
        .json(&bill(name))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16();
    (status, started.elapsed())
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// The median and the largest of `latencies`.
fn spread(latencies: &[Duration]) -> (Duration, Duration) {
    let mut sorted = latencies.to_vec();
    sorted.sort();
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or_default();
    (median, sorted.last().copied().unwrap_or_default())
}

/// Part 2: another person's bill creates, idle and during a big import.
async fn write_lock(pid: u32, base: &str, admin: &Browser, export: &[u8]) {
    let other = plain_user_at(base, admin, "other@bench.example").await;
    let started = Instant::now();
    let (big, payments) = enlarged(export).await;
    println!(
        "big export: {payments} payments of {BILLS} bills, {:.1} MiB (limit {} MiB), built in {:.2?}",
        big.len() as f64 / 1_048_576.0,
        MAX_BYTES / (1024 * 1024),
        started.elapsed()
    );

    let mut idle = Vec::with_capacity(IDLE_CREATES);
    for i in 0..IDLE_CREATES {
        let (status, latency) = create(&other, &format!("Idle {i}")).await;
        assert_eq!(status, 201);
        idle.push(latency);
    }
    let (idle_median, idle_max) = spread(&idle);
    println!(
        "yardstick, no import running: {IDLE_CREATES} bill creates, median {:.1} ms, max {:.1} ms",
        ms(idle_median),
        ms(idle_max)
    );

    let before = peak_mib(pid);
    let request = admin
        .request(Method::POST, "/api/data/import.sqlite")
        .header("content-type", "application/vnd.sqlite3")
        .body(big);
    let import = tokio::spawn(async move {
        let started = Instant::now();
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let body = response.text().await.unwrap();
        (status, body, started.elapsed())
    });
    let mut during = Vec::new();
    let mut refused = 0;
    while !import.is_finished() {
        let (status, latency) = create(&other, &format!("During {}", during.len())).await;
        refused += usize::from(status != 201);
        during.push(latency);
    }
    let (status, body, took) = import.await.unwrap();
    println!(
        "import: {status} in {took:.2?}, peak memory {before:.1} MiB before, {:.1} MiB after",
        peak_mib(pid)
    );
    if (400..500).contains(&status) {
        println!("import refused: {body}");
    } else if status != 200 {
        println!("import failed: {body}");
    }
    let (during_median, during_max) = spread(&during);
    println!(
        "during the import: {} bill creates ({refused} not 201), median {:.1} ms, max {:.1} ms",
        during.len(),
        ms(during_median),
        ms(during_max)
    );
    println!(
        "max during / median idle = {:.1}x; goal max during <= 1000 ms: {}",
        ms(during_max) / ms(idle_median).max(0.001),
        if during_max <= Duration::from_secs(1) {
            "met"
        } else {
            "NOT met"
        }
    );
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let server = RunningBinary::start(&[
            ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
            ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
            ("RUST_LOG", "info"),
        ]);
        let pid = server.child.id();
        let base = server.url("");
        let admin = Browser::signed_in(&base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
        for i in 0..BILLS {
            let _: serde_json::Value = admin
                .call_expecting(201, Method::POST, "/api/bills", &bill(&format!("Bill {i}")))
                .await;
        }
        let export = download(&admin).await;
        println!(
            "the importer's export: {BILLS} bills, {} KB",
            export.len() / 1000
        );

        hostile_files(pid, &admin, &export).await;
        write_lock(pid, &base, &admin, &export).await;
    });
}
