//! The bank descriptors a person taught Tally (`user_catalog_descriptors`):
//! matched before the catalog's own, so they settle what a merchant is.

use sqlx::SqlitePool;

use super::store;
use super::SubscriptionError;
use crate::contract::subscriptions::{NewDescriptor, OwnDescriptor, OwnDescriptors};
use crate::domain::bank::merchant;
use crate::domain::text::{plain_text_problem, Lines};

/// The longest descriptor (the column's check).
pub const MAX_CHARS: usize = 200;
/// The most one person keeps.
pub const MAX_PER_USER: i64 = 500;

pub async fn list(pool: &SqlitePool, user_id: i64) -> Result<OwnDescriptors, SubscriptionError> {
    let descriptors = store::own_descriptors::list(pool, user_id).await?;
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
    let known = store::own_descriptors::service_name(pool, request.catalog_id).await?;
    if known.is_none() {
        return Err(SubscriptionError::field(
            "catalogId",
            format!("there is no service {}", request.catalog_id),
        ));
    }
    let taken = store::own_descriptors::taught_as(pool, user_id, &key).await?;
    if let Some(service) = taken {
        return Err(SubscriptionError::field(
            "descriptor",
            format!("you already taught Tally that {key} is {service}; delete that first"),
        ));
    }
    let count = store::own_descriptors::count(pool, user_id).await?;
    if count >= MAX_PER_USER {
        return Err(SubscriptionError::field(
            "descriptor",
            format!("at most {MAX_PER_USER} of your own; delete some first"),
        ));
    }
    let id = store::own_descriptors::insert(pool, user_id, request.catalog_id, text, &key).await?;
    one(pool, user_id, id).await
}

async fn one(pool: &SqlitePool, user_id: i64, id: i64) -> Result<OwnDescriptor, SubscriptionError> {
    store::own_descriptors::one(pool, user_id, id)
        .await?
        .ok_or_else(|| SubscriptionError::NotFound(format!("you have no descriptor {id}")))
}

pub async fn delete(pool: &SqlitePool, user_id: i64, id: i64) -> Result<(), SubscriptionError> {
    if !store::own_descriptors::delete(pool, user_id, id).await? {
        return Err(SubscriptionError::NotFound(format!(
            "you have no descriptor {id}"
        )));
    }
    Ok(())
}
