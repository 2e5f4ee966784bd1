//! Google's own Python client for google.longrunning (google-api-core's
//! REST operations transport, with Tally's bindings and descriptors
//! compiled from proto/tally/v1) against the real server: list, get, cancel
//! and delete, plus wait, paging and errors over plain HTTP. The script is
//! `compat/operations_client.py`; its virtualenv (`.venv`, made by
//! `compat/setup_venv.sh`, part of `scripts/setup.sh`) must exist.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::tokens::{CreateToken, CreatedToken};
use reqwest::Method;
use support::browser::Browser;
use support::spawn_app;

#[tokio::test]
async fn googles_python_client_drives_the_operations_api() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = root.join(".venv/bin/python");
    assert!(
        python.is_file(),
        "{} is missing: run `bash compat/setup_venv.sh` (scripts/setup.sh does)",
        python.display()
    );
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", "admin@example.com"),
        ("BOOTSTRAP_ADMIN_PASSWORD", "correct horse battery staple"),
        ("TALLY_DIAGNOSTICS", "1"),
    ])
    .await;
    let admin = Browser::signed_in(
        &app.address,
        "admin@example.com",
        "correct horse battery staple",
    )
    .await;
    let created: CreatedToken = admin
        .call_expecting(
            201,
            Method::POST,
            "/api/tokens",
            &CreateToken {
                name: "google client".into(),
                expires_in_days: None,
                // Diagnostics.Sleep is an administrator's method.
                scopes: Some(vec!["read".into(), "write".into(), "admin".into()]),
            },
        )
        .await;
    let token = created.token;

    let output = tokio::process::Command::new(&python)
        .arg(root.join("compat/operations_client.py"))
        .args(["--base", &app.address, "--token", &token])
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Google client test failed:\n{stdout}\n{stderr}"
    );
    let summary = stdout
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("operations: "))
        .expect("the closing summary line");
    let passed: u32 = summary.split(' ').next().unwrap().parse().unwrap();
    assert!(passed >= 30 && summary.ends_with(", 0 failed"), "{stdout}");
}
