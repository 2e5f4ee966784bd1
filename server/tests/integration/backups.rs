//! Backups: online copies taken while another task writes, checked, kept to
//! BACKUP_KEEP, and restored with the replaced database kept aside.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use app::backend::backup::{self, BackupError};
use app::backend::data_dir_lock::DataDirLock;
use app::backend::db;
use app::backend::migrate::Migrator;
use support::legacy::{self, count};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backups_taken_during_writes_pass_the_check_and_restore_with_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = legacy::build(dir.path(), 2_000).await;
    Migrator::default().run(&db.pool).await.unwrap();
    let backups = dir.path().join("backups");

    let stop = Arc::new(AtomicBool::new(false));
    let writer = tokio::spawn({
        let pool = db.pool.clone();
        let stop = stop.clone();
        async move {
            let mut written = 0_u64;
            while !stop.load(Ordering::Relaxed) {
                sqlx::query("INSERT INTO leads (name, email, message) VALUES ('Load', 'load@example.com', ?)")
                    .bind(format!("message {written}"))
                    .execute(&pool)
                    .await
                    .unwrap();
                written += 1;
            }
            written
        }
    });

    let mut taken = Vec::new();
    for _ in 0..3 {
        taken.push(backup::create(&db.pool, &backups, 7).await.unwrap());
    }
    stop.store(true, Ordering::Relaxed);
    let written = writer.await.unwrap();
    assert!(written > 0, "the writer ran during the backups");

    for (info, verified) in &taken {
        assert!(info.path.is_file());
        assert!(verified.tables >= 20, "{verified:?}");
    }
    let names: Vec<String> = backup::list(&backups)
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect();
    assert_eq!(names.len(), 3);
    assert!(std::fs::read_dir(&backups).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .starts_with(".partial")));

    // Restore the middle backup into the live data directory.
    let (middle, middle_verified) = &taken[1];
    let live_leads = count(&db.pool, "SELECT count(*) FROM leads").await;
    db.pool.close().await;
    let report = backup::restore(&db.data_dir, &db.database, &backups, &middle.name)
        .await
        .unwrap();
    assert_eq!(&report.restored, middle_verified);
    let aside = report.replaced_kept_at.unwrap();
    assert!(
        aside.join("bills.db").is_file(),
        "the replaced database is kept"
    );

    let restored = db::connect(&db.database).await.unwrap();
    let verified = backup::verify(&db.database, 1).await.unwrap();
    assert_eq!(
        &verified, middle_verified,
        "same tables and rows as when the backup was taken"
    );
    assert!(count(&restored, "SELECT count(*) FROM leads").await <= live_leads);
    assert_eq!(
        count(
            &restored,
            "SELECT count(*) FROM subscription_catalog_descriptors"
        )
        .await,
        1_501
    );
}

#[tokio::test]
async fn retention_keeps_the_newest_backups() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = legacy::build(dir.path(), 0).await;
    let backups = dir.path().join("backups");
    let mut names = Vec::new();
    for _ in 0..5 {
        names.push(backup::create(&db.pool, &backups, 3).await.unwrap().0.name);
    }
    let kept: Vec<String> = backup::list(&backups)
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect();
    names.reverse();
    assert_eq!(kept, names[..3]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&backups).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }
}

#[tokio::test]
async fn a_backup_removes_copies_left_by_an_interrupted_one_but_not_one_in_progress() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = legacy::build(dir.path(), 0).await;
    let backups = dir.path().join("backups");
    backup::create(&db.pool, &backups, 3).await.unwrap();
    // A copy whose backup died with its process, and one another backup
    // is still writing (it holds the lock).
    let abandoned = backups.join(".partial-abandoned.db");
    std::fs::write(&abandoned, b"half a database").unwrap();
    let in_progress = backups.join(".partial-in-progress.db");
    let writer = std::fs::File::create(&in_progress).unwrap();
    writer.lock().unwrap();

    backup::create(&db.pool, &backups, 3).await.unwrap();
    assert!(!abandoned.exists(), "the abandoned copy is gone");
    assert!(in_progress.exists(), "the copy in progress is left alone");
    assert_eq!(backup::list(&backups).unwrap().len(), 2);
    drop(writer);
}

#[tokio::test]
async fn a_damaged_copy_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = legacy::build(dir.path(), 500).await;
    let backups = dir.path().join("backups");
    let (info, _) = backup::create(&db.pool, &backups, 7).await.unwrap();
    let mut bytes = std::fs::read(&info.path).unwrap();
    // Scribble over a whole page in the middle of the file (not page 1).
    let middle = bytes.len() / 2 / 4096 * 4096;
    assert!(middle >= 4096);
    for byte in &mut bytes[middle..middle + 4096] {
        *byte = 0xA5;
    }
    let damaged = dir.path().join("damaged.db");
    std::fs::write(&damaged, bytes).unwrap();
    match backup::verify(&damaged, 1).await {
        Err(BackupError::CheckFailed(why)) => assert!(!why.is_empty()),
        other => panic!("a damaged copy passed: {other:?}"),
    }
}

#[tokio::test]
async fn restore_is_refused_while_a_server_holds_the_data_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = legacy::build(dir.path(), 0).await;
    let backups = dir.path().join("backups");
    let (info, _) = backup::create(&db.pool, &backups, 7).await.unwrap();
    let _server = DataDirLock::acquire(&db.data_dir).unwrap();
    let error = backup::restore(&db.data_dir, &db.database, &backups, &info.name)
        .await
        .unwrap_err();
    assert!(matches!(error, BackupError::Lock(_)), "{error}");
    let error = backup::restore(&db.data_dir, &db.database, &backups, "../../etc/passwd")
        .await
        .unwrap_err();
    assert!(matches!(error, BackupError::BadName(_)));
}
