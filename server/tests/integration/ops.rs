//! `tally ops backup`, `restore-check` and `health`: the real binary
//! against a real server (and, for a corrupt download, a local fake), with
//! an administrator's API token. Checks what lands in the backup
//! directory, what is refused and left behind (nothing), and that the token
//! never appears in the output.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::path::Path;

use app::contract::admin::BackupFiles;
use app::contract::tokens::{CreateToken, CreatedToken};
use axum::routing::{get, post};
use axum::{Json, Router};
use reqwest::Method;
use serde_json::json;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};
use support::operations::{said, tally_ops};
use support::with_admin;

fn backups_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.file_name().into_string().unwrap())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_lands_verified_in_a_private_directory_and_old_ones_are_pruned() {
    let (app, admin) = with_admin(&[]).await;
    let created: CreatedToken = admin
        .call(
            Method::POST,
            "/api/tokens",
            &CreateToken {
                name: "ops".into(),
                expires_in_days: None,
                scopes: Some(vec!["admin:backup".into()]),
            },
        )
        .await
        .unwrap()
        .unwrap();
    let token = created.token.clone();
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("tally-backups");
    let dir_text = dir.to_str().unwrap().to_owned();
    let env = [
        ("TALLY_URL", app.address.as_str()),
        ("TALLY_TOKEN", token.as_str()),
        ("TALLY_BACKUP_DIR", dir_text.as_str()),
        ("TALLY_OPS_ALLOW_HTTP", "true"),
    ];

    let first = tally_ops(&["backup"], &env).await;
    assert!(first.status.success(), "{}", said(&first));
    assert!(said(&first).contains("integrity ok"), "{}", said(&first));
    assert!(
        said(&first).contains("downloading bills-"),
        "a progress line"
    );
    assert!(!said(&first).contains(&token), "the token is never printed");
    let kept = backups_in(&dir);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(kept[0].starts_with("bills-") && kept[0].ends_with(".db"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }
    // The server lists it too, and serves it to administrators only.
    let listed: BackupFiles = admin.get("/api/admin/backups").await;
    assert!(listed.backups.iter().any(|b| b.name == kept[0]));
    let bytes = admin
        .request(Method::GET, &format!("/api/admin/backups/{}", kept[0]))
        .send()
        .await
        .unwrap();
    assert_eq!(bytes.status(), 200);
    assert_eq!(bytes.headers()["cache-control"], "no-store");
    assert_eq!(
        bytes.bytes().await.unwrap().len() as u64,
        std::fs::metadata(dir.join(&kept[0])).unwrap().len()
    );
    assert_eq!(
        admin
            .status(Method::GET, "/api/admin/backups/../db/bills.db")
            .await,
        404
    );
    assert_eq!(
        admin
            .status(Method::GET, "/api/admin/backups/bills-nope.db")
            .await,
        404
    );
    assert_eq!(
        admin.status(Method::GET, "/api/admin/backups/passwd").await,
        400
    );
    let stranger = app
        .client
        .get(app.url(&format!("/api/admin/backups/{}", kept[0])));
    assert_eq!(stranger.send().await.unwrap().status(), 401);

    // A second, keeping one: the older goes. Flags win over the environment.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let second = tally_ops(&["backup", "--keep", "1"], &env).await;
    assert!(second.status.success(), "{}", said(&second));
    assert!(said(&second).contains(&format!("removed {}", kept[0])));
    let now = backups_in(&dir);
    assert_eq!(now.len(), 1, "{now:?}");
    assert_ne!(now[0], kept[0]);

    // Restore-check replays it and counts rows; 0 as the minimum warns.
    let path = dir.join(&now[0]);
    let path_text = path.to_str().unwrap();
    let check = tally_ops(&["restore-check", path_text], &[]).await;
    assert!(check.status.success(), "{}", said(&check));
    assert!(said(&check).contains("schema_migrations"));
    assert!(said(&check).contains("total"));
    assert!(said(&check).contains("RESTORE_MIN_ROWS is 0"));
    let demanding = tally_ops(
        &["restore-check", path_text],
        &[("RESTORE_MIN_ROWS", "100000000")],
    )
    .await;
    assert_eq!(demanding.status.code(), Some(1), "{}", said(&demanding));
    assert!(said(&demanding).contains("fewer than RESTORE_MIN_ROWS"));
    let garbage = root.path().join("garbage.db");
    std::fs::write(&garbage, b"this is not a database").unwrap();
    let broken = tally_ops(&["restore-check", garbage.to_str().unwrap()], &[]).await;
    assert_eq!(broken.status.code(), Some(1), "{}", said(&broken));
    assert!(
        said(&broken).contains("does not replay"),
        "{}",
        said(&broken)
    );

    // A wrong token: refused in words, nothing new on disk.
    let mut wrong_token = env.to_vec();
    wrong_token.push(("TALLY_TOKEN", "tally_pat_not-a-real-token"));
    let refused = tally_ops(&["backup"], &wrong_token).await;
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    assert!(said(&refused).contains("401"), "{}", said(&refused));
    assert!(!said(&refused).contains("not-a-real-token"));
    assert_eq!(backups_in(&dir), now);

    // Health on both hostnames; one down is a failure.
    let health = tally_ops(
        &["health", "--url", &app.address, "--alt-url", &app.address],
        &[],
    )
    .await;
    assert!(health.status.success(), "{}", said(&health));
    assert_eq!(said(&health).matches("ok   http://").count(), 2);
    let down = tally_ops(
        &[
            "health",
            "--url",
            &app.address,
            "--alt-url",
            "http://127.0.0.1:9",
        ],
        &[],
    )
    .await;
    assert_eq!(down.status.code(), Some(1), "{}", said(&down));
    assert!(said(&down).contains("DOWN http://127.0.0.1:9/api/health"));
    let bad = tally_ops(&["health", "--url", "tally.example.com"], &[]).await;
    assert_eq!(bad.status.code(), Some(1));
    assert!(said(&bad).contains("include the scheme"), "{}", said(&bad));
}

/// A server whose backup "succeeds" and whose download is `file`.
async fn fake_backup_server(file: Vec<u8>) -> String {
    let fake = Router::new()
        .route(
            "/v1/admin:backup",
            post(|| async {
                Json(json!({
                    "name": "operations/fake", "done": true, "metadata": {},
                    "response": {"@type": "type.googleapis.com/tally.v1.BackupResponse",
                                 "fileName": "bills-20260101T000000Z.db"}
                }))
            }),
        )
        .route(
            "/api/admin/backups/{name}",
            get(move || async move { file.clone() }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, fake).await.unwrap() });
    address
}

async fn backup_from(address: &str, dir: &Path) -> std::process::Output {
    tally_ops(
        &["backup", "--url", address, "--dir", dir.to_str().unwrap()],
        &[
            ("TALLY_TOKEN", "tally_pat_x"),
            ("TALLY_OPS_ALLOW_HTTP", "true"),
        ],
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_download_is_refused_and_leaves_nothing_behind() {
    // Not a database at all.
    let address = fake_backup_server(vec![0x42_u8; 64 * 1024]).await;
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("backups");
    let output = backup_from(&address, &dir).await;
    assert_eq!(output.status.code(), Some(1), "{}", said(&output));
    assert!(said(&output).contains("was refused"), "{}", said(&output));
    assert!(
        !dir.exists(),
        "nothing left behind, not even the directory made for it"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sound_database_that_is_not_tallys_is_refused_too() {
    // A healthy SQLite file (integrity ok) with three tables: not a copy
    // of Tally's database, whose schema has about thirty.
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("other.db");
    // One plain connection: closing it leaves one self-contained file.
    let mut conn = SqliteConnectOptions::new()
        .filename(&path)
        .create_if_missing(true)
        .connect()
        .await
        .unwrap();
    sqlx::raw_sql(
        "CREATE TABLE a (x); CREATE TABLE b (y); CREATE TABLE schema_migrations (version TEXT);
         INSERT INTO a VALUES (1);",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();
    let address = fake_backup_server(std::fs::read(&path).unwrap()).await;
    // A directory already in use, with what an interrupted run left and a
    // file of the operator's own.
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("backups");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join(".bills-20250101T000000Z.db.partial"), b"half").unwrap();
    std::fs::write(dir.join("notes.txt"), b"mine").unwrap();
    let output = backup_from(&address, &dir).await;
    assert_eq!(output.status.code(), Some(1), "{}", said(&output));
    assert!(said(&output).contains("was refused"), "{}", said(&output));
    assert!(said(&output).contains("table"), "{}", said(&output));
    assert_eq!(
        backups_in(&dir),
        ["notes.txt"],
        "the stale download is gone, the operator's file stays"
    );
}

#[tokio::test]
async fn every_ops_command_explains_itself_and_hides_its_secrets() {
    let secrets = [
        ("PORTAINER_API_KEY", "portainer-key-never-shown"),
        ("TALLY_TOKEN", "tally_pat_never_shown"),
        ("TALLY_URL", "https://tally.example.com"),
    ];
    let listed = tally_ops(&["--help"], &[]).await;
    assert!(listed.status.success(), "{}", said(&listed));
    for (command, settings) in [
        (
            "backup",
            &[
                "TALLY_URL",
                "TALLY_TOKEN",
                "TALLY_BACKUP_DIR",
                "BACKUP_KEEP",
            ][..],
        ),
        ("restore-check", &["RESTORE_MIN_ROWS"][..]),
        ("health", &["TALLY_URL", "TALLY_ALT_URL"][..]),
        (
            "status",
            &[
                "PORTAINER_URL",
                "PORTAINER_API_KEY",
                "PORTAINER_STACK",
                "PORTAINER_ENDPOINT_ID",
            ][..],
        ),
        (
            "release",
            &["TALLY_REGISTRY", "TALLY_REPOSITORY", "TALLY_DOCKER"][..],
        ),
        (
            "deploy",
            &[
                "PORTAINER_API_KEY",
                "TALLY_TOKEN",
                "TALLY_DEPLOY_HEALTH_SECONDS",
                "TALLY_ALT_URL",
            ][..],
        ),
    ] {
        assert!(
            said(&listed).contains(command),
            "{command} in {}",
            said(&listed)
        );
        let help = tally_ops(&[command, "--help"], &secrets).await;
        assert!(help.status.success(), "{command}: {}", said(&help));
        let text = said(&help);
        for setting in settings {
            assert!(
                text.contains(setting),
                "{command} --help names {setting}: {text}"
            );
        }
        assert!(
            !text.contains("never-shown") && !text.contains("never_shown"),
            "{text}"
        );
    }
    // The default number of backups kept is said.
    let help = said(&tally_ops(&["backup", "--help"], &[]).await);
    assert!(help.contains("[default: 7]"), "{help}");
}
