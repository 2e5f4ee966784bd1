//! A restart on the real engine and a real database: an unfinished
//! operation of a kind its feature registered is started again from its
//! metadata; one whose feature registered nothing, or whose metadata names
//! no job, ends with ABORTED; one a client asked to cancel ends CANCELLED.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use super::*;
use crate::backend::backup::{BackupSettings, Backups};

const OWNER: Viewer = Viewer {
    user_id: 1,
    admin: false,
};

#[tokio::test]
async fn a_restart_resumes_what_a_feature_registered_and_aborts_the_rest() {
    let (dir, pool) = crate::backend::db::migrated_for_test().await;
    sqlx::query("INSERT INTO users (id, email) VALUES (1, 'a@example.com')")
        .execute(&pool)
        .await
        .unwrap();
    let before = Engine::new(pool.clone(), Duration::from_secs(3600))
        .await
        .unwrap();
    let backup = before
        .start_external(Some(1), OperationKind::Backup)
        .await
        .unwrap();
    let restore = before
        .start_external(Some(1), OperationKind::Restore)
        .await
        .unwrap();
    // Registered by the bank, but its metadata names no connection.
    let bank_sync = before
        .start_external(Some(1), OperationKind::BankSync)
        .await
        .unwrap();
    let cancelled = before
        .start_external(Some(1), OperationKind::Backup)
        .await
        .unwrap();
    before.cancel(OWNER, &cancelled.id).await.unwrap();
    drop(before);

    // The next start: the features register their kinds, then recover.
    let after = Engine::new(pool.clone(), Duration::from_secs(3600))
        .await
        .unwrap();
    Backups::new(
        pool.clone(),
        dir.path().join("backups"),
        BackupSettings {
            keep: 2,
            restore_min_rows: 0,
        },
    )
    .register(&after);
    crate::backend::bank::jobs::BankSyncs::new(
        pool.clone(),
        std::sync::Arc::new(crate::backend::secrets::Keyring::load(dir.path(), None).unwrap()),
        crate::backend::bank::simplefin::Provider::new(Duration::from_secs(30), false),
    )
    .register(&after);
    assert_eq!(after.recover().await.unwrap(), (1, 3));

    let resumed = after
        .wait(OWNER, &backup.id, Duration::from_secs(30))
        .await
        .unwrap();
    let resumed = serde_json::to_value(resumed.to_operation()).unwrap();
    assert_eq!(
        resumed["response"]["@type"], "type.googleapis.com/tally.v1.BackupResponse",
        "{resumed}"
    );
    for (id, code) in [
        (&restore.id, Status::ABORTED),
        (&bank_sync.id, Status::ABORTED),
        (&cancelled.id, Status::cancelled().code),
    ] {
        let ended = after.get(OWNER, id).await.unwrap();
        let ended = serde_json::to_value(ended.to_operation()).unwrap();
        assert_eq!(ended["error"]["code"], code, "{ended}");
    }
}
