//! Bank sync through a SimpleFIN-protocol provider: connecting (claiming a
//! setup token once and sealing the access URL), syncing a window of
//! transactions into the database (stable ids, pending replaced, a failure
//! changing nothing), and reading it all back. The syncs run as operations
//! (`jobs`); the routes and server functions call
//! `connections`, `store` and `transactions`.

pub mod autopay;
pub mod connections;
pub mod demo;
pub mod jobs;
pub mod matching;
pub mod review;
pub mod service;
pub mod simplefin;
pub mod store;
pub mod suggestions;
pub mod sync;
pub mod sync_limit;
pub mod transactions;
pub mod worker;

use std::time::Duration;

use crate::backend::secrets::KeyringError;
use simplefin::ProviderError;

/// The bank-sync section of the settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankSettings {
    /// Whether bank sync starts enabled (`BANK_SYNC_ENABLED`); an
    /// administrator's choice in Admin overrides it once made.
    pub enabled: bool,
    /// Accept `http://` provider URLs (`SIMPLEFIN_ALLOW_HTTP`), for local
    /// fakes and tests only.
    pub allow_http: bool,
    /// Each provider call's timeout (`SIMPLEFIN_TIMEOUT_SECONDS`, 30 s).
    pub timeout: Duration,
    /// Offer the built-in demo bank (`BANK_SYNC_DEMO`).
    pub demo: bool,
    /// How long one user's syncs may take in one automatic pass
    /// (`BANK_SYNC_USER_BUDGET_SECONDS`, 120 s); the rest wait for the next.
    pub user_budget: Duration,
}

impl Default for BankSettings {
    fn default() -> Self {
        Self {
            enabled: false,
            allow_http: false,
            timeout: simplefin::TIMEOUT,
            demo: false,
            user_budget: worker::USER_BUDGET,
        }
    }
}

/// Why a bank request failed.
#[derive(Debug, thiserror::Error)]
pub enum BankError {
    #[error("bank sync is turned off; an administrator can turn it on in Admin → Bank Sync")]
    Disabled,
    #[error("{0}")]
    NotFound(String),
    #[error("this connection is disconnected; reconnect it with a new setup token first")]
    Disconnected,
    #[error(transparent)]
    Provider(#[from] ProviderError),
    #[error("the stored access could not be opened: {0}")]
    Secret(#[from] KeyringError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error("the bank work stopped unexpectedly: {0}")]
    Interrupted(String),
    #[error("you have {0} bank connections, the most one account may have; disconnect one before connecting another")]
    TooManyConnections(i64),
    /// Too many requests that start syncs; try again after `retry_after`.
    #[error("too many sync requests; try again in {} seconds", .retry_after.as_secs().max(1))]
    TooManySyncs { retry_after: std::time::Duration },
    /// One field of the request at fault (named as the API names it).
    #[error("{}: {}", .0.field, .0.description)]
    Field(crate::domain::validation::FieldViolation),
    #[error("{0}")]
    Internal(String),
    #[error(transparent)]
    Operations(#[from] crate::backend::operations::OperationsError),
    #[error(transparent)]
    Bill(#[from] crate::backend::bills::BillError),
}

impl BankError {
    /// `field` (as the API names it) at fault, and what to do about it.
    pub fn field(field: &str, description: impl std::fmt::Display) -> Self {
        Self::Field(crate::domain::validation::FieldViolation::new(
            field,
            description,
        ))
    }
}
