#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use serde_json::Value;
use support::spawn_app;

#[tokio::test]
async fn health_is_ok_when_the_database_answers() {
    let app = spawn_app(&[]).await;
    let response = app.client.get(app.url("/api/health")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, serde_json::json!({"status": "ok", "db": "ok"}));
}

/// The database file disappears (a volume unmounted, a file moved away):
/// health answers 503 with db=error while the pages keep being served, and
/// recovers when the file is back.
#[tokio::test]
async fn health_is_503_while_the_database_is_gone_and_pages_still_render() {
    let app = spawn_app(&[]).await;
    let db = app.database_path();
    let aside = db.with_file_name("bills.db.aside");
    std::fs::rename(&db, &aside).unwrap();

    let response = app.client.get(app.url("/api/health")).send().await.unwrap();
    assert_eq!(response.status(), 503);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["db"], "error");
    assert_eq!(body["status"], "error");

    let page = app.client.get(app.url("/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("Tally"));

    std::fs::rename(&aside, &db).unwrap();
    let response = app.client.get(app.url("/api/health")).send().await.unwrap();
    assert_eq!(response.status(), 200);
}

/// A file that is not a database (damaged, or replaced by something else)
/// also fails the probe.
#[tokio::test]
async fn health_is_503_when_the_file_is_not_a_database() {
    let app = spawn_app(&[]).await;
    let db = app.database_path();
    // Move every page into the main file first, so no read is served from
    // the write-ahead log.
    let pool = app::backend::db::connect(&db).await.unwrap();
    sqlx::raw_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let aside = db.with_file_name("bills.db.aside");
    std::fs::rename(&db, &aside).unwrap();
    std::fs::write(&db, vec![0x55_u8; 8192]).unwrap();

    let response = app.client.get(app.url("/api/health")).send().await.unwrap();
    assert_eq!(response.status(), 503);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["db"], "error");
}
