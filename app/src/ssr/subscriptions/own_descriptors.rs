//! The bank descriptors a person taught Tally (`user_catalog_descriptors`):
//! matched before the catalog's own, so they settle what a merchant is.

use sqlx::{Sqlite, SqlitePool, Transaction};

use super::SubscriptionError;
use crate::contract::subscriptions::{NewDescriptor, OwnDescriptor, OwnDescriptors};
use crate::domain::bank::merchant;
use crate::domain::text::{plain_text_problem, Lines};

/// The longest descriptor (the column's check).
pub const MAX_CHARS: usize = 200;
/// The most one person keeps.
pub const MAX_PER_USER: i64 = 500;

pub async fn list(pool: &SqlitePool, user_id: i64) -> Result<OwnDescriptors, SubscriptionError> {
    let descriptors = sqlx::query_as!(
        OwnDescriptor,
        r#"SELECT d.id AS "id!", d.catalog_id, c.name AS service_name, d.descriptor, d.created_at
           FROM user_catalog_descriptors d JOIN subscription_catalog c ON c.id = d.catalog_id
           WHERE d.user_id = ? ORDER BY c.name COLLATE NOCASE, d.descriptor"#,
        user_id
    )
    .fetch_all(pool)
    .await?;
    Ok(OwnDescriptors { descriptors })
}

/// Adds one; a descriptor the person already taught for another service
/// is refused, naming it.
pub async fn add(
    pool: &SqlitePool,
    user_id: i64,
    request: &NewDescriptor,
) -> Result<OwnDescriptor, SubscriptionError> {
    let text = request.descriptor.trim();
    if text.is_empty() || text.chars().count() > MAX_CHARS {
        return Err(SubscriptionError::field(
            "descriptor",
            format!("enter the text from your statement, 1 to {MAX_CHARS} characters"),
        ));
    }
    if let Some(problem) = plain_text_problem(text, Lines::One) {
        return Err(SubscriptionError::field("descriptor", problem));
    }
    let key = merchant::normalize(text);
    if let Some(problem) = merchant::rule_problem(&key) {
        return Err(SubscriptionError::field("descriptor", problem));
    }
    let known: Option<String> = sqlx::query_scalar!(
        "SELECT name FROM subscription_catalog WHERE id = ?",
        request.catalog_id,
    )
    .fetch_optional(pool)
    .await?;
    if known.is_none() {
        return Err(SubscriptionError::field(
            "catalogId",
            format!("there is no service {}", request.catalog_id),
        ));
    }
    let taken: Option<String> = sqlx::query_scalar!(
        "SELECT c.name FROM user_catalog_descriptors d
         JOIN subscription_catalog c ON c.id = d.catalog_id
         WHERE d.user_id = ? AND d.normalized = ?",
        user_id,
        key,
    )
    .fetch_optional(pool)
    .await?;
    if let Some(service) = taken {
        return Err(SubscriptionError::field(
            "descriptor",
            format!("you already taught Tally that {key} is {service}; delete that first"),
        ));
    }
    let count: i64 = sqlx::query_scalar!(
        "SELECT count(*) FROM user_catalog_descriptors WHERE user_id = ?",
        user_id,
    )
    .fetch_one(pool)
    .await?;
    if count >= MAX_PER_USER {
        return Err(SubscriptionError::field(
            "descriptor",
            format!("at most {MAX_PER_USER} of your own; delete some first"),
        ));
    }
    let id: i64 = sqlx::query_scalar!(
        r#"INSERT INTO user_catalog_descriptors (user_id, catalog_id, descriptor, normalized)
         VALUES (?, ?, ?, ?) RETURNING id AS "id!""#,
        user_id,
        request.catalog_id,
        text,
        key,
    )
    .fetch_one(pool)
    .await?;
    one(pool, user_id, id).await
}

async fn one(pool: &SqlitePool, user_id: i64, id: i64) -> Result<OwnDescriptor, SubscriptionError> {
    sqlx::query_as!(
        OwnDescriptor,
        r#"SELECT d.id AS "id!", d.catalog_id, c.name AS service_name, d.descriptor, d.created_at
         FROM user_catalog_descriptors d JOIN subscription_catalog c ON c.id = d.catalog_id
         WHERE d.user_id = ? AND d.id = ?"#,
        user_id,
        id,
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| SubscriptionError::NotFound(format!("you have no descriptor {id}")))
}

pub async fn delete(pool: &SqlitePool, user_id: i64, id: i64) -> Result<(), SubscriptionError> {
    let done = sqlx::query!(
        "DELETE FROM user_catalog_descriptors WHERE id = ? AND user_id = ?",
        id,
        user_id,
    )
    .execute(pool)
    .await?;
    if done.rows_affected() == 0 {
        return Err(SubscriptionError::NotFound(format!(
            "you have no descriptor {id}"
        )));
    }
    Ok(())
}

/// Teaches `key` as `catalog_id`'s, replacing what it was taught before.
pub(super) async fn upsert(
    tx: &mut Transaction<'_, Sqlite>,
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
    .execute(&mut **tx)
    .await?;
    Ok(())
}
