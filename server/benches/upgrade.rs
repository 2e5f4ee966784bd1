//! Benchmark: upgrade a v0.36 database holding 100,000 transactions to v0.37
//! and report the time. Run with `cargo bench -p server --bench upgrade`.
//! Not a test: nothing here asserts a duration.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/legacy.rs"]
mod legacy;

use std::time::Instant;

use app::backend::migrate::Migrator;

const TRANSACTIONS: usize = 100_000;
const RUNS: usize = 3;

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut timings = Vec::new();
    for run in 1..=RUNS {
        let dir = tempfile::tempdir().unwrap();
        let (db, _) = runtime.block_on(legacy::build(dir.path(), TRANSACTIONS));
        let rows: i64 =
            runtime.block_on(legacy::count(&db.pool, "SELECT count(*) FROM transactions"));
        let started = Instant::now();
        runtime.block_on(Migrator::default().run(&db.pool)).unwrap();
        let elapsed = started.elapsed();
        println!("run {run}: upgraded v0.36 -> v0.37 with {rows} transactions in {elapsed:.2?}");
        timings.push(elapsed);
        runtime.block_on(db.pool.close());
    }
    timings.sort();
    println!(
        "upgrade/100k-transactions: median {:.2?} (min {:.2?}, max {:.2?}) over {RUNS} runs",
        timings[RUNS / 2],
        timings[0],
        timings[RUNS - 1]
    );
}
