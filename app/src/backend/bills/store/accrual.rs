//! SQL the monthly interest accrual reads and writes besides a payment's
//! (`payments`): which debts to charge, and where a debt starts.

use sqlx::{SqliteConnection, SqlitePool};

/// An active debt and its owner's time zone.
pub struct Debt {
    pub id: i64,
    pub user_id: i64,
    pub time_zone: String,
}

/// Every active debt, by id.
pub async fn active_debts(pool: &SqlitePool) -> Result<Vec<Debt>, sqlx::Error> {
    sqlx::query_as!(
        Debt,
        r#"SELECT b.id AS "id!", b.user_id AS "user_id!", u.time_zone
           FROM bills b JOIN users u ON u.id = b.user_id
           WHERE b.is_debt = 1 AND b.active = 1 ORDER BY b.id"#
    )
    .fetch_all(pool)
    .await
}

/// A debt with no charged month starts being charged after `month`.
pub async fn start_charging(
    conn: &mut SqliteConnection,
    bill_id: i64,
    month: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE bills SET interest_accrued_month = ? WHERE id = ?",
        month,
        bill_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}
