//! Admin → Backups over HTTP: the listing with sizes and ages, a restore of
//! a backup into the running server (confirmed by name, the current
//! database saved first, the running operation carried over), its refusals,
//! and rolling back the newest migration from Admin.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::admin::{BackupFiles, SchemaState};
use app::contract::bills::{BillList, BillRecord};
use app::contract::operations::{Operation, RestoreRequest};
use app::domain::bill::BillForm;
use reqwest::Method;
use serde_json::json;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};
use support::browser::Browser;
use support::operations::finished;
use support::with_admin;

async fn bill(browser: &Browser, name: &str) -> BillRecord {
    let form = BillForm {
        name: name.into(),
        amount_minor: 1_999,
        cadence: "monthly".into(),
        due_day: 3,
        anchor_date: "2026-01-03".into(),
        ..BillForm::default()
    };
    browser
        .call(Method::POST, "/api/bills", &form)
        .await
        .unwrap()
        .unwrap()
}

async fn bill_names(browser: &Browser) -> Vec<String> {
    let mut names: Vec<String> = browser
        .get::<BillList>("/api/bills")
        .await
        .bills
        .into_iter()
        .map(|bill| bill.name)
        .collect();
    names.sort();
    names
}

async fn backup(browser: &Browser) -> String {
    let started: Operation = browser
        .call(Method::POST, "/v1/admin:backup", &json!({}))
        .await
        .unwrap()
        .unwrap();
    let done = finished(browser, &started).await;
    assert!(done.error.is_none(), "{done:?}");
    done.response.unwrap()["fileName"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn restore(name: &str, confirm: &str) -> RestoreRequest {
    RestoreRequest {
        backup_file: name.into(),
        confirm: confirm.into(),
    }
}

#[tokio::test]
async fn a_backup_restores_into_the_running_server_after_saving_the_current_database() {
    let (_app, admin) = with_admin(&[]).await;
    bill(&admin, "Rent").await;
    let taken = backup(&admin).await;
    bill(&admin, "Gym").await;

    let listed: BackupFiles = admin.get("/api/admin/backups").await;
    assert_eq!(listed.backups.len(), 1);
    assert_eq!(listed.backups[0].name, taken);
    assert!(listed.backups[0].bytes > 0);
    assert!(listed.backups[0]
        .taken_at
        .as_deref()
        .unwrap()
        .ends_with('Z'));
    assert!(listed.backups[0].age_seconds.unwrap() < 3_600);

    // Refusals name the field and change nothing.
    let (status, body) = admin
        .call::<_, Operation>(Method::POST, "/v1/admin:restore", &restore(&taken, "yes"))
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{body:?}");
    assert!(body.error.message.contains("confirm"), "{body:?}");
    let (status, body) = admin
        .call::<_, Operation>(
            Method::POST,
            "/v1/admin:restore",
            &restore("../bills.db", "../bills.db"),
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{body:?}");
    assert!(body.error.message.contains("backupFile"), "{body:?}");
    let missing = "bills-20200101T000000.000Z.db";
    let (status, _) = admin
        .call::<_, Operation>(
            Method::POST,
            "/v1/admin:restore",
            &restore(missing, missing),
        )
        .await
        .unwrap_err();
    assert_eq!(status, 404);
    assert_eq!(bill_names(&admin).await, ["Gym", "Rent"]);

    let started: Operation = admin
        .call(Method::POST, "/v1/admin:restore", &restore(&taken, &taken))
        .await
        .unwrap()
        .unwrap();
    let done = finished(&admin, &started).await;
    assert!(done.error.is_none(), "{done:?}");
    let response = done.response.unwrap();
    assert_eq!(response["backupFile"], taken.as_str());
    // Zero is left out, as proto3 JSON does: nothing pending.
    assert_eq!(response.get("pendingMigrations"), None, "{response}");
    let saved_as = response["savedAs"].as_str().unwrap().to_owned();
    assert_ne!(saved_as, taken);

    // The bill added after the backup is gone; the replaced database is a
    // backup of its own, with it inside; the session and the restore's own
    // operation survived.
    assert_eq!(bill_names(&admin).await, ["Rent"]);
    let listed: BackupFiles = admin.get("/api/admin/backups").await;
    let names: Vec<&str> = listed.backups.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, [saved_as.as_str(), taken.as_str()]);
    let again: Operation = admin.get(&format!("/v1/{}", started.name)).await;
    assert!(again.done && again.error.is_none(), "{again:?}");

    // Restoring the saved copy brings the later bill back.
    let started: Operation = admin
        .call(
            Method::POST,
            "/v1/admin:restore",
            &restore(&saved_as, &saved_as),
        )
        .await
        .unwrap()
        .unwrap();
    assert!(finished(&admin, &started).await.error.is_none());
    assert_eq!(bill_names(&admin).await, ["Gym", "Rent"]);
    // And the server writes as before.
    bill(&admin, "Water").await;
    assert_eq!(bill_names(&admin).await, ["Gym", "Rent", "Water"]);
}

#[tokio::test]
async fn a_damaged_backup_or_one_from_a_newer_version_is_refused_and_changes_nothing() {
    let (app, admin) = with_admin(&[]).await;
    bill(&admin, "Rent").await;
    let taken = backup(&admin).await;
    let backups = app.dir.path().join("data").join("backups");

    // A file with a backup's name that is not a database.
    let damaged = "bills-20260101T000000.000Z.db";
    std::fs::write(backups.join(damaged), vec![0x42_u8; 64 * 1024]).unwrap();
    // A backup whose schema history has a migration this build lacks.
    let newer = "bills-20260102T000000.000Z.db";
    std::fs::copy(backups.join(&taken), backups.join(newer)).unwrap();
    {
        // One plain connection: closing it folds its journal back in.
        let mut conn = SqliteConnectOptions::new()
            .filename(backups.join(newer))
            .connect()
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO schema_migrations (version, description, checksum) VALUES ('v99.00', 'from the future', 'x')",
        )
        .execute(&mut conn)
        .await
        .unwrap();
        conn.close().await.unwrap();
    }
    bill(&admin, "Gym").await;

    for (name, expected) in [(damaged, "integrity"), (newer, "v99.00")] {
        let started: Operation = admin
            .call(Method::POST, "/v1/admin:restore", &restore(name, name))
            .await
            .unwrap()
            .unwrap();
        let done = finished(&admin, &started).await;
        let error = done.error.unwrap_or_else(|| panic!("{name} was restored"));
        assert_eq!(error.code, 9, "FAILED_PRECONDITION: {error:?}");
        assert!(
            error.message.to_lowercase().contains(expected)
                || error.message.contains("not a database"),
            "{name}: {error:?}"
        );
        assert_eq!(bill_names(&admin).await, ["Gym", "Rent"], "unchanged");
    }
    // Nothing was saved aside for a restore that never started.
    let listed: BackupFiles = admin.get("/api/admin/backups").await;
    assert_eq!(listed.backups.len(), 3, "{listed:?}");
}

#[tokio::test]
async fn the_newest_migration_rolls_back_from_admin_only_when_named() {
    let (app, admin) = with_admin(&[]).await;
    let schema: SchemaState = admin.get("/api/fn/admin/schema").await;
    let latest = schema.latest.clone().unwrap();
    assert!(schema.can_roll_back, "{schema:?}");
    assert_eq!(schema.pending, 0);

    let refused = admin
        .request(Method::POST, "/api/fn/admin/roll-back-migration")
        .json(&json!({ "confirm": "v0.01" }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.unwrap().contains("confirm"));

    let rolled = admin
        .request(Method::POST, "/api/fn/admin/roll-back-migration")
        .json(&json!({ "confirm": latest }))
        .send()
        .await
        .unwrap();
    assert_eq!(rolled.status(), 200);
    let now: SchemaState = rolled.json().await.unwrap();
    assert_ne!(now.latest.as_deref(), Some(latest.as_str()));
    assert_eq!(now.pending, 1);
    let status: app::contract::admin::SystemStatus = admin.get("/api/admin/status").await;
    let pending = status
        .sections
        .iter()
        .flat_map(|s| &s.rows)
        .find(|r| r.label == "Pending")
        .unwrap();
    assert_eq!(pending.state, "warn");

    // A restart applies it again.
    let app = app.restart(&[]).await;
    let admin =
        Browser::signed_in(&app.address, support::ADMIN_EMAIL, support::ADMIN_PASSWORD).await;
    let again: SchemaState = admin.get("/api/fn/admin/schema").await;
    assert_eq!(again.latest, Some(latest));
    assert_eq!(again.pending, 0);

    let stranger = app
        .client
        .get(app.url("/api/fn/admin/schema"))
        .send()
        .await
        .unwrap();
    assert_eq!(stranger.status(), 401);
}
