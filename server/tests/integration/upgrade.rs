//! The v0.36 → v0.37 upgrade on a legacy database: every transform, run
//! twice, with a failure injected, with an edited migration, and rolled back.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::backend::migrate::{registry, MigrateError, Migrator, StepError, StepFuture, Version};
use sqlx::SqliteConnection;
const V099: Version = Version::new(0, 99);

use support::legacy::{self, count, snapshot, ALICE, BOB, DUPLICATED, SHARED_ACCOUNT};

#[tokio::test]
async fn upgrading_a_v036_database_applies_every_v037_transform() {
    let dir = tempfile::tempdir().unwrap();
    let (db, marked) = legacy::build(dir.path(), 0).await;
    let pool = &db.pool;
    let transactions_before = count(pool, "SELECT count(*) FROM transactions").await;

    let applied = Migrator::up_to(V099).run(pool).await.unwrap();
    let applied: Vec<String> = applied.iter().map(ToString::to_string).collect();
    assert_eq!(
        applied,
        ["v0.92", "v0.93", "v0.94", "v0.95", "v0.96", "v0.97", "v0.99"]
    );
    let recorded: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT version, description, checksum FROM schema_migrations ORDER BY version",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(recorded.len(), 8);
    assert!(recorded
        .iter()
        .all(|(_, d, c)| !d.is_empty() && c.len() == 64));

    // v0.92
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM users WHERE webauthn_enabled = 0 AND webauthn_user_id IS NULL"
        )
        .await,
        3
    );
    assert_eq!(
        count(pool, "SELECT count(*) FROM webauthn_credentials").await,
        0
    );
    assert_eq!(
        count(pool, "SELECT count(*) FROM webauthn_challenges").await,
        0
    );

    // v0.93: interest columns.
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM bills WHERE interest_accrued_month IS NULL"
        )
        .await,
        8
    );
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM payments WHERE interest_delta = 0"
        )
        .await,
        3
    );
    // v0.93: stable ids, duplicates removed in place.
    assert_eq!(
        count(pool, "SELECT count(*) FROM transactions").await,
        transactions_before - DUPLICATED as i64
    );
    let alice_ids: Vec<String> = sqlx::query_scalar(
        "SELECT provider_transaction_id FROM transactions WHERE user_id = ? ORDER BY 1",
    )
    .bind(ALICE)
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(alice_ids.len(), DUPLICATED);
    assert!(
        alice_ids
            .iter()
            .all(|id| id.starts_with(&format!("{SHARED_ACCOUNT}:TRN-"))),
        "{alice_ids:?}"
    );
    let kept = |id: i64| async move {
        count(
            pool,
            &format!("SELECT count(*) FROM transactions WHERE id = {id}"),
        )
        .await
            == 1
    };
    assert!(
        kept(marked.edited_old).await,
        "the copy the user edited is kept"
    );
    assert!(
        kept(marked.linked_new).await,
        "the copy linked to a bill is kept"
    );
    assert!(
        kept(marked.paid_old).await,
        "the copy a payment points at is kept"
    );
    assert!(!kept(marked.paid_new).await);
    assert!(
        kept(marked.plain_new).await,
        "otherwise the newest copy is kept"
    );
    assert_eq!(
        count(
            pool,
            &format!(
                "SELECT count(*) FROM payments WHERE transaction_id = {}",
                marked.paid_old
            )
        )
        .await,
        1
    );
    assert!(kept(marked.paid_new_9).await && !kept(marked.linked_old_9).await);
    let inherited: Option<i64> =
        sqlx::query_scalar("SELECT bill_id FROM transactions WHERE id = ?")
            .bind(marked.paid_new_9)
            .fetch_one(pool)
            .await
            .unwrap();
    assert_eq!(
        inherited,
        Some(2),
        "the kept copy takes over the removed copy's bill link"
    );
    let memo: Option<String> = sqlx::query_scalar("SELECT memo FROM transactions WHERE id = ?")
        .bind(marked.edited_old)
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(memo.as_deref(), Some("split with Sam"));
    assert_eq!(
        count(pool, &format!("SELECT count(*) FROM transactions WHERE user_id = {BOB} AND provider_transaction_id = 'ACT-bob-9:TRN-0001'")).await,
        1,
        "another user's same provider id is not a duplicate"
    );
    let duplicate = sqlx::query("INSERT INTO transactions (user_id, account_id, provider_transaction_id, posted_at, amount_cents, description) VALUES (2, 1, ?, '2026-03-01', -1, 'x')")
        .bind(format!("{SHARED_ACCOUNT}:TRN-0001"))
        .execute(pool)
        .await;
    assert!(
        duplicate.is_err(),
        "the stable id is unique per user from now on"
    );

    // v0.94
    assert_eq!(
        count(pool, "SELECT count(*) FROM sessions").await,
        0,
        "plaintext sessions are gone"
    );
    let plaintext = sqlx::query("INSERT INTO sessions (id, user_id, expires_at) VALUES ('plaintext-token', 2, '2099-01-01')")
        .execute(pool)
        .await;
    assert!(plaintext.is_err(), "only SHA-256 hex ids fit");
    sqlx::query("INSERT INTO sessions (id, user_id, expires_at) VALUES (?, 2, '2099-01-01')")
        .bind("a".repeat(64))
        .execute(pool)
        .await
        .unwrap();
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM settings WHERE key = 'geolocation_enabled' AND value = 'false'"
        )
        .await,
        3
    );

    // v0.95
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM subscription_catalog_descriptors"
        )
        .await,
        1_501
    );
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM subscription_catalog_descriptors WHERE kind = 'bank'"
        )
        .await,
        1_069
    );
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM subscription_catalog_descriptors WHERE kind = 'slang'"
        )
        .await,
        432
    );
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM subscription_catalog WHERE subcategory IS NULL"
        )
        .await,
        0
    );
    assert_eq!(
        count(
            pool,
            "SELECT starting_monthly_usd FROM subscription_catalog WHERE slug = 'netflix'"
        )
        .await,
        799
    );

    // v0.96
    let links: Vec<(String, Option<String>)> = sqlx::query_as(
        "SELECT b.name, c.slug FROM bills b LEFT JOIN subscription_catalog c ON c.id = b.catalog_id ORDER BY b.id",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    // Unknown services stay unlinked; bills that are not subscriptions
    // (Bob's "Netflix", the rent, the loan) are left alone.
    let expected = [
        ("Netflix", Some("netflix")),
        ("Disney+", Some("disney-plus")),
        ("hulu", Some("hulu")),
        ("Spotify Premium", Some("spotify")),
        ("Mystery Box Club", None),
        ("Rent", None),
        ("Netflix", None),
        ("Car loan", None),
    ];
    let expected: Vec<(String, Option<String>)> = expected
        .iter()
        .map(|(name, slug)| ((*name).to_owned(), slug.map(str::to_owned)))
        .collect();
    assert_eq!(links, expected);
    assert_eq!(
        count(pool, "SELECT count(*) FROM user_catalog_descriptors").await,
        0
    );

    // v0.97, v0.99
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM subscription_recommendation_feedback"
        )
        .await,
        0
    );
    assert_eq!(
        count(pool, "SELECT count(*) FROM bills WHERE autopay_verified_at IS NULL AND inactive_reason IS NULL AND inactivated_at IS NULL").await,
        8
    );
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM payments WHERE autopay_failure = 0"
        )
        .await,
        3
    );

    assert_eq!(
        count(pool, "SELECT count(*) FROM pragma_foreign_key_check").await,
        0
    );
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(integrity, "ok");
}

#[tokio::test]
async fn running_the_upgrade_again_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = legacy::upgraded(dir.path()).await;
    let before = snapshot(&db.pool).await;
    assert!(Migrator::default().run(&db.pool).await.unwrap().is_empty());
    assert_eq!(snapshot(&db.pool).await, before);
}

/// Deletes rows, then fails: the transaction must undo the deletes.
fn destructive_then_failing(conn: &mut SqliteConnection) -> StepFuture<'_> {
    Box::pin(async move {
        sqlx::query("DELETE FROM payments")
            .execute(&mut *conn)
            .await?;
        sqlx::query("DELETE FROM transactions")
            .execute(&mut *conn)
            .await?;
        Err(StepError::Data("injected failure".into()))
    })
}

#[tokio::test]
async fn a_failure_inside_a_migration_leaves_the_previous_version_intact() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = legacy::build(dir.path(), 0).await;
    let pool = &db.pool;
    let mut migrations = registry::all();
    let v093 = migrations
        .iter_mut()
        .find(|m| m.version == Version::new(0, 93))
        .unwrap();
    v093.step = Some(("injected", destructive_then_failing));

    // v0.92 applies; v0.93 fails after its SQL and half its data step ran.
    Migrator::up_to(Version::new(0, 92))
        .run(pool)
        .await
        .unwrap();
    let before = snapshot(pool).await;
    let error = Migrator::new(migrations).run(pool).await.unwrap_err();
    match &error {
        MigrateError::Failed { version, .. } => assert_eq!(*version, Version::new(0, 93)),
        other => panic!("unexpected {other}"),
    }
    assert!(error.to_string().contains("v0.93"), "{error}");
    assert!(error.to_string().contains("injected failure"), "{error}");
    assert_eq!(snapshot(pool).await, before, "nothing of v0.93 remains");
    let latest: String = sqlx::query_scalar("SELECT max(version) FROM schema_migrations")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(latest, "v0.92");

    // The real migrations then go through.
    Migrator::default().run(pool).await.unwrap();
}

#[tokio::test]
async fn a_failed_attempt_is_kept_after_its_rollback_for_admin_status() {
    let dir = tempfile::tempdir().unwrap();
    let pool = app::backend::db::connect(&dir.path().join("bills.db"))
        .await
        .unwrap();
    Migrator::default().run(&pool).await.unwrap();
    let mut migrations = registry::all();
    migrations.push(app::backend::migrate::Migration {
        version: Version::new(9, 0),
        description: "a migration that fails",
        sql: "CREATE TABLE half_done (id INTEGER); INSERT INTO no_such_table VALUES (1);",
        step: None,
        after_sql: "",
        rollback: None,
    });
    let error = Migrator::new(migrations).run(&pool).await.unwrap_err();
    assert!(matches!(error, MigrateError::Failed { .. }), "{error}");
    let kept: Vec<(String, String)> =
        sqlx::query_as("SELECT version, message FROM schema_migration_failures")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].0, "v9.00");
    assert!(kept[0].1.contains("no_such_table"), "{kept:?}");
    assert_eq!(
        count(
            &pool,
            "SELECT count(*) FROM sqlite_master WHERE name = 'half_done'"
        )
        .await,
        0,
        "the failed migration itself is rolled back"
    );
}

#[tokio::test]
async fn an_edited_migration_stops_the_runner_with_its_version() {
    let dir = tempfile::tempdir().unwrap();
    let db = legacy::upgraded(dir.path()).await;
    sqlx::query("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 'v0.95'")
        .execute(&db.pool)
        .await
        .unwrap();
    let error = Migrator::default().run(&db.pool).await.unwrap_err();
    assert!(
        matches!(error, MigrateError::ChecksumMismatch { version, .. } if version == Version::new(0, 95))
    );
    assert!(error.to_string().contains("must never be edited"));
    assert!(Migrator::default().status(&db.pool).await.is_err());
}

#[tokio::test]
async fn a_database_from_a_newer_build_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = legacy::build(dir.path(), 0).await;
    sqlx::query("INSERT INTO schema_migrations (version, description, checksum) VALUES ('v9.00', 'future', 'x')")
        .execute(&db.pool)
        .await
        .unwrap();
    let error = Migrator::default().run(&db.pool).await.unwrap_err();
    assert!(matches!(error, MigrateError::UnknownApplied(ref v) if v == "v9.00"));
}

#[tokio::test]
async fn the_latest_migrations_roll_back_in_order_until_one_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = legacy::build(dir.path(), 0).await;
    let pool = &db.pool;
    // The v0.37 release on its own: later migrations would roll back first.
    let migrator = Migrator::up_to(V099);
    migrator.run(pool).await.unwrap();
    sqlx::query("UPDATE payments SET autopay_failure = 1")
        .execute(pool)
        .await
        .unwrap();

    assert_eq!(
        migrator.rollback_latest(pool).await.unwrap(),
        Version::new(0, 99)
    );
    assert!(sqlx::query("SELECT autopay_failure FROM payments")
        .fetch_all(pool)
        .await
        .is_err());
    assert_eq!(
        count(pool, "SELECT count(*) FROM payments").await,
        3,
        "rows survive"
    );
    assert_eq!(
        migrator.rollback_latest(pool).await.unwrap(),
        Version::new(0, 97)
    );
    assert!(
        sqlx::query("SELECT 1 FROM subscription_recommendation_feedback")
            .fetch_all(pool)
            .await
            .is_err()
    );
    let error = migrator.rollback_latest(pool).await.unwrap_err();
    assert!(matches!(error, MigrateError::NoRollback(v) if v == Version::new(0, 96)));

    let status = migrator.status(pool).await.unwrap();
    let pending: Vec<String> = status
        .iter()
        .filter(|s| s.applied_at.is_none())
        .map(|s| s.version.to_string())
        .collect();
    assert_eq!(pending, ["v0.97", "v0.99"]);
    assert_eq!(
        migrator.run(pool).await.unwrap(),
        [Version::new(0, 97), Version::new(0, 99)]
    );
}

#[tokio::test]
async fn with_run_db_migrations_false_pending_migrations_stop_startup() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = legacy::build(dir.path(), 0).await;
    let error = Migrator::up_to(V099)
        .ensure_current(&db.pool)
        .await
        .unwrap_err();
    assert!(
        matches!(error, MigrateError::Pending { count: 7, first } if first == Version::new(0, 92))
    );
    assert!(error.to_string().contains("RUN_DB_MIGRATIONS"));
}
