//! Benchmark: a 100,000-transaction OFX statement previewed and committed
//! by the real `tally` binary. Run with `cargo bench -p server --bench
//! statements` (or `make bench-statements`). Reports the upload with its
//! preview (parse, duplicate check, 100,000 staged rows), the commit
//! (100,000 inserts in batches, then matching), a second preview of the
//! same file (every row already there), the server's peak memory (VmHWM)
//! before and after, and the yardstick: the same 100,000 rows inserted by a
//! raw SQLite loop in one transaction. Not a test: nothing asserts a
//! duration.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use app::contract::operations::{Operation, WaitOperation};
use app::contract::statements::ImportStarted;
use reqwest::Method;
use support::browser::Browser;
use support::{peak_mib, RunningBinary, ADMIN_EMAIL, ADMIN_PASSWORD};

const ROWS: usize = 100_000;

const PAYEES: &[&str] = &[
    "NETFLIX.COM",
    "FRESHMART 0412",
    "SHELL OIL 5734",
    "AMAZON PRIME",
    "CITY POWER AUTOPAY",
    "BLUE BOTTLE COFFEE",
];

/// An OFX 1.02 statement of [`ROWS`] transactions, written as banks write
/// it (leaf elements left open), a transaction per line: just under the
/// 10 MiB limit.
fn statement() -> Vec<u8> {
    let mut text = String::from(
        "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\n\
         COMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1\n\
         <STMTRS><CURDEF>USD\n<BANKACCTFROM><BANKID>121000358\n<ACCTID>987654321\n<ACCTTYPE>CHECKING\n\
         </BANKACCTFROM><BANKTRANLIST>\n",
    );
    for i in 0..ROWS {
        let day = 1 + i % 28;
        let month = 1 + (i / 28) % 12;
        text.push_str(&format!(
            "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>2025{month:02}{day:02}<TRNAMT>-{}.{:02}<FITID>B{i}<NAME>{}</STMTTRN>\n",
            1 + i % 400,
            i % 100,
            PAYEES[i % PAYEES.len()]
        ));
    }
    text.push_str("</BANKTRANLIST><LEDGERBAL><BALAMT>100.00\n<DTASOF>20251231\n</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n");
    text.into_bytes()
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

/// Uploads the statement and waits for its preview.
async fn preview(admin: &Browser, file: &[u8]) -> (ImportStarted, Operation) {
    let response = admin
        .request(Method::POST, "/api/imports?fileName=bench.ofx")
        .body(file.to_vec())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 202);
    let started: ImportStarted = response.json().await.unwrap();
    let done = wait(admin, &started.operation).await;
    (started, done)
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
    for i in 0..ROWS {
        sqlx::query(
            "INSERT INTO raw (account, provider_id, posted_at, amount_cents, description)
             VALUES (?, ?, ?, ?, ?)",
        )
        .bind("987654321")
        .bind(format!("B{i}"))
        .bind("2025-01-01T00:00:00Z")
        .bind(-((1 + i % 400) as i64 * 100))
        .bind(PAYEES[i % PAYEES.len()])
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    started.elapsed()
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let file = statement();
        println!(
            "statement: OFX 1.02, {ROWS} transactions, {:.1} MiB",
            file.len() as f64 / 1_048_576.0
        );
        let server = RunningBinary::start(&[
            ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
            ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
            ("RUST_LOG", "info"),
        ]);
        let pid = server.child.id();
        let admin = Browser::signed_in(&server.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
        let before = peak_mib(pid);

        let started = Instant::now();
        let (import, previewed) = preview(&admin, &file).await;
        let preview_time = started.elapsed();
        let after_preview = peak_mib(pid);
        println!(
            "upload and preview: {preview_time:.2?} ({} new), peak memory {before:.1} MiB before, {after_preview:.1} MiB after",
            previewed.response.unwrap()["newRows"]
        );

        let started = Instant::now();
        let operation: Operation = admin
            .call_expecting(
                202,
                Method::POST,
                &format!("/api/imports/{}/commit", import.import.id),
                &(),
            )
            .await;
        let committed = wait(&admin, &operation).await;
        let commit_time = started.elapsed();
        println!(
            "commit: {commit_time:.2?} ({} added), peak memory {:.1} MiB",
            committed.response.unwrap()["added"],
            peak_mib(pid)
        );

        let started = Instant::now();
        let (_, again) = preview(&admin, &file).await;
        println!(
            "the same file again (preview, every row already there): {:.2?} ({} duplicates), peak memory {:.1} MiB",
            started.elapsed(),
            again.response.unwrap()["duplicates"],
            peak_mib(pid)
        );

        let raw = raw_sqlite_loop().await;
        println!(
            "yardstick, raw SQLite insert loop of {ROWS} rows: {raw:.2?}; preview / raw = {:.1}×, commit / raw = {:.1}×",
            preview_time.as_secs_f64() / raw.as_secs_f64(),
            commit_time.as_secs_f64() / raw.as_secs_f64()
        );
    });
}
