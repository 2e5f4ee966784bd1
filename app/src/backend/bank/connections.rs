//! Connecting a bank: claiming a setup token (once: the provider refuses a
//! second claim), sealing the access URL with the secrets keyring before
//! anything else happens, and listing the accounts it reaches. Reconnecting
//! claims a new token for the same connection; disconnecting drops the
//! access and keeps the history.

use std::sync::Arc;

use sqlx::SqlitePool;

use super::simplefin::{ClaimUrl, Provider};
use super::store::connections as stored;
use super::BankError;

pub use super::store::connections::MAX_PER_USER;

/// Fails when connecting (or reconnecting a disconnected connection) would
/// take the user past [`MAX_PER_USER`]; checked before a setup token is
/// claimed, so a refused connect does not use the token up.
async fn check_room(
    pool: &SqlitePool,
    user_id: i64,
    reconnect: Option<i64>,
) -> Result<(), BankError> {
    let (active, reviving) = stored::room(pool, user_id, reconnect).await?;
    if reviving && active >= MAX_PER_USER {
        Err(BankError::TooManyConnections(active))
    } else {
        Ok(())
    }
}

use crate::backend::secrets::{Keyring, BANK_ACCESS_SECRET};

/// Claims `setup_token` and stores the sealed access URL: on a new
/// connection of `user_id`, or (with `reconnect`) on that connection of
/// theirs. The claim and the write run as their own task, so a request cut
/// off by its deadline cannot lose an access URL the provider has already
/// handed out (a setup token works once). Returns the connection's id.
pub async fn claim(
    pool: &SqlitePool,
    keyring: &Arc<Keyring>,
    provider: &Provider,
    user_id: i64,
    setup_token: &str,
    reconnect: Option<i64>,
) -> Result<i64, BankError> {
    // Somebody else's connection is "not found" before the token is read.
    if let Some(id) = reconnect {
        owned(pool, user_id, id).await?;
    }
    check_room(pool, user_id, reconnect).await?;
    let claim_url = ClaimUrl::parse(setup_token, provider.allows_http())?;
    let (pool, keyring, provider) = (pool.clone(), Arc::clone(keyring), provider.clone());
    let task = tokio::spawn(async move {
        let access = provider.claim(&claim_url).await?;
        let sealed = keyring.seal(BANK_ACCESS_SECRET, access.expose())?;
        let id = stored::store_access(
            &pool,
            user_id,
            reconnect,
            "simplefin",
            &access.host(),
            &sealed,
        )
        .await?;
        tracing::info!(connection = id, user = user_id, "bank connection claimed");
        Ok::<_, BankError>(id)
    });
    task.await
        .map_err(|error| BankError::Interrupted(error.to_string()))?
}

/// Connects (or reconnects) the demo bank: no claim, a sealed marker for
/// the access, and its name saying it is a demo.
pub async fn connect_demo(
    pool: &SqlitePool,
    keyring: &Keyring,
    user_id: i64,
    reconnect: Option<i64>,
) -> Result<i64, BankError> {
    if let Some(id) = reconnect {
        owned(pool, user_id, id).await?;
    }
    check_room(pool, user_id, reconnect).await?;
    let sealed = keyring.seal(BANK_ACCESS_SECRET, super::demo::ACCESS)?;
    stored::store_access(
        pool,
        user_id,
        reconnect,
        "demo",
        super::demo::INSTITUTION,
        &sealed,
    )
    .await
}

/// Fails with "not found" unless the connection is the user's.
async fn owned(pool: &SqlitePool, user_id: i64, id: i64) -> Result<(), BankError> {
    let found = stored::exists(pool, user_id, id).await?;
    found
        .then_some(())
        .ok_or_else(|| BankError::NotFound(format!("no bank connection {id}")))
}

/// Ends a connection: no more syncs, the access URL is replaced by a sealed
/// empty value (nothing left to leak), and every account and transaction
/// stays, so reconnecting the bank later continues the same history.
pub async fn disconnect(
    pool: &SqlitePool,
    keyring: &Keyring,
    user_id: i64,
    id: i64,
) -> Result<(), BankError> {
    owned(pool, user_id, id).await?;
    let emptied = keyring.seal(BANK_ACCESS_SECRET, "")?;
    stored::disconnect(pool, user_id, id, &emptied).await?;
    Ok(())
}

/// The user's connections a "sync all" covers: every one not disconnected.
pub async fn syncable(pool: &SqlitePool, user_id: i64) -> Result<Vec<i64>, BankError> {
    Ok(stored::syncable(pool, user_id).await?)
}

/// Fails unless the connection is the user's and can sync.
pub async fn check_syncable(pool: &SqlitePool, user_id: i64, id: i64) -> Result<(), BankError> {
    let status = stored::status(pool, user_id, id).await?;
    match status.as_deref() {
        None => Err(BankError::NotFound(format!("no bank connection {id}"))),
        Some("disconnected") => Err(BankError::Disconnected),
        Some(_) => Ok(()),
    }
}
