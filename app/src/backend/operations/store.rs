//! SQL for `operations`. Every change of state is a conditional update on
//! `done = 0`, so a done operation never changes again whoever tries; the
//! table's CHECK constraints hold the result rule (not done ⇒ neither error
//! nor response; done ⇒ exactly one).

use serde_json::Value;
use sqlx::{QueryBuilder, Sqlite, SqlitePool};

use super::filter::{Expr, Literal};
use super::page_token::Position;
use super::record::{Outcome, Record};
use crate::domain::operation_kind::OperationKind;

/// The columns of a [`Record`], for the one query built at run time
/// ([`page`], whose filter is the client's).
const COLUMNS: &str = "id, owner_id, kind, metadata_type, metadata, done, error_code, \
    error_message, response_type, response, cancel_requested, created_at, updated_at, ended_at";

pub async fn insert(
    pool: &SqlitePool,
    id: &str,
    owner_id: Option<i64>,
    kind: OperationKind,
    metadata: &Value,
) -> Result<Record, sqlx::Error> {
    let (name, metadata_type, metadata) = (kind.name(), kind.metadata_type(), metadata.to_string());
    sqlx::query_as!(
        Record,
        r#"INSERT INTO operations (id, owner_id, kind, metadata_type, metadata)
         VALUES (?, ?, ?, ?, ?)
         RETURNING id AS "id!", owner_id, kind, metadata_type, metadata, done AS "done: bool",
             error_code, error_message, response_type, response,
             cancel_requested AS "cancel_requested: bool", created_at, updated_at, ended_at"#,
        id,
        owner_id,
        name,
        metadata_type,
        metadata,
    )
    .fetch_one(pool)
    .await
}

/// The operation, unless deleted.
pub async fn get(pool: &SqlitePool, id: &str) -> Result<Option<Record>, sqlx::Error> {
    sqlx::query_as!(
        Record,
        r#"SELECT id AS "id!", owner_id, kind, metadata_type, metadata, done AS "done: bool",
             error_code, error_message, response_type, response,
             cancel_requested AS "cancel_requested: bool", created_at, updated_at, ended_at
         FROM operations WHERE id = ? AND deleted = 0"#,
        id,
    )
    .fetch_optional(pool)
    .await
}

/// Replaces the progress metadata of a running operation.
pub async fn set_metadata(
    pool: &SqlitePool,
    id: &str,
    metadata: &Value,
) -> Result<(), sqlx::Error> {
    let metadata = metadata.to_string();
    sqlx::query!(
        "UPDATE operations SET metadata = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND done = 0",
        metadata,
        id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Ends a running operation; `false` when it had already ended (the first
/// outcome stands). An operation the client deleted is removed instead.
/// `kind` types a response; an operation of a kind this build does not
/// know can only end with an error.
pub async fn finish(
    pool: &SqlitePool,
    id: &str,
    kind: Option<OperationKind>,
    outcome: &Outcome,
) -> Result<bool, sqlx::Error> {
    let (code, message, response_type, response) = match outcome {
        Outcome::Response(fields) => (
            None,
            None,
            kind.map(OperationKind::response_type),
            Some(fields.to_string()),
        ),
        Outcome::Error(status) => (Some(status.code), Some(status.message.clone()), None, None),
    };
    let mut tx = crate::backend::db::write(pool).await?;
    let ended = sqlx::query!(
        "UPDATE operations SET done = 1, error_code = ?, error_message = ?, response_type = ?,
             response = ?, ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND done = 0",
        code,
        message,
        response_type,
        response,
        id,
    )
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    sqlx::query!(
        "DELETE FROM operations WHERE id = ? AND deleted = 1 AND done = 1",
        id,
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(ended)
}

/// Marks a cancellation request; `false` when the operation is already done.
pub async fn request_cancel(pool: &SqlitePool, id: &str) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query!(
        "UPDATE operations SET cancel_requested = 1,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND done = 0 AND deleted = 0",
        id,
    )
    .execute(pool)
    .await?
    .rows_affected()
        == 1)
}

/// The client no longer wants the result: a done operation is removed; a
/// running one is hidden and removed when it ends (it is not cancelled).
pub async fn delete(pool: &SqlitePool, id: &str) -> Result<(), sqlx::Error> {
    let mut tx = crate::backend::db::write(pool).await?;
    sqlx::query!("DELETE FROM operations WHERE id = ? AND done = 1", id)
        .execute(&mut *tx)
        .await?;
    sqlx::query!(
        "UPDATE operations SET deleted = 1 WHERE id = ? AND done = 0",
        id
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// Operations left unfinished by a previous run of the server. Those the
/// client had deleted are removed first: nobody wants their result.
pub async fn unfinished(pool: &SqlitePool) -> Result<Vec<Record>, sqlx::Error> {
    sqlx::query!("DELETE FROM operations WHERE done = 0 AND deleted = 1")
        .execute(pool)
        .await?;
    sqlx::query_as!(
        Record,
        r#"SELECT id AS "id!", owner_id, kind, metadata_type, metadata, done AS "done: bool",
             error_code, error_message, response_type, response,
             cancel_requested AS "cancel_requested: bool", created_at, updated_at, ended_at
         FROM operations WHERE done = 0 ORDER BY created_at, id"#,
    )
    .fetch_all(pool)
    .await
}

/// Removes done operations that ended before `before` (retention).
pub async fn expire(pool: &SqlitePool, before: &str) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query!(
        "DELETE FROM operations WHERE done = 1 AND ended_at < ?",
        before
    )
    .execute(pool)
    .await?
    .rows_affected())
}

/// One page, newest first: operations of `owner` (all when `None`)
/// matching `filter`, after `after`. Fetches one more than `limit` so the
/// caller knows whether there is a next page.
pub async fn page(
    pool: &SqlitePool,
    owner: Option<i64>,
    filter: Option<&Expr>,
    after: Option<&Position>,
    limit: u32,
) -> Result<Vec<Record>, sqlx::Error> {
    let mut query: QueryBuilder<Sqlite> = QueryBuilder::new(format!(
        "SELECT {COLUMNS} FROM operations WHERE deleted = 0"
    ));
    if let Some(owner) = owner {
        query.push(" AND owner_id = ").push_bind(owner);
    }
    if let Some(position) = after {
        query
            .push(" AND (created_at < ")
            .push_bind(position.created_at.clone())
            .push(" OR (created_at = ")
            .push_bind(position.created_at.clone())
            .push(" AND id < ")
            .push_bind(position.id.clone())
            .push("))");
    }
    if let Some(filter) = filter {
        let mut sql = String::new();
        let mut binds = Vec::new();
        filter.to_sql(&mut sql, &mut binds);
        query.push(" AND ");
        let mut pieces = sql.split('?');
        if let Some(first) = pieces.next() {
            query.push(first);
        }
        for (piece, literal) in pieces.zip(binds) {
            match literal {
                Literal::Bool(value) => query.push_bind(value),
                Literal::Text(value) => query.push_bind(value),
            };
            query.push(piece);
        }
    }
    query
        .push(" ORDER BY created_at DESC, id DESC LIMIT ")
        .push_bind(i64::from(limit) + 1);
    query.build_query_as().fetch_all(pool).await
}
