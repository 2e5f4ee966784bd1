//! Every SQL statement of statement imports: the waiting previews and
//! their rows, the imported accounts and their connection, the new
//! transactions. Compile-checked (`.sqlx/`).

use std::collections::HashSet;

use sqlx::{SqliteConnection, SqliteExecutor, SqlitePool};

use super::rules::Planned;

/// An import as stored.
#[derive(Clone, Debug)]
pub struct Import {
    pub id: i64,
    pub user_id: i64,
    pub file_name: String,
    pub format: String,
    pub account_id: Option<i64>,
    pub date_order: Option<String>,
    pub state: String,
    pub summary: Option<String>,
    pub created_at: String,
    pub expires_at: String,
    /// Whether its preview has expired.
    pub expired: bool,
}

impl Import {
    /// The preview's summary, once the preview is made (the column holds
    /// the reason instead when the file was refused).
    pub fn preview(&self) -> Option<crate::contract::statements::ImportPreviewSummary> {
        self.summary
            .as_deref()
            .and_then(|text| serde_json::from_str(text).ok())
    }
}

/// Forgets previews past their time (and their rows).
pub async fn forget_expired(pool: &SqlitePool) -> Result<u64, sqlx::Error> {
    let done = sqlx::query!(
        "DELETE FROM statement_imports
         WHERE expires_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AND state <> 'committed'",
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// `user`'s imports waiting for their commit (uploaded or previewed, not
/// expired): what each keeps (the file until it is previewed, then its
/// staged rows, about as large) and its seconds left.
pub async fn waiting(pool: &SqlitePool, user: i64) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    let rows = sqlx::query!(
        r#"SELECT COALESCE(length(i.file), 0)
                  + COALESCE((SELECT SUM(length(r.file_account) + length(r.provider_transaction_id)
                                         + length(r.description) + COALESCE(length(r.memo), 0) + 32)
                              FROM statement_import_rows r WHERE r.import_id = i.id), 0)
                  AS "bytes!: i64",
                  CAST((julianday(i.expires_at) - julianday('now')) * 86400 AS INTEGER)
                  AS "seconds_left!: i64"
           FROM statement_imports i
           WHERE i.user_id = ? AND i.state IN ('uploaded', 'previewed')
             AND i.expires_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"#,
        user,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| (row.bytes, row.seconds_left))
        .collect())
}

/// How many of `user`'s statement previews and commits are running.
pub async fn imports_running(pool: &SqlitePool, user: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "running!: i64" FROM operations
           WHERE owner_id = ? AND done = 0 AND deleted = 0
             AND kind IN ('statement_preview', 'statement_import')"#,
        user,
    )
    .fetch_one(pool)
    .await
}

/// Whether a preview or a commit of `user`'s import `import_id` is
/// running: an unfinished operation of theirs whose metadata names it (its
/// `import` field, an int64 and so a string in proto3 JSON). One the
/// person deleted from their list still runs, so it counts.
pub async fn running(
    conn: &mut SqliteConnection,
    user: i64,
    import_id: i64,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (
               SELECT 1 FROM operations
               WHERE owner_id = ? AND done = 0
                 AND kind IN ('statement_preview', 'statement_import')
                 AND json_extract(metadata, '$.import') = CAST(? AS TEXT)
           ) AS "running!: bool""#,
        user,
        import_id,
    )
    .fetch_one(&mut *conn)
    .await
}

/// Forgets `user`'s import `import_id` and its staged rows, unless it is
/// committed; whether there was one to forget. Two statements (the rows
/// would go with the import by the foreign key, but need not rely on it),
/// so the caller's transaction, in which it found the import not running.
pub async fn discard(
    conn: &mut SqliteConnection,
    user: i64,
    import_id: i64,
) -> Result<bool, sqlx::Error> {
    sqlx::query!(
        "DELETE FROM statement_import_rows WHERE import_id IN
             (SELECT id FROM statement_imports WHERE id = ? AND user_id = ? AND state <> 'committed')",
        import_id,
        user,
    )
    .execute(&mut *conn)
    .await?;
    let done = sqlx::query!(
        "DELETE FROM statement_imports WHERE id = ? AND user_id = ? AND state <> 'committed'",
        import_id,
        user,
    )
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A new import of `file`, waiting to be previewed for `hours`.
#[allow(clippy::too_many_arguments)]
pub async fn create(
    pool: &SqlitePool,
    user_id: i64,
    file_name: &str,
    format: &str,
    account_id: Option<i64>,
    date_order: Option<&str>,
    file: &[u8],
    hours: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        r#"INSERT INTO statement_imports (user_id, file_name, format, account_id, date_order, file, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ? || ' hours'))
         RETURNING id AS "id!""#,
        user_id,
        file_name,
        format,
        account_id,
        date_order,
        file,
        hours,
    )
    .fetch_one(pool)
    .await
}

/// The import `id`, from the pool or inside a transaction.
pub async fn import<'e>(
    db: impl SqliteExecutor<'e>,
    id: i64,
) -> Result<Option<Import>, sqlx::Error> {
    sqlx::query_as!(
        Import,
        r#"SELECT id AS "id!", user_id, file_name, format, account_id, date_order, state,
             summary, created_at, expires_at,
             expires_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS "expired!: bool"
         FROM statement_imports WHERE id = ?"#,
        id,
    )
    .fetch_optional(db)
    .await
}

/// The uploaded file, until the preview is made.
pub async fn file(pool: &SqlitePool, id: i64) -> Result<Option<Vec<u8>>, sqlx::Error> {
    sqlx::query_scalar!("SELECT file FROM statement_imports WHERE id = ?", id)
        .fetch_optional(pool)
        .await
        .map(Option::flatten)
}

/// The name and provider account id of one of the user's bank accounts.
pub async fn account(
    pool: &SqlitePool,
    user_id: i64,
    account_id: i64,
) -> Result<Option<(String, String, String)>, sqlx::Error> {
    let row = sqlx::query!(
        "SELECT name, provider_account_id, currency FROM bank_accounts WHERE id = ? AND user_id = ?",
        account_id,
        user_id,
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|row| (row.name, row.provider_account_id, row.currency)))
}

/// The user's account with this provider account id, if any.
pub async fn account_by_provider_id(
    conn: &mut SqliteConnection,
    user_id: i64,
    provider_account_id: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM bank_accounts WHERE user_id = ? AND provider_account_id = ? ORDER BY id LIMIT 1"#,
        user_id,
        provider_account_id,
    )
    .fetch_optional(&mut *conn)
    .await
}

/// Every transaction id an account of the user already has, by provider
/// account id (none when there is no such account).
pub async fn existing_ids(
    pool: &SqlitePool,
    user_id: i64,
    provider_account_id: &str,
) -> Result<HashSet<String>, sqlx::Error> {
    let ids: Vec<String> = sqlx::query_scalar!(
        "SELECT t.provider_transaction_id FROM transactions t
         JOIN bank_accounts a ON a.id = t.account_id AND a.user_id = t.user_id
         WHERE a.user_id = ? AND a.provider_account_id = ?",
        user_id,
        provider_account_id,
    )
    .fetch_all(pool)
    .await?;
    Ok(ids.into_iter().collect())
}

/// Stages a batch of planned rows, numbered from `first_row`.
pub async fn stage(
    conn: &mut SqliteConnection,
    import_id: i64,
    first_row: i64,
    rows: &[Planned],
) -> Result<(), sqlx::Error> {
    for (offset, row) in (0_i64..).zip(rows) {
        let number = first_row + offset;
        sqlx::query!(
            "INSERT INTO statement_import_rows (import_id, row, file_account, provider_transaction_id,
                 posted_day, amount_cents, description, memo, duplicate)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (import_id, row) DO NOTHING",
            import_id,
            number,
            row.file_account,
            row.provider_transaction_id,
            row.day,
            row.amount_minor,
            row.description,
            row.memo,
            row.duplicate,
        )
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Forgets what an earlier, interrupted preview staged.
pub async fn unstage(pool: &SqlitePool, import_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "DELETE FROM statement_import_rows WHERE import_id = ?",
        import_id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The preview is made: its summary kept, the file let go.
pub async fn previewed(
    conn: &mut SqliteConnection,
    import_id: i64,
    summary: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE statement_imports SET state = 'previewed', summary = ?, file = NULL WHERE id = ?",
        summary,
        import_id,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The file was refused: why, and the file let go.
pub async fn failed(pool: &SqlitePool, import_id: i64, why: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE statement_imports SET state = 'failed', summary = ?, file = NULL WHERE id = ?",
        why,
        import_id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// A staged row.
#[derive(Clone, Debug)]
pub struct Staged {
    pub row: i64,
    pub file_account: String,
    pub provider_transaction_id: String,
    pub posted_day: String,
    pub amount_cents: i64,
    pub description: String,
    pub memo: Option<String>,
    pub duplicate: bool,
}

/// Up to `limit` staged rows after `after`, in file order.
pub async fn staged(
    pool: &SqlitePool,
    import_id: i64,
    after: i64,
    limit: i64,
) -> Result<Vec<Staged>, sqlx::Error> {
    sqlx::query_as!(
        Staged,
        r#"SELECT row, file_account, provider_transaction_id, posted_day, amount_cents, description,
                memo, duplicate AS "duplicate: bool"
         FROM statement_import_rows WHERE import_id = ? AND row > ? ORDER BY row LIMIT ?"#,
        import_id,
        after,
        limit,
    )
    .fetch_all(pool)
    .await
}

pub async fn staged_count(pool: &SqlitePool, import_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT count(*) FROM statement_import_rows WHERE import_id = ?",
        import_id,
    )
    .fetch_one(pool)
    .await
}

/// The user's connection that holds imported accounts, made the first
/// time (`disconnected`, so no sync ever runs for it; its secret is a
/// sealed marker, never a bank's address).
pub async fn file_connection(
    conn: &mut SqliteConnection,
    user_id: i64,
    sealed_marker: &str,
) -> Result<i64, sqlx::Error> {
    let found: Option<i64> = sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM bank_connections WHERE user_id = ? AND provider = ? ORDER BY id LIMIT 1"#,
        user_id,
        super::FILE_PROVIDER,
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = found {
        return Ok(id);
    }
    sqlx::query_scalar!(
        r#"INSERT INTO bank_connections (user_id, provider, institution, access_secret, status)
         VALUES (?, ?, 'Imported statements', ?, 'disconnected') RETURNING id AS "id!""#,
        user_id,
        super::FILE_PROVIDER,
        sealed_marker,
    )
    .fetch_one(&mut *conn)
    .await
}

/// An imported account, made the first time.
pub async fn imported_account(
    conn: &mut SqliteConnection,
    user_id: i64,
    connection_id: i64,
    provider_account_id: &str,
    name: &str,
    currency: &str,
) -> Result<i64, sqlx::Error> {
    if let Some(id) = account_by_provider_id(conn, user_id, provider_account_id).await? {
        return Ok(id);
    }
    sqlx::query_scalar!(
        r#"INSERT INTO bank_accounts (connection_id, user_id, provider_account_id, name, currency)
         VALUES (?, ?, ?, ?, ?) RETURNING id AS "id!""#,
        connection_id,
        user_id,
        provider_account_id,
        name,
        currency,
    )
    .fetch_one(&mut *conn)
    .await
}

/// The statement's closing balance on an imported account, unless the
/// account already knows a later one.
pub async fn set_balance(
    conn: &mut SqliteConnection,
    account_id: i64,
    amount_minor: i64,
    day: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE bank_accounts SET balance_cents = ?, balance_date = ?
         WHERE id = ? AND (balance_date IS NULL OR balance_date <= ?)",
        amount_minor,
        day,
        account_id,
        day,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Adds a transaction unless the account has it; whether it was added.
pub async fn add_transaction(
    conn: &mut SqliteConnection,
    user_id: i64,
    account_id: i64,
    row: &Staged,
) -> Result<bool, sqlx::Error> {
    let posted_at = format!("{}T00:00:00Z", row.posted_day);
    let done = sqlx::query!(
        "INSERT INTO transactions (user_id, account_id, provider_transaction_id, posted_at,
             amount_cents, description, memo)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING",
        user_id,
        account_id,
        row.provider_transaction_id,
        posted_at,
        row.amount_cents,
        row.description,
        row.memo,
    )
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn committed(conn: &mut SqliteConnection, import_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE statement_imports SET state = 'committed',
             committed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?",
        import_id,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::backend::migrate::{Migrator, Version};

    /// v1.18 builds both tables again to widen the format's CHECK: a
    /// preview waiting for its commit keeps its rows, and the new formats
    /// can be stored.
    #[tokio::test]
    async fn a_waiting_preview_survives_the_wider_formats() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::backend::db::connect(&dir.path().join("t.db"))
            .await
            .unwrap();
        Migrator::up_to(Version::new(1, 17))
            .run(&pool)
            .await
            .unwrap();
        sqlx::raw_sql(
            "INSERT INTO users (email) VALUES ('a@example.com');
             INSERT INTO statement_imports (user_id, file_name, format, expires_at)
                 VALUES (1, 'a.ofx', 'ofx', '2099-01-01');
             INSERT INTO statement_import_rows (import_id, row, file_account,
                 provider_transaction_id, posted_day, amount_cents, description, duplicate)
                 VALUES (1, 0, 'x', 'fitid-1', '2026-01-01', -100, 'Coffee', 0);",
        )
        .execute(&pool)
        .await
        .unwrap();
        Migrator::default().run(&pool).await.unwrap();
        let rows: i64 = sqlx::query_scalar!("SELECT COUNT(*) FROM statement_import_rows r JOIN statement_imports i ON i.id = r.import_id")
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(rows, 1);
        sqlx::query!(
            "INSERT INTO statement_imports (user_id, file_name, format, expires_at)
             VALUES (1, 'f.csv', 'firefly', '2099-01-01'), (1, 'a.csv', 'actual', '2099-01-01')",
        )
        .execute(&pool)
        .await
        .unwrap();
        // Deleting an import still takes its rows with it.
        sqlx::query!("DELETE FROM statement_imports WHERE id = 1")
            .execute(&pool)
            .await
            .unwrap();
        let left: i64 = sqlx::query_scalar!("SELECT COUNT(*) FROM statement_import_rows")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(left, 0);
    }

    /// Only an unfinished preview or commit that names the import holds
    /// it; a discard takes the import and its rows, never a committed one
    /// or another person's.
    #[tokio::test]
    async fn a_running_job_holds_its_import_and_a_discard_takes_the_rows() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::backend::db::connect(&dir.path().join("t.db"))
            .await
            .unwrap();
        Migrator::default().run(&pool).await.unwrap();
        sqlx::raw_sql(
            r#"INSERT INTO users (email) VALUES ('a@example.com'), ('b@example.com');
             INSERT INTO statement_imports (user_id, file_name, format, state, expires_at)
                 VALUES (1, 'a.ofx', 'ofx', 'previewed', '2099-01-01'),
                        (1, 'b.ofx', 'ofx', 'previewed', '2099-01-01'),
                        (1, 'c.ofx', 'ofx', 'committed', '2099-01-01');
             INSERT INTO statement_import_rows (import_id, row, file_account,
                 provider_transaction_id, posted_day, amount_cents, description, duplicate)
                 VALUES (1, 1, 'x', 'fitid-1', '2026-01-01', -100, 'Coffee', 0),
                        (2, 1, 'x', 'fitid-2', '2026-01-02', -200, 'Tea', 0),
                        (3, 1, 'x', 'fitid-3', '2026-01-03', -300, 'Cake', 0);
             INSERT INTO operations (id, owner_id, kind, metadata_type, metadata, done, response)
                 VALUES ('commit-1', 1, 'statement_import', 'tally.v1.StatementImportMetadata',
                         '{"import":"1","rowsDone":"5","percentDone":40}', 0, NULL),
                        ('preview-2', 1, 'statement_preview', 'tally.v1.StatementPreviewMetadata',
                         '{"import":"2"}', 1, '{}'),
                        ('backup', 1, 'backup', 'tally.v1.BackupMetadata',
                         '{"import":"2"}', 0, NULL);"#,
        )
        .execute(&pool)
        .await
        .unwrap();
        let mut conn = pool.acquire().await.unwrap();
        assert!(super::running(&mut conn, 1, 1).await.unwrap());
        // Done, or not a statement job, or someone else's: not running.
        assert!(!super::running(&mut conn, 1, 2).await.unwrap());
        assert!(!super::running(&mut conn, 2, 1).await.unwrap());
        assert!(!super::running(&mut conn, 1, 12).await.unwrap());

        // Not hers, or committed: nothing goes.
        assert!(!super::discard(&mut conn, 2, 2).await.unwrap());
        assert!(!super::discard(&mut conn, 1, 3).await.unwrap());
        assert!(super::discard(&mut conn, 1, 2).await.unwrap());
        assert!(super::import(&mut *conn, 2).await.unwrap().is_none());
        let rows: Vec<i64> =
            sqlx::query_scalar("SELECT import_id FROM statement_import_rows ORDER BY import_id")
                .fetch_all(&mut *conn)
                .await
                .unwrap();
        assert_eq!(rows, vec![1, 3]);
    }
}
