//! SQL of the bank descriptors a person taught Tally
//! (`user_catalog_descriptors`), each with the service it names.

use sqlx::{SqliteConnection, SqlitePool};

use crate::contract::subscriptions::OwnDescriptor;

/// The person's descriptors, by service name, then descriptor.
pub async fn list(pool: &SqlitePool, user_id: i64) -> Result<Vec<OwnDescriptor>, sqlx::Error> {
    sqlx::query_as!(
        OwnDescriptor,
        r#"SELECT d.id AS "id!", d.catalog_id, c.name AS service_name, d.descriptor, d.created_at
           FROM user_catalog_descriptors d JOIN subscription_catalog c ON c.id = d.catalog_id
           WHERE d.user_id = ? ORDER BY c.name COLLATE NOCASE, d.descriptor"#,
        user_id
    )
    .fetch_all(pool)
    .await
}

/// The name of the catalog's service `catalog_id`, if there is one.
pub async fn service_name(
    pool: &SqlitePool,
    catalog_id: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT name FROM subscription_catalog WHERE id = ?",
        catalog_id,
    )
    .fetch_optional(pool)
    .await
}

/// The name of the service the person already taught `key` as, if any.
pub async fn taught_as(
    pool: &SqlitePool,
    user_id: i64,
    key: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT c.name FROM user_catalog_descriptors d
         JOIN subscription_catalog c ON c.id = d.catalog_id
         WHERE d.user_id = ? AND d.normalized = ?",
        user_id,
        key,
    )
    .fetch_optional(pool)
    .await
}

/// How many descriptors the person keeps.
pub async fn count(pool: &SqlitePool, user_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT count(*) FROM user_catalog_descriptors WHERE user_id = ?",
        user_id,
    )
    .fetch_one(pool)
    .await
}

/// Adds `descriptor` (normalized as `key`) for `catalog_id`; answers its id.
pub async fn insert(
    pool: &SqlitePool,
    user_id: i64,
    catalog_id: i64,
    descriptor: &str,
    key: &str,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        r#"INSERT INTO user_catalog_descriptors (user_id, catalog_id, descriptor, normalized)
         VALUES (?, ?, ?, ?) RETURNING id AS "id!""#,
        user_id,
        catalog_id,
        descriptor,
        key,
    )
    .fetch_one(pool)
    .await
}

/// One of the person's descriptors.
pub async fn one(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
) -> Result<Option<OwnDescriptor>, sqlx::Error> {
    sqlx::query_as!(
        OwnDescriptor,
        r#"SELECT d.id AS "id!", d.catalog_id, c.name AS service_name, d.descriptor, d.created_at
         FROM user_catalog_descriptors d JOIN subscription_catalog c ON c.id = d.catalog_id
         WHERE d.user_id = ? AND d.id = ?"#,
        user_id,
        id,
    )
    .fetch_optional(pool)
    .await
}

/// Deletes one of the person's descriptors: false when they have no such one.
pub async fn delete(pool: &SqlitePool, user_id: i64, id: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "DELETE FROM user_catalog_descriptors WHERE id = ? AND user_id = ?",
        id,
        user_id,
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Teaches `key` as `catalog_id`'s, replacing what it was taught before.
pub async fn upsert(
    conn: &mut SqliteConnection,
    user_id: i64,
    catalog_id: i64,
    key: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO user_catalog_descriptors (user_id, catalog_id, descriptor, normalized)
         VALUES (?, ?, ?, ?)
         ON CONFLICT (user_id, normalized) DO UPDATE SET catalog_id = excluded.catalog_id",
        user_id,
        catalog_id,
        key,
        key,
    )
    .execute(conn)
    .await?;
    Ok(())
}
