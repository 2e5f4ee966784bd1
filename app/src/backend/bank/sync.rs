//! One sync of one connection: open the sealed access URL, fetch the window
//! the reason asks for, and write it: accounts and their balances, posted
//! transactions under their stable ids (an existing one is left as its
//! owner edited it), and the account's pending transactions replaced by the
//! ones the provider lists now. Everything is read and checked before
//! anything is written, so a provider failure or an answer Tally cannot
//! read changes no data; the failure is recorded on the connection
//! (`status = 'error'`, `last_error`) for the user to see. Once written, the
//! user's merchant rules match what they can (`matching`).
//!
//! The write goes in batches (at most `BATCH_TIME`, or `BATCH_ROWS`
//! statements, whichever comes first, per transaction), so a sync of tens
//! of thousands of transactions never holds SQLite's one write lock for
//! long and other writers (a session touch, a payment) do not wait out
//! their busy timeout. A batch is whole or absent; a sync cut off between
//! batches leaves rows a later sync finds under the same stable ids.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::SqlitePool;

use super::simplefin::{self, AccessUrl, Provider, ProviderError};
use super::store::sync::{self as stored, Incoming, IncomingAccount, Stored};
use super::BankError;
use crate::backend::secrets::{Keyring, BANK_ACCESS_SECRET};
use crate::domain::bank::fingerprint::{self, Identity};
use crate::domain::bank::provider_amount::signed_minor;
use crate::domain::bank::sync_window::{SyncReason, SyncWindow};
use crate::domain::money::Currency;

/// The most statements one write transaction of a sync runs: a bound for
/// a machine so slow that the time below is never read in between.
pub const BATCH_ROWS: usize = 5000;
/// The longest one write transaction of a sync stays open (checked after
/// each statement). Each commit is a WAL fsync, so batches are cut by time
/// rather than by a small count: on a quick disk a 30,000-row seed is a
/// handful of commits, on a slow one the lock is still let go this often.
pub const BATCH_TIME: Duration = Duration::from_millis(100);

/// What a sync did to one account.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccountSynced {
    pub account_id: i64,
    pub name: String,
    /// Posted transactions new to Tally.
    pub added: i64,
    /// Posted transactions already known (seen again, nothing duplicated).
    pub seen: i64,
    /// Pending transactions now listed.
    pub pending: i64,
    /// False when the account is switched off: only its balance is kept.
    pub monitored: bool,
}

/// What a sync did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SyncReport {
    pub connection_id: i64,
    pub window: Option<(i64, i64)>,
    pub accounts: Vec<AccountSynced>,
    /// What the provider said beside the data (a bank needing attention).
    pub messages: Vec<String>,
    /// Transactions matched to bills by the user's merchant rules.
    pub matched: u32,
}

fn rfc3339(epoch: i64) -> Option<String> {
    jiff::Timestamp::from_second(epoch)
        .ok()
        .map(|at| at.to_string())
}

fn day(epoch: i64) -> String {
    jiff::Timestamp::from_second(epoch)
        .map(|at| at.strftime("%Y-%m-%d").to_string())
        .unwrap_or_default()
}

/// Reads and checks a fetch; any amount Tally cannot read fails the whole
/// sync before a row is written.
fn checked(fetched: simplefin::Fetched) -> Result<Vec<IncomingAccount>, ProviderError> {
    fetched
        .accounts
        .into_iter()
        .map(|account| {
            let digits = Currency::parse(&account.currency)
                .map(|currency| currency.digits())
                .unwrap_or(2);
            let money = |raw: &str| {
                signed_minor(raw, digits).map_err(|error| {
                    tracing::warn!(%error, "the bank provider sent an amount Tally cannot read");
                    ProviderError::Malformed
                })
            };
            let balance_minor = Some(money(&account.balance)?);
            let available_minor = account
                .available_balance
                .as_deref()
                .map(money)
                .transpose()?;
            let mut posted = Vec::new();
            let mut identities = Vec::new();
            let mut pending = Vec::new();
            for transaction in account.transactions {
                let amount_minor = money(&transaction.amount)?;
                let made = transaction.transacted_at.and_then(rfc3339);
                if transaction.pending {
                    pending.push(Incoming {
                        stable_id: fingerprint::pending_id(&account.id, &transaction.id),
                        posted_at: made
                            .clone()
                            .or_else(|| rfc3339(transaction.posted))
                            .unwrap_or_default(),
                        transacted_at: made,
                        provider_id: transaction.id,
                        amount_minor,
                        description: transaction.description,
                        payee: transaction.payee,
                        memo: transaction.memo,
                        pending: true,
                    });
                } else {
                    let posted_at = rfc3339(transaction.posted).ok_or_else(|| {
                        tracing::warn!(
                            posted = transaction.posted,
                            "the bank provider sent a posted time Tally cannot read"
                        );
                        ProviderError::Malformed
                    })?;
                    identities.push(Identity {
                        account: account.id.clone(),
                        day: day(transaction.posted),
                        amount_minor,
                        description: transaction.description.clone(),
                    });
                    posted.push(Incoming {
                        stable_id: String::new(),
                        posted_at,
                        transacted_at: made,
                        provider_id: transaction.id,
                        amount_minor,
                        description: transaction.description,
                        payee: transaction.payee,
                        memo: transaction.memo,
                        pending: false,
                    });
                }
            }
            for (incoming, id) in posted.iter_mut().zip(fingerprint::stable_ids(&identities)) {
                incoming.stable_id = id;
            }
            posted.extend(pending);
            Ok(IncomingAccount {
                provider_id: account.id,
                name: account.name,
                currency: account.currency,
                institution: account.institution,
                balance_minor,
                available_minor,
                balance_date: account.balance_date.and_then(rfc3339),
                transactions: posted,
            })
        })
        .collect()
}

/// Syncs one connection for `reason` at `now` (epoch seconds). `progress`
/// hears of each account once it is written.
pub async fn run(
    pool: &SqlitePool,
    keyring: &Arc<Keyring>,
    provider: &Provider,
    connection_id: i64,
    reason: SyncReason,
    now: i64,
    mut progress: impl FnMut(usize, usize, &AccountSynced),
) -> Result<SyncReport, BankError> {
    let (user_id, sealed, status) = sealed_access(pool, connection_id).await?;
    if status == "disconnected" {
        return Err(BankError::Disconnected);
    }
    let window = SyncWindow::at(now, reason);
    let fetched = async {
        let opened = keyring.open(BANK_ACCESS_SECRET, &sealed)?;
        let raw = secrecy::ExposeSecret::expose_secret(&opened);
        let fetched = if raw == super::demo::ACCESS {
            super::demo::fetch(now, window)
        } else {
            let access = AccessUrl::parse(raw, provider.allows_http())?;
            provider.accounts(&access, window).await?
        };
        let messages = fetched.messages.clone();
        Ok::<_, BankError>((checked(fetched)?, messages))
    }
    .await;
    let (accounts, messages) = match fetched {
        Ok(found) => found,
        Err(error) => {
            record_failure(pool, connection_id, &error).await;
            return Err(error);
        }
    };

    let mut report = SyncReport {
        connection_id,
        window: Some((window.start, window.end)),
        accounts: Vec::new(),
        messages,
        matched: 0,
    };
    let total = accounts.len();
    let institution = accounts
        .iter()
        .map(|account| account.institution.clone())
        .find(|name| !name.is_empty());
    for (index, account) in accounts.into_iter().enumerate() {
        let synced = write_account(pool, user_id, connection_id, account).await?;
        progress(index + 1, total, &synced);
        report.accounts.push(synced);
    }
    stored::mark_synced(pool, connection_id, institution).await?;
    // Matching is part of the sync, so a manual and an automatic sync end
    // the same; a failure here leaves the synced data in place.
    report.matched = match super::matching::auto_match(pool, user_id).await {
        Ok(matched) => matched,
        Err(error) => {
            tracing::error!(%error, connection = connection_id, "automatic matching failed");
            0
        }
    };
    if let Err(error) = super::autopay::check(pool, user_id).await {
        tracing::error!(%error, connection = connection_id, "autopay check failed");
    }
    Ok(report)
}

/// Notes a failed sync on the connection; the data stays as it was.
async fn record_failure(pool: &SqlitePool, connection_id: i64, error: &BankError) {
    let error = error.to_string();
    let recorded = stored::record_failure(pool, connection_id, &error).await;
    if let Err(problem) = recorded {
        tracing::error!(%problem, connection = connection_id, "recording a sync failure");
    }
}

/// A connection's owner, its sealed access URL and its status.
async fn sealed_access(
    pool: &SqlitePool,
    connection_id: i64,
) -> Result<(i64, String, String), BankError> {
    stored::sealed_access(pool, connection_id)
        .await?
        .ok_or_else(|| BankError::NotFound(format!("no bank connection {connection_id}")))
}

/// Reads a connection's accounts and balances (no transactions) and
/// stores them: what a new connection answers with before its seed sync.
pub async fn balances(
    pool: &SqlitePool,
    keyring: &Arc<Keyring>,
    provider: &Provider,
    connection_id: i64,
    now: i64,
) -> Result<(), BankError> {
    let (user_id, sealed, _) = sealed_access(pool, connection_id).await?;
    let opened = keyring.open(BANK_ACCESS_SECRET, &sealed)?;
    let raw = secrecy::ExposeSecret::expose_secret(&opened);
    let mut fetched = if raw == super::demo::ACCESS {
        super::demo::fetch(
            now,
            SyncWindow {
                start: now,
                end: now,
            },
        )
    } else {
        let access = AccessUrl::parse(raw, provider.allows_http())?;
        provider.balances(&access, now).await?
    };
    for account in &mut fetched.accounts {
        account.transactions.clear();
    }
    let accounts = checked(fetched)?;
    let institution = accounts
        .iter()
        .map(|account| account.institution.clone())
        .find(|name| !name.is_empty());
    let mut tx = crate::backend::db::write(pool).await?;
    for account in &accounts {
        stored::upsert_account(&mut tx, user_id, connection_id, account).await?;
    }
    stored::set_institution(&mut tx, connection_id, institution.as_deref()).await?;
    tx.commit().await?;
    Ok(())
}

/// A write transaction of a sync that commits and starts again once it has
/// run `BATCH_ROWS` statements or `BATCH_TIME`.
struct Batch<'p> {
    pool: &'p SqlitePool,
    tx: sqlx::Transaction<'static, sqlx::Sqlite>,
    statements: usize,
    opened: Instant,
}

impl<'p> Batch<'p> {
    async fn open(pool: &'p SqlitePool) -> Result<Self, sqlx::Error> {
        Ok(Self {
            pool,
            tx: crate::backend::db::write(pool).await?,
            statements: 0,
            opened: Instant::now(),
        })
    }

    /// Counts a statement; commits and opens the next batch when due (the
    /// lock is free in between, for whoever waits on it).
    async fn wrote(mut self) -> Result<Self, sqlx::Error> {
        self.statements += 1;
        if self.statements < BATCH_ROWS && self.opened.elapsed() < BATCH_TIME {
            return Ok(self);
        }
        let pool = self.pool;
        self.tx.commit().await?;
        Self::open(pool).await
    }

    async fn commit(self) -> Result<(), sqlx::Error> {
        self.tx.commit().await
    }
}

/// Upserts one account and its transactions, in batches.
async fn write_account(
    pool: &SqlitePool,
    user_id: i64,
    connection_id: i64,
    account: IncomingAccount,
) -> Result<AccountSynced, BankError> {
    let mut batch = Batch::open(pool).await?;
    let (account_id, monitored) =
        stored::upsert_account(&mut batch.tx, user_id, connection_id, &account).await?;
    let mut synced = AccountSynced {
        account_id,
        name: account.name,
        monitored,
        ..AccountSynced::default()
    };
    if !monitored {
        batch.commit().await?;
        return Ok(synced);
    }
    // Pending transactions are whatever the provider lists as pending now:
    // one that posted is gone from that list and arrives as posted.
    stored::clear_pending(&mut batch.tx, account_id).await?;
    batch.commit().await?;
    // What the account holds already, read once and outside the write lock
    // (tens of thousands of rows take a while): a sync is then one
    // statement per new or changed transaction and none for the rest (the
    // seed and every later sync of tens of thousands stay near a plain
    // insert loop). A row another sync of the same connection writes in
    // between is met by `ON CONFLICT DO NOTHING`.
    let mut known_rows: HashMap<String, Stored> = stored::posted(pool, account_id)
        .await?
        .into_iter()
        .map(|row| (row.provider_transaction_id.clone(), row))
        .collect();
    let mut batch = Batch::open(pool).await?;
    for incoming in account.transactions {
        if incoming.pending {
            stored::insert(&mut batch.tx, user_id, account_id, &incoming).await?;
            batch = batch.wrote().await?;
            synced.pending += 1;
            continue;
        }
        if let Some(known) = known_rows.get(&incoming.stable_id) {
            if !known.same_as(&incoming) {
                stored::refresh(&mut batch.tx, account_id, &incoming).await?;
                batch = batch.wrote().await?;
            }
            synced.seen += 1;
            continue;
        }
        // Stored before stable ids by fingerprint (v0.93's
        // `<account>:<provider id>`): adopt it under its stable id.
        let legacy = format!("{}:{}", account.provider_id, incoming.provider_id);
        if let Some(mut adopted) = known_rows.remove(&legacy) {
            stored::adopt(&mut batch.tx, account_id, &legacy, &incoming).await?;
            batch = batch.wrote().await?;
            adopted.provider_id = Some(incoming.provider_id.clone());
            known_rows.insert(incoming.stable_id.clone(), adopted);
            synced.seen += 1;
            continue;
        }
        stored::insert(&mut batch.tx, user_id, account_id, &incoming).await?;
        batch = batch.wrote().await?;
        known_rows.insert(incoming.stable_id.clone(), Stored::of(&incoming));
        synced.added += 1;
    }
    batch.commit().await?;
    Ok(synced)
}

impl Stored {
    fn of(incoming: &Incoming) -> Self {
        Self {
            provider_transaction_id: incoming.stable_id.clone(),
            provider_id: Some(incoming.provider_id.clone()),
            payee: incoming.payee.clone(),
            memo: incoming.memo.clone(),
            edited: false,
        }
    }

    /// Whether storing `incoming` again would change nothing.
    fn same_as(&self, incoming: &Incoming) -> bool {
        self.provider_id.as_deref() == Some(incoming.provider_id.as_str())
            && (self.edited || (self.payee == incoming.payee && self.memo == incoming.memo))
    }
}
