//! Admin → Backups over HTTP: the listing with sizes and ages, a restore of
//! a backup into the running server (confirmed by name, the current
//! database saved first, the running operation carried over), its refusals,
//! and rolling back the newest migration from Admin.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::{Me, Register, RegistrationStatus};
use app::contract::admin::{BackupFiles, Invited, SchemaState, UserSummary};
use app::contract::bills::{BillList, BillRecord};
use app::contract::notifications::CalendarFeedState;
use app::contract::operations::{Operation, RestoreRequest};
use app::contract::tokens::{CreateToken, CreatedToken};
use app::contract::two_factor::ChangePassword;
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

/// Copies backup `from` to `to` in `backups`, then runs `sql` on the copy.
async fn copy_altered(backups: &std::path::Path, from: &str, to: &str, sql: &'static str) {
    std::fs::copy(backups.join(from), backups.join(to)).unwrap();
    // One plain connection: closing it folds its journal back in.
    let mut conn = SqliteConnectOptions::new()
        .filename(backups.join(to))
        .connect()
        .await
        .unwrap();
    sqlx::query(sql).execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
}

fn restore(name: &str, confirm: &str) -> RestoreRequest {
    RestoreRequest {
        backup_file: name.into(),
        confirm: confirm.into(),
        current_password: crate::support::ADMIN_PASSWORD.into(),
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
    copy_altered(
        &backups,
        &taken,
        newer,
        "INSERT INTO schema_migrations (version, description, checksum) VALUES ('v99.00', 'from the future', 'x')",
    )
    .await;
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

/// Issue 28, item 6: restoring an older backup revives nothing revoked or
/// disabled since it was taken, and says what of the backup's it dropped.
#[tokio::test]
async fn a_restore_never_revives_a_revoked_token_a_disabled_account_or_an_old_password() {
    let (app, admin) = with_admin(&[]).await;
    // Before the backup: a token, an invitation, a second user.
    let token: CreatedToken = admin
        .call_expecting(
            201,
            Method::POST,
            "/api/tokens",
            &CreateToken {
                name: "leaked later".into(),
                expires_in_days: None,
                scopes: None,
            },
        )
        .await;
    let invited: Invited = admin
        .call_expecting(
            201,
            Method::POST,
            "/api/admin/invitations",
            &support::invitation(Some("erin@example.com"), None),
        )
        .await;
    let invitation = invited.link.split("invitation=").nth(1).unwrap().to_owned();
    admin
        .call_expecting::<_, serde_json::Value>(
            200,
            Method::PUT,
            "/api/admin/registration",
            &support::registration(true),
        )
        .await;
    let mut bob = Browser::open(&app.address).await;
    let joined = bob
        .register(&Register {
            invitation: None,
            email: "bob@example.com".into(),
            name: String::new(),
            password: "bob's first passphrase".into(),
            time_zone: None,
        })
        .await;
    assert_eq!(joined.status(), 200);
    let bob_id = bob.get::<Me>("/api/auth/me").await.user.id;
    let taken = backup(&admin).await;

    // After it: the invitation is withdrawn, the token revoked, Bob changes
    // his password, then is disabled.
    let withdrawn = admin
        .request(
            Method::DELETE,
            &format!("/api/admin/invitations/{}", invited.invitation.id),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(withdrawn.status(), 204);
    let revoked = admin
        .request(Method::DELETE, &format!("/api/tokens/{}", token.info.id))
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status(), 204);
    let changed = bob
        .request(Method::POST, "/api/auth/password")
        .json(&ChangePassword {
            current_password: "bob's first passphrase".into(),
            new_password: "bob's second passphrase".into(),
        })
        .send()
        .await
        .unwrap();
    assert!(changed.status().is_success(), "{}", changed.status());
    assert_eq!(
        admin
            .status_with(
                Method::POST,
                &format!("/api/admin/users/{bob_id}/disable"),
                &support::admin_confirms()
            )
            .await,
        204
    );

    let started: Operation = admin
        .call(Method::POST, "/v1/admin:restore", &restore(&taken, &taken))
        .await
        .unwrap()
        .unwrap();
    let done = finished(&admin, &started).await;
    assert!(done.error.is_none(), "{done:?}");
    let response = done.response.unwrap();
    // int64 is a string in proto3's JSON.
    assert_eq!(response["tokensRevoked"], "1", "{response}");
    assert_eq!(response["invitationsRevoked"], "1", "{response}");
    assert_eq!(response["sessionsEnded"], "1", "Bob's: {response}");
    assert_eq!(response["accountsKept"], "2", "{response}");

    // The administrator who restored is still signed in.
    assert_eq!(admin.status(Method::GET, "/api/auth/me").await, 200);
    let me = app
        .with_token(&token.token, Method::GET, "/api/auth/me")
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 401, "the revoked token stays revoked");
    let users: Vec<UserSummary> = admin.get("/api/admin/users").await;
    assert!(
        users.iter().any(|user| user.id == bob_id && user.disabled),
        "Bob stays disabled: {users:?}"
    );
    let mut again = Browser::open(&app.address).await;
    assert_eq!(
        again
            .login("bob@example.com", "bob's first passphrase")
            .await
            .status(),
        401,
        "the old password does not come back"
    );
    let status: RegistrationStatus = again
        .get(&format!("/api/auth/registration?invitation={invitation}"))
        .await;
    assert!(
        status.invitation.is_none(),
        "the invitation withdrawn since stays withdrawn"
    );
}

/// Hardening III, finding 8: a calendar feed revoked since the backup
/// stays revoked (its old address answers 404, not the feed), and the
/// result says what was kept from the live database.
#[tokio::test]
async fn a_restore_never_revives_a_revoked_calendar_feed() {
    let (app, admin) = with_admin(&[]).await;
    bill(&admin, "Rent").await;
    let feed: serde_json::Value = admin
        .call_expecting(201, Method::POST, "/api/notifications/calendar", &json!({}))
        .await;
    let url = feed["url"].as_str().unwrap().to_owned();
    let path = url[url.find("/calendar/").unwrap()..].to_owned();
    let before = app.client.get(app.url(&path)).send().await.unwrap();
    assert_eq!(before.status(), 200);
    let taken = backup(&admin).await;

    let revoked = admin
        .request(Method::DELETE, "/api/notifications/calendar")
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status(), 204);

    let started: Operation = admin
        .call(Method::POST, "/v1/admin:restore", &restore(&taken, &taken))
        .await
        .unwrap()
        .unwrap();
    let done = finished(&admin, &started).await;
    assert!(done.error.is_none(), "{done:?}");
    let response = done.response.unwrap();
    assert_eq!(response["calendarFeedsRevoked"], "1", "{response}");
    let kept: Vec<&str> = response["keptLive"]
        .as_array()
        .unwrap_or_else(|| panic!("keptLive is a list: {response}"))
        .iter()
        .filter_map(serde_json::Value::as_str)
        .collect();
    for area in [
        "sessions",
        "api_tokens",
        "calendar_feeds",
        "sign_in_settings",
    ] {
        assert!(kept.contains(&area), "{area}: {response}");
    }

    assert_eq!(bill_names(&admin).await, ["Rent"]);
    let after = app.client.get(app.url(&path)).send().await.unwrap();
    assert_eq!(after.status(), 404, "the revoked feed's address stays dead");
    let state: CalendarFeedState = admin.get("/api/notifications/calendar").await;
    assert_eq!(state.created_at, None, "no feed for the administrator");
}

/// A backup that is Tally's schema plus a trigger of its own is refused
/// before anything of it runs.
#[tokio::test]
async fn a_backup_carrying_a_trigger_of_its_own_is_refused_and_changes_nothing() {
    let (app, admin) = with_admin(&[]).await;
    bill(&admin, "Rent").await;
    let taken = backup(&admin).await;
    let backups = app.dir.path().join("data").join("backups");
    let planted = "bills-20260103T000000.000Z.db";
    copy_altered(
        &backups,
        &taken,
        planted,
        "CREATE TRIGGER promote AFTER INSERT ON sessions BEGIN UPDATE users SET role = 'admin'; END",
    )
    .await;
    bill(&admin, "Gym").await;
    let started: Operation = admin
        .call(
            Method::POST,
            "/v1/admin:restore",
            &restore(planted, planted),
        )
        .await
        .unwrap()
        .unwrap();
    let done = finished(&admin, &started).await;
    let error = done.error.expect("refused");
    assert_eq!(error.code, 9, "FAILED_PRECONDITION: {error:?}");
    assert!(error.message.contains("promote"), "{error:?}");
    assert_eq!(bill_names(&admin).await, ["Gym", "Rent"], "unchanged");
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
        .form(&[("confirm", "v0.01")])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.unwrap().contains("confirm"));

    let rolled = admin
        .request(Method::POST, "/api/fn/admin/roll-back-migration")
        .form(&[("confirm", latest.as_str())])
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
