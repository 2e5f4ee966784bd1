//! A bill as a client sends it (`POST`/`PUT /api/bills…` and the pages'
//! server functions): checked by the shared rules, stored, and answered as
//! the pages show it. Every field at fault is named at once.

use sqlx::SqlitePool;

use super::{create, update, views, BillError};
use crate::contract::bills::BillRecord;
use crate::domain::bill::BillForm;

/// Stores `form` as a new bill (`id: None`) or as bill `id`'s new contents.
pub async fn save(
    pool: &SqlitePool,
    user_id: i64,
    id: Option<i64>,
    form: &BillForm,
) -> Result<BillRecord, BillError> {
    let valid = form.validate().map_err(BillError::InvalidFields)?;
    let bill = match id {
        None => create(pool, user_id, &valid).await?,
        Some(id) => update(pool, user_id, id, &valid).await?,
    };
    views::shown_for(pool, user_id, &bill).await
}
