//! SQL of Admin Status and of `/metrics`: read-only counts over other
//! features' tables (operations, the CRM outbox, bank connections) and the
//! schema history.

use sqlx::SqlitePool;

/// The newest finished operation of `kind` that failed (or did not):
/// (ended, error message).
pub async fn last_finished(
    pool: &SqlitePool,
    kind: &str,
    failed: bool,
) -> Result<Option<(String, Option<String>)>, sqlx::Error> {
    let found = sqlx::query!(
        r#"SELECT coalesce(ended_at, updated_at) AS "ended!: String", error_message
           FROM operations
           WHERE kind = ? AND done = 1 AND (error_code IS NOT NULL) = ?
           ORDER BY coalesce(ended_at, updated_at) DESC LIMIT 1"#,
        kind,
        failed
    )
    .fetch_optional(pool)
    .await?;
    Ok(found.map(|row| (row.ended, row.error_message)))
}

pub async fn sqlite_version(pool: &SqlitePool) -> Result<String, sqlx::Error> {
    sqlx::query_scalar!(r#"SELECT sqlite_version() AS "version!: String""#)
        .fetch_one(pool)
        .await
}

/// Operations running now, and those failed (not cancelled) in the last day.
pub async fn operation_counts(pool: &SqlitePool) -> Result<(i64, i64), sqlx::Error> {
    let counts = sqlx::query!(
        r#"SELECT
             (SELECT count(*) FROM operations WHERE done = 0 AND deleted = 0) AS "running!: i64",
             (SELECT count(*) FROM operations WHERE done = 1 AND error_code IS NOT NULL AND error_code <> 1
                 AND coalesce(ended_at, updated_at) >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day'))
                 AS "failed_today!: i64""#
    )
    .fetch_one(pool)
    .await?;
    Ok((counts.running, counts.failed_today))
}

/// Leads and support requests waiting for the CRM, and those it refused.
pub async fn crm_counts(pool: &SqlitePool) -> Result<(i64, i64), sqlx::Error> {
    let counts = sqlx::query!(
        r#"SELECT
             (SELECT count(*) FROM leads WHERE crm_state = 'pending') +
             (SELECT count(*) FROM support_requests WHERE crm_state = 'pending') AS "pending!: i64",
             (SELECT count(*) FROM leads WHERE crm_state = 'failed') +
             (SELECT count(*) FROM support_requests WHERE crm_state = 'failed') AS "failed!: i64""#
    )
    .fetch_one(pool)
    .await?;
    Ok((counts.pending, counts.failed))
}

/// Bank connections not disconnected, and those of them in error.
pub async fn bank_connection_counts(pool: &SqlitePool) -> Result<(i64, i64), sqlx::Error> {
    let counts = sqlx::query!(
        r#"SELECT count(*) AS "connections!: i64",
                  coalesce(sum(status = 'error'), 0) AS "in_error!: i64"
           FROM bank_connections WHERE status <> 'disconnected'"#
    )
    .fetch_one(pool)
    .await?;
    Ok((counts.connections, counts.in_error))
}

/// The versions of the applied migrations, oldest first.
pub async fn applied_migrations(pool: &SqlitePool) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT version AS "version!" FROM schema_migrations ORDER BY applied_at"#
    )
    .fetch_all(pool)
    .await
}

/// The newest 100 failed migration attempts: (version, failed at,
/// message); none when the database predates their table (v1.09).
pub async fn migration_failures(
    pool: &SqlitePool,
) -> Result<Vec<(String, String, String)>, sqlx::Error> {
    let table: bool = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM sqlite_master
               WHERE type = 'table' AND name = 'schema_migration_failures') AS "found!: bool""#
    )
    .fetch_one(pool)
    .await?;
    if !table {
        return Ok(Vec::new());
    }
    Ok(sqlx::query!(
        "SELECT version, failed_at, message FROM schema_migration_failures
             ORDER BY failed_at DESC, id DESC LIMIT 100"
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| (row.version, row.failed_at, row.message))
    .collect())
}

/// One row of grouped counts: two labels and a count.
struct Grouped {
    first: String,
    second: String,
    count: i64,
}

/// Grouped counts from one compile-checked query whose columns are named
/// `first`, `second` and `count`: (first label, second label, count).
macro_rules! grouped {
    ($pool:expr, $sql:literal) => {
        sqlx::query_as!(Grouped, $sql)
            .fetch_all($pool)
            .await
            .map(|rows| {
                rows.into_iter()
                    .map(|row| (row.first, row.second, row.count))
                    .collect::<Vec<_>>()
            })
    };
}

/// Operations kept (not deleted), by kind and outcome: `running`,
/// `succeeded`, `cancelled` (google.rpc.Code 1) or `failed`.
pub async fn operations_by_outcome(
    pool: &SqlitePool,
) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
    grouped!(
        pool,
        r#"SELECT kind AS "first!", CASE WHEN done = 0 THEN 'running' WHEN error_code IS NULL THEN 'succeeded'
                WHEN error_code = 1 THEN 'cancelled' ELSE 'failed' END AS "second!: String",
                count(*) AS "count!: i64"
         FROM operations WHERE deleted = 0 GROUP BY 1, 2 ORDER BY 1, 2"#
    )
}

/// Leads and support requests by the CRM's delivery state, as (`lead` or
/// `support`, state, count).
pub async fn crm_outbox_by_state(
    pool: &SqlitePool,
) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
    grouped!(
        pool,
        r#"SELECT 'lead' AS "first!: String", crm_state AS "second!", count(*) AS "count!: i64"
           FROM leads GROUP BY 2
         UNION ALL
         SELECT 'support', crm_state, count(*) FROM support_requests GROUP BY 2
         ORDER BY 1, 2"#
    )
}

/// Bank connections by status, every status (disconnected too).
pub async fn bank_connections_by_status(
    pool: &SqlitePool,
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let rows = grouped!(
        pool,
        r#"SELECT status AS "first!", '' AS "second!: String", count(*) AS "count!: i64"
           FROM bank_connections GROUP BY 1 ORDER BY 1"#
    )?;
    Ok(rows
        .into_iter()
        .map(|(status, _, count)| (status, count))
        .collect())
}
