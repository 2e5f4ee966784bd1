//! The data-directory subcommands and start-up rules on the real binary:
//! `tally migrate`, `tally backup`, and the refusals that protect the data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::path::Path;
use std::process::{Output, Stdio};

use support::{legacy, tally_binary, RunningBinary};

fn tally(data: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = tally_binary();
    command
        .args(args)
        .env("DATA_DIR", data)
        .env("LOG_DIR", data.join("logs"))
        .env("LEPTOS_SITE_ADDR", "127.0.0.1:0")
        .current_dir(data)
        .stdin(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().unwrap()
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

async fn legacy_database(dir: &Path) {
    let (db, _) = legacy::build(dir, 0).await;
    db.pool.close().await;
}

#[tokio::test]
async fn migrate_status_then_migrate_upgrades_a_v036_database() {
    let dir = tempfile::tempdir().unwrap();
    legacy_database(dir.path()).await;

    let status = tally(dir.path(), &["migrate", "--status"], &[]);
    assert!(status.status.success(), "{}", text(&status));
    let listing = text(&status);
    assert!(listing.contains("v0.91  applied"), "{listing}");
    assert!(listing.contains("v0.99  pending"), "{listing}");

    let migrate = tally(dir.path(), &["migrate"], &[]);
    assert!(migrate.status.success(), "{}", text(&migrate));
    assert!(text(&migrate).contains("applied v0.99"));
    let again = tally(dir.path(), &["migrate"], &[]);
    assert!(text(&again).contains("up to date"));

    let rollback = tally(dir.path(), &["migrate", "--rollback-latest"], &[]);
    let latest = app::backend::migrate::registry::all()
        .last()
        .map(|migration| migration.version.to_string())
        .unwrap();
    assert!(
        text(&rollback).contains(&format!("rolled back {latest}")),
        "{}",
        text(&rollback)
    );
}

#[tokio::test]
async fn serve_refuses_pending_migrations_when_told_not_to_run_them() {
    let dir = tempfile::tempdir().unwrap();
    legacy_database(dir.path()).await;
    let output = tally(dir.path(), &["serve"], &[("RUN_DB_MIGRATIONS", "false")]);
    assert_eq!(output.status.code(), Some(1));
    let out = text(&output);
    assert!(
        out.contains("pending") && out.contains("tally migrate"),
        "{out}"
    );
}

#[tokio::test]
async fn an_edited_migration_stops_startup_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let db = legacy::upgraded(dir.path()).await;
    sqlx::query("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 'v0.94'")
        .execute(&db.pool)
        .await
        .unwrap();
    db.pool.close().await;
    let output = tally(dir.path(), &["serve"], &[]);
    assert_eq!(output.status.code(), Some(1));
    let out = text(&output);
    assert!(
        out.contains("v0.94") && out.contains("never be edited"),
        "{out}"
    );
}

#[test]
fn a_malformed_token_key_stops_startup_before_touching_anything() {
    let dir = tempfile::tempdir().unwrap();
    let output = tally(
        dir.path(),
        &["serve"],
        &[("TOKEN_ENCRYPTION_KEY", "too-short")],
    );
    assert_eq!(output.status.code(), Some(1));
    let out = text(&output);
    assert!(out.contains("TOKEN_ENCRYPTION_KEY is invalid"), "{out}");
    assert!(
        !out.contains("too-short"),
        "the secret is not echoed: {out}"
    );
    assert!(!dir.path().join("db").exists());
}

#[test]
fn a_wrong_token_key_stops_startup_and_changes_nothing() {
    let first = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
    let other = "ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=";
    let mut server = RunningBinary::start(&[("TOKEN_ENCRYPTION_KEY", first)]);
    server.signal("TERM");
    assert_eq!(server.wait_exit(), Some(0));
    let data = server.dir.path().join("data");
    let database = data.join("db/bills.db");
    let before = std::fs::read(&database).unwrap();

    let output = tally(&data, &["serve"], &[("TOKEN_ENCRYPTION_KEY", other)]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output).contains("not the key the stored secrets were encrypted with"),
        "{}",
        text(&output)
    );
    assert_eq!(
        std::fs::read(&database).unwrap(),
        before,
        "the database file is unchanged"
    );
}

#[test]
fn a_second_server_or_a_migration_is_refused_beside_a_server_but_looking_is_not() {
    let server = RunningBinary::start(&[]);
    let data = server.dir.path().join("data");
    let output = tally(&data, &["serve"], &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output).contains("another Tally process"),
        "{}",
        text(&output)
    );
    let migrate = tally(&data, &["migrate"], &[]);
    assert!(text(&migrate).contains("another Tally process"));
    let rollback = tally(&data, &["migrate", "--rollback-latest"], &[]);
    assert_eq!(rollback.status.code(), Some(1), "{}", text(&rollback));
    assert!(
        text(&rollback).contains("another Tally process"),
        "{}",
        text(&rollback)
    );
    // Looking is fine beside it: the status and the backup list only read.
    let status = tally(&data, &["migrate", "--status"], &[]);
    assert!(status.status.success(), "{}", text(&status));
    assert!(text(&status).contains("applied"), "{}", text(&status));
    assert!(
        text(&status)
            .lines()
            .all(|line| line.split_whitespace().nth(1) == Some("applied")),
        "{}",
        text(&status)
    );
    let list = tally(&data, &["backup", "list"], &[]);
    assert!(list.status.success(), "{}", text(&list));
}

#[tokio::test]
async fn backup_create_works_beside_a_running_server_and_restore_after_it_stops() {
    let mut server = RunningBinary::start(&[]);
    let data = server.dir.path().join("data");
    let client = reqwest::Client::new();
    assert_eq!(
        client
            .get(server.url("/api/health"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );

    let create = tally(&data, &["backup", "create"], &[]);
    assert!(create.status.success(), "{}", text(&create));
    assert!(text(&create).contains("integrity ok"));
    let list = tally(&data, &["backup", "list"], &[]);
    let name = text(&list).split_whitespace().next().unwrap().to_owned();
    assert!(
        name.starts_with("bills-") && name.ends_with(".db"),
        "{name}"
    );

    let refused = tally(&data, &["backup", "restore", &name], &[]);
    assert_eq!(
        refused.status.code(),
        Some(1),
        "restore refuses while the server runs"
    );
    assert!(
        text(&refused).contains("stop it first"),
        "{}",
        text(&refused)
    );

    server.signal("TERM");
    assert_eq!(server.wait_exit(), Some(0));
    let restore = tally(&data, &["backup", "restore", &name], &[]);
    assert!(restore.status.success(), "{}", text(&restore));
    assert!(text(&restore).contains("kept in"), "{}", text(&restore));

    let missing = tally(&data, &["backup", "restore", "bills-nope.db"], &[]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing).contains("no backup named"));
}
