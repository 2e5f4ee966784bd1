//! `GET /api/data/export.xlsx`: the person's bills, payments, this-time
//! changes and bank transactions in one Excel workbook.

use sqlx::SqlitePool;

use super::{sheets, store, WorkbookError};
use crate::backend::bills::{self, transfer};

/// The workbook's bytes.
pub async fn export(pool: &SqlitePool, user_id: i64) -> Result<Vec<u8>, WorkbookError> {
    let all = bills::list(pool, user_id).await?;
    let payments = bills::list_all_payments(pool, user_id).await?;
    let months = crate::backend::bill_months::service::all(pool, user_id)
        .await
        .map_err(|error| WorkbookError::Rows(error.to_string()))?;
    let transactions = store::transactions(pool, user_id).await?;
    let bills_csv = transfer::to_csv(&all)?;
    let payments_csv = transfer::payments_to_csv(&all, &payments)?;
    let months_csv = transfer::months_to_csv(&all, &months)?;
    sheets::workbook(
        &[
            ("Bills", &bills_csv),
            ("Payments", &payments_csv),
            ("This-time changes", &months_csv),
        ],
        &transactions,
    )
}
