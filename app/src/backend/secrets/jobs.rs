//! `reencrypt_secrets`: seals every stored secret again with the current
//! key (a fresh nonce each; values under the database key move to
//! `TOKEN_ENCRYPTION_KEY` when it is set). One transaction per column, so a
//! cancelled run leaves every value readable, under the old seal or the new.

use std::sync::Arc;

use secrecy::ExposeSecret;
use serde_json::Value;
use sqlx::SqlitePool;

use super::columns::SECRET_COLUMNS;
use super::keyring::Keyring;
use super::store::{self, Sealed};
use crate::backend::operations::messages::{
    Message, ReencryptSecretsMetadata, ReencryptSecretsResponse,
};
use crate::backend::operations::{percent, Engine, Job, JobContext, Running, Status};
use crate::domain::operation_kind::OperationKind;

/// Seal every stored secret again. Started again after a restart:
/// re-sealing a sealed value is harmless.
#[derive(Clone)]
pub struct ReencryptSecrets {
    pool: SqlitePool,
    keyring: Arc<Keyring>,
}

impl ReencryptSecrets {
    pub fn new(pool: SqlitePool, keyring: Arc<Keyring>) -> Self {
        Self { pool, keyring }
    }

    pub fn register(&self, engine: &Engine) {
        let job = self.clone();
        engine.resume_with(
            OperationKind::ReencryptSecrets,
            Box::new(move |_| Some(Box::new(job.clone()))),
        );
    }
}

impl Job for ReencryptSecrets {
    fn kind(&self) -> OperationKind {
        OperationKind::ReencryptSecrets
    }

    fn parameters(&self) -> Value {
        Value::Object(serde_json::Map::new())
    }

    fn run<'a>(&'a self, context: &'a JobContext) -> Running<'a> {
        Box::pin(run(context, self))
    }
}

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

async fn run(context: &JobContext, resources: &ReencryptSecrets) -> Result<Value, Status> {
    let mut total = 0_i64;
    for column in SECRET_COLUMNS {
        let count = store::count(&resources.pool, *column)
            .await
            .map_err(internal)?;
        total += count;
    }
    context.report(progress(total, 0), 0).await;
    let mut done = 0_i64;
    for column in SECRET_COLUMNS {
        context.checkpoint()?;
        let mut tx = crate::backend::db::write(&resources.pool)
            .await
            .map_err(internal)?;
        let rows = store::values(&mut *tx, *column, Sealed::Any)
            .await
            .map_err(internal)?;
        for (rowid, stored) in &rows {
            let plain = resources.keyring.open(*column, stored).map_err(internal)?;
            let sealed = resources
                .keyring
                .seal(*column, plain.expose_secret())
                .map_err(internal)?;
            store::reseal(&mut *tx, *column, *rowid, &sealed)
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
