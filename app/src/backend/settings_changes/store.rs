//! Every SQL statement of the settings changes' list
//! (`settings_changes`, v1.19), and the administrators it tells.

use sqlx::{SqliteConnection, SqlitePool};

/// Adds one change, in the transaction that makes it; answers its time.
pub async fn add(
    conn: &mut SqliteConnection,
    by: i64,
    by_email: &str,
    area: &str,
    fields: &str,
    identities_dropped: i64,
) -> Result<String, sqlx::Error> {
    sqlx::query_scalar!(
        r#"INSERT INTO settings_changes (changed_by, changed_by_email, area, fields, identities_dropped)
           VALUES (?, ?, ?, ?, ?)
           RETURNING changed_at AS "changed_at!: String""#,
        by,
        by_email,
        area,
        fields,
        identities_dropped,
    )
    .fetch_one(&mut *conn)
    .await
}

/// One change as listed.
pub struct Change {
    pub changed_by_email: String,
    pub area: String,
    pub fields: String,
    pub identities_dropped: i64,
    pub changed_at: String,
}

/// The newest `limit` changes, newest first.
pub async fn recent(pool: &SqlitePool, limit: i64) -> Result<Vec<Change>, sqlx::Error> {
    sqlx::query_as!(
        Change,
        r#"SELECT changed_by_email, area, fields, identities_dropped, changed_at
           FROM settings_changes ORDER BY changed_at DESC, id DESC LIMIT ?"#,
        limit,
    )
    .fetch_all(pool)
    .await
}

/// The addresses of every administrator whose account is enabled.
pub async fn administrators(pool: &SqlitePool) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT email FROM users WHERE role = 'admin' AND disabled_at IS NULL ORDER BY id",
    )
    .fetch_all(pool)
    .await
}
