//! The SQL of the stores is compile-checked (`sqlx::query!`) against a
//! database that `scripts/sqlx_schema.py` builds from `migrations/` alone
//! (so a new query can be prepared before anything compiles). This checks
//! that it is exactly the schema the migrator makes, object for object, so
//! the queries are checked against what Tally really runs on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

use sqlx::{Connection, SqliteConnection};

/// Every table, index, view and trigger as `(type, name, sql)`, in order.
async fn objects(conn: &mut SqliteConnection) -> Vec<(String, String, Option<String>)> {
    sqlx::query_as(
        "SELECT type, name, sql FROM sqlite_schema
         WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
    )
    .fetch_all(conn)
    .await
    .unwrap()
}

#[tokio::test]
async fn the_schema_queries_are_checked_against_is_the_migrators() {
    let (dir, pool) = crate::backend::db::migrated_for_test().await;
    let migrated = objects(&mut pool.acquire().await.unwrap()).await;

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/sqlx_schema.py");
    let built = dir.path().join("schema.db");
    let ran = Command::new("python3")
        .arg(&script)
        .arg(&built)
        .status()
        .expect("python3 runs scripts/sqlx_schema.py");
    assert!(ran.success(), "{} failed", script.display());
    let mut conn = SqliteConnection::connect(&format!("sqlite:{}", built.display()))
        .await
        .unwrap();
    let from_script = objects(&mut conn).await;

    assert!(
        migrated.len() > 30,
        "the migrated database has its tables: {migrated:?}"
    );
    for (mine, theirs) in migrated.iter().zip(&from_script) {
        assert_eq!(
            mine, theirs,
            "the script's schema differs from the migrator's"
        );
    }
    assert_eq!(migrated.len(), from_script.len());
}
