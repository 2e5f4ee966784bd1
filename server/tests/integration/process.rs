//! Process rules, proven on the real `tally` binary: crash on panic with exit
//! code 1, graceful shutdown on SIGTERM and Ctrl-C, configuration errors that
//! name the variable, request ids in the JSON logs, and `tally health`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::process::Stdio;

use support::browser::Browser;
use support::{tally_binary, RunningBinary};
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

const DIAGNOSTICS: &[(&str, &str)] = &[
    ("TALLY_DIAGNOSTICS", "1"),
    ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
    ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
];

fn blocking_client() -> reqwest::Client {
    reqwest::Client::new()
}

#[tokio::test]
async fn a_panic_in_a_request_handler_is_logged_and_exits_with_code_1() {
    let mut server = RunningBinary::start(DIAGNOSTICS);
    let browser = Browser::signed_in(&server.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let result = browser
        .request(reqwest::Method::POST, "/api/diagnostics/panic")
        .send()
        .await;
    assert!(result.is_err() || result.unwrap().status().is_server_error());
    assert_eq!(server.wait_exit(), Some(1));
    let output = server.output();
    assert!(output.contains("uncaught panic"), "{output}");
    assert!(
        output.contains("deliberate panic in a request handler"),
        "{output}"
    );
}

#[tokio::test]
async fn a_panic_in_a_spawned_task_is_logged_and_exits_with_code_1() {
    let mut server = RunningBinary::start(DIAGNOSTICS);
    let browser = Browser::signed_in(&server.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let _ = browser
        .request(reqwest::Method::POST, "/api/diagnostics/panic-task")
        .send()
        .await;
    assert_eq!(server.wait_exit(), Some(1));
    let output = server.output();
    assert!(
        output.contains("deliberate panic in a spawned task"),
        "{output}"
    );
}

async fn graceful_shutdown_on(signal: &str) {
    let mut server = RunningBinary::start(DIAGNOSTICS);
    let wal = server.dir.path().join("data/db/bills.db-wal");
    let health = blocking_client()
        .get(server.url("/api/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);

    let admin = Browser::signed_in(&server.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let in_flight = tokio::spawn(
        admin
            .request(reqwest::Method::GET, "/api/diagnostics/slow?ms=1500")
            .send(),
    );
    server.wait_for_line("slow request started");
    assert!(wal.exists(), "the WAL file is open while the server runs");
    server.signal(signal);

    let response = in_flight
        .await
        .unwrap()
        .expect("the in-flight request finishes");
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), "done");
    assert_eq!(server.wait_exit(), Some(0));
    let output = server.output();
    assert!(output.contains("database closed"), "{output}");
    assert!(
        !wal.exists(),
        "a clean close checkpoints and removes the WAL file"
    );
    assert!(server.dir.path().join("data/db/bills.db").is_file());
}

// Multi-threaded: the test thread blocks reading the child's stdout while the
// in-flight request runs on another worker.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_in_flight_requests_finish_and_exits_0() {
    graceful_shutdown_on("TERM").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_lets_in_flight_requests_finish_and_exits_0() {
    graceful_shutdown_on("INT").await;
}

#[test]
fn an_invalid_setting_stops_startup_naming_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    let output = tally_binary()
        .env("LEPTOS_SITE_ADDR", "not-an-address")
        .env("DATA_DIR", dir.path().join("data"))
        .env("LOG_DIR", dir.path().join("logs"))
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("LEPTOS_SITE_ADDR is invalid"), "{stderr}");
    assert!(
        stderr.contains("0.0.0.0:3001"),
        "the message shows a valid example: {stderr}"
    );
    assert!(
        !dir.path().join("data").exists(),
        "nothing is created before the settings are valid"
    );
}

#[test]
fn help_lists_the_subcommands() {
    let output = tally_binary().arg("--help").output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    for subcommand in ["serve", "health"] {
        assert!(help.contains(subcommand), "{help}");
    }
}

#[tokio::test]
async fn health_subcommand_exits_0_when_healthy_and_1_otherwise() {
    let server = RunningBinary::start(&[]);
    let healthy = tally_binary()
        .args(["health", "--url", &server.url("")])
        .output()
        .unwrap();
    assert_eq!(healthy.status.code(), Some(0), "{healthy:?}");

    // A port nobody listens on: bind one, note it, release it.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let unhealthy = tally_binary()
        .args(["health", "--url", &format!("http://{closed}")])
        .output()
        .unwrap();
    assert_eq!(unhealthy.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unhealthy.stdout).contains("unhealthy"));
}

#[tokio::test]
async fn each_request_id_appears_in_the_json_log_file() {
    let server = RunningBinary::start(&[]);
    let response = blocking_client()
        .get(server.url("/api/health"))
        .send()
        .await
        .unwrap();
    let request_id = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();

    let logs = server.dir.path().join("logs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let mut found = false;
        for entry in std::fs::read_dir(&logs).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                name.starts_with("tally.") && name.ends_with(".log"),
                "{name}"
            );
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                let json: serde_json::Value = serde_json::from_str(line).expect("JSON lines");
                // The access line carries the id, method, path and status
                // as its own fields.
                if json["target"] == "tally::access"
                    && json["fields"]["request_id"] == request_id.as_str()
                {
                    assert_eq!(json["fields"]["path"], "/api/health", "{line}");
                    assert_eq!(json["fields"]["method"], "GET", "{line}");
                    assert_eq!(json["fields"]["status"], 200, "{line}");
                    found = true;
                }
            }
        }
        if found {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "request id {request_id} not logged"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// `tally --version` says which SQLite it runs on (issue 28, item 11).
#[test]
fn the_version_names_the_sqlite_it_runs_on() {
    let output = support::tally_binary().arg("--version").output().unwrap();
    assert!(output.status.success());
    let said = String::from_utf8(output.stdout).unwrap();
    assert!(said.starts_with("tally "), "{said}");
    assert!(said.contains("(SQLite 3."), "{said}");
}
