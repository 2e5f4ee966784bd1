//! SQL of recommendation feedback: the rows of
//! `subscription_recommendation_feedback`, and the service a bill carries
//! (`bills.catalog_id`) as tracking, linking and unlinking change it.

use sqlx::{SqliteConnection, SqlitePool};

/// One feedback row.
pub struct Feedback<'a> {
    pub action: &'static str,
    pub catalog_id: Option<i64>,
    pub bill_id: Option<i64>,
    pub merchant_key: &'a str,
    pub amount_minor: Option<i64>,
    pub currency: Option<&'a str>,
    pub reason: Option<&'a str>,
}

/// Adds a feedback row.
pub async fn record(
    conn: &mut SqliteConnection,
    user_id: i64,
    feedback: Feedback<'_>,
) -> Result<(), sqlx::Error> {
    // On the calendar's clock: how long a decline holds is a date rule.
    let at = crate::backend::clock::now_stored();
    sqlx::query!(
        "INSERT INTO subscription_recommendation_feedback
             (user_id, catalog_id, bill_id, merchant_key, action, amount_cents, currency, reason,
              created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        user_id,
        feedback.catalog_id,
        feedback.bill_id,
        feedback.merchant_key,
        feedback.action,
        feedback.amount_minor,
        feedback.currency,
        feedback.reason,
        at,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Makes the bill `catalog_id`'s, and a subscription.
pub async fn link_bill(
    conn: &mut SqliteConnection,
    user_id: i64,
    bill_id: i64,
    catalog_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE bills SET catalog_id = ?, is_subscription = 1,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND user_id = ?",
        catalog_id,
        bill_id,
        user_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The description of the bill's latest bank charge, if it has one.
pub async fn latest_charge_description(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT description FROM transactions WHERE bill_id = ? AND user_id = ?
         ORDER BY posted_at DESC, id DESC LIMIT 1",
        bill_id,
        user_id,
    )
    .fetch_optional(pool)
    .await
}

/// Sets the service the bill carries (`None`: none).
pub async fn set_bill_catalog(
    conn: &mut SqliteConnection,
    user_id: i64,
    bill_id: i64,
    catalog_id: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE bills SET catalog_id = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND user_id = ?",
        catalog_id,
        bill_id,
        user_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}
