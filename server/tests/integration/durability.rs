#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Every acknowledged submission survives `kill -9`.
//!
//! Sixteen clients post leads as fast as the real binary takes them; the
//! process is killed with SIGKILL in the middle of the run and started
//! again on the same data directory. Every lead that got a 201 must be in
//! the database with what was sent, and `PRAGMA integrity_check` must say
//! `ok`. Three rounds, on the same directory. Group commit answers a batch
//! only after its commit, so this holds only if that order holds.

use crate::support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use support::RunningBinary;

const CLIENTS: usize = 16;
const ROUNDS: usize = 3;
/// Kill once this many leads were acknowledged in the round (or after the
/// time below, whichever comes first).
const ACKED_BEFORE_KILL: usize = 300;
const MAX_RUN_BEFORE_KILL: Duration = Duration::from_secs(20);

const SETTINGS: &[(&str, &str)] = &[("RATE_LIMIT_PER_MINUTE", "100000")];

/// `(id, name)` of every acknowledged lead.
type Acked = Arc<Mutex<Vec<(i64, String)>>>;

async fn submit_until_refused(base: String, round: usize, client: usize, acked: Acked) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    for n in 0..100_000 {
        let name = format!("Round {round} client {client} lead {n}");
        let sent = http
            .post(format!("{base}/api/leads"))
            .json(&serde_json::json!({
                "name": name,
                "email": format!("c{client}n{n}@example.com"),
                "message": "Durable, please",
            }))
            .send()
            .await;
        let Ok(response) = sent else {
            return; // the server is gone
        };
        if response.status() != 201 {
            return;
        }
        let Ok(body) = response.json::<serde_json::Value>().await else {
            return; // killed between the status line and the body
        };
        let id = body["id"].as_i64().expect("201 carries the id");
        acked.lock().unwrap().push((id, name));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn acknowledged_leads_survive_kill_9() {
    let mut server = RunningBinary::start(SETTINGS);
    let mut all_acked: Vec<(i64, String)> = Vec::new();
    for round in 0..ROUNDS {
        let acked: Acked = Arc::default();
        let base = server.url("");
        let clients: Vec<_> = (0..CLIENTS)
            .map(|client| {
                tokio::spawn(submit_until_refused(
                    base.clone(),
                    round,
                    client,
                    acked.clone(),
                ))
            })
            .collect();
        let started = Instant::now();
        while acked.lock().unwrap().len() < ACKED_BEFORE_KILL
            && started.elapsed() < MAX_RUN_BEFORE_KILL
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // SIGKILL, mid-run: requests are in flight and batches uncommitted.
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        for client in clients {
            client.await.unwrap();
        }
        let acked = std::mem::take(&mut *acked.lock().unwrap());
        assert!(
            !acked.is_empty(),
            "round {round}: no lead was acknowledged before the kill"
        );
        all_acked.extend(acked);

        let dir = std::mem::replace(&mut server.dir, tempfile::tempdir().unwrap());
        server = RunningBinary::start_in(dir, SETTINGS);
        let health = reqwest::get(server.url("/api/health")).await.unwrap();
        assert_eq!(health.status(), 200, "round {round}: healthy after restart");

        let database = server.dir.path().join("data/db/bills.db");
        let pool = app::backend::db::connect(&database).await.unwrap();
        let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(integrity, "ok", "round {round}");
        for (id, name) in &all_acked {
            let stored: Option<String> = sqlx::query_scalar("SELECT name FROM leads WHERE id = ?")
                .bind(id)
                .fetch_optional(&pool)
                .await
                .unwrap();
            assert_eq!(
                stored.as_deref(),
                Some(name.as_str()),
                "round {round}: lead {id} was acknowledged but is not stored as sent"
            );
        }
        pool.close().await;
    }
}
