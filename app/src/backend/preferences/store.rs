//! SQL of preferences: the columns of `users` that hold them, and the
//! per-user `settings` rows of the pay schedule and price drift.

use sqlx::{Sqlite, SqlitePool, Transaction};

/// The user's locale, default currency and time zone.
pub struct Columns {
    pub locale: String,
    pub currency: String,
    pub time_zone: String,
}

pub async fn columns(pool: &SqlitePool, user: i64) -> Result<Columns, sqlx::Error> {
    let row = sqlx::query!(
        "SELECT locale, currency, time_zone FROM users WHERE id = ?",
        user
    )
    .fetch_one(pool)
    .await?;
    Ok(Columns {
        locale: row.locale,
        currency: row.currency,
        time_zone: row.time_zone,
    })
}

/// The user's locale and default currency.
pub async fn locale_and_currency(
    pool: &SqlitePool,
    user: i64,
) -> Result<(String, String), sqlx::Error> {
    let row = sqlx::query!("SELECT locale, currency FROM users WHERE id = ?", user)
        .fetch_one(pool)
        .await?;
    Ok((row.locale, row.currency))
}

pub async fn update_columns(
    tx: &mut Transaction<'_, Sqlite>,
    user: i64,
    columns: &Columns,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE users SET locale = ?, currency = ?, time_zone = ?,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?",
        columns.locale,
        columns.currency,
        columns.time_zone,
        user,
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Forgets two of the user's settings.
pub async fn delete_pair(
    tx: &mut Transaction<'_, Sqlite>,
    user: i64,
    keys: [&str; 2],
) -> Result<(), sqlx::Error> {
    let [first, second] = keys;
    sqlx::query!(
        "DELETE FROM settings WHERE user_id = ? AND key IN (?, ?)",
        user,
        first,
        second,
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Forgets one of the user's settings.
pub async fn delete(
    tx: &mut Transaction<'_, Sqlite>,
    user: i64,
    key: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "DELETE FROM settings WHERE user_id = ? AND key = ?",
        user,
        key,
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Adds one of the user's settings (after its old value was deleted).
pub async fn insert(
    tx: &mut Transaction<'_, Sqlite>,
    user: i64,
    key: &str,
    value: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO settings (user_id, key, value) VALUES (?, ?, ?)",
        user,
        key,
        value,
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}
