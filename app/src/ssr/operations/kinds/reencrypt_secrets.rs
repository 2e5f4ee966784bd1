//! `reencrypt_secrets`: seals every stored secret again with the current
//! key (a fresh nonce each; values under the database key move to
//! `TOKEN_ENCRYPTION_KEY` when it is set). One transaction per column, so a
//! cancelled run leaves every value readable, under the old seal or the new.

use secrecy::ExposeSecret;
use serde_json::Value;

use super::super::context::{percent, JobContext, Resources};
use super::super::messages::{Message, ReencryptSecretsMetadata, ReencryptSecretsResponse};
use super::super::record::Status;
use crate::ssr::secrets::SECRET_COLUMNS;

fn internal(error: impl std::fmt::Display) -> Status {
    Status::new(
        Status::INTERNAL,
        format!("re-encrypting secrets failed: {error}"),
    )
}

fn progress(total: i64, done: i64) -> Value {
    ReencryptSecretsMetadata {
        secrets_total: total,
        secrets_done: done,
    }
    .to_json()
}

pub async fn run(context: &JobContext, resources: &Resources) -> Result<Value, Status> {
    let mut total = 0_i64;
    for column in SECRET_COLUMNS {
        let count: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM {} WHERE {} IS NOT NULL",
            column.table, column.column
        ))
        .fetch_one(&resources.pool)
        .await
        .map_err(internal)?;
        total += count;
    }
    context.report(progress(total, 0), 0).await;
    let mut done = 0_i64;
    for column in SECRET_COLUMNS {
        context.checkpoint()?;
        let mut tx = crate::ssr::db::write(&resources.pool)
            .await
            .map_err(internal)?;
        let rows: Vec<(i64, String)> = sqlx::query_as(&format!(
            "SELECT rowid, {col} FROM {table} WHERE {col} IS NOT NULL",
            col = column.column,
            table = column.table
        ))
        .fetch_all(&mut *tx)
        .await
        .map_err(internal)?;
        let update = format!(
            "UPDATE {} SET {} = ? WHERE rowid = ?",
            column.table, column.column
        );
        for (rowid, stored) in &rows {
            let plain = resources.keyring.open(*column, stored).map_err(internal)?;
            let sealed = resources
                .keyring
                .seal(*column, plain.expose_secret())
                .map_err(internal)?;
            sqlx::query(&update)
                .bind(sealed)
                .bind(rowid)
                .execute(&mut *tx)
                .await
                .map_err(internal)?;
        }
        tx.commit().await.map_err(internal)?;
        done += i64::try_from(rows.len()).unwrap_or(0);
        context
            .report(progress(total, done), percent(done, total))
            .await;
    }
    Ok(ReencryptSecretsResponse {
        secrets_reencrypted: done,
    }
    .to_json())
}
