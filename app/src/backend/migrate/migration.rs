use std::future::Future;
use std::pin::Pin;

use sha2::{Digest, Sha256};
use sqlx::SqliteConnection;

use super::Version;

/// The future a data step returns; it runs inside the migration's transaction.
pub type StepFuture<'c> = Pin<Box<dyn Future<Output = Result<(), StepError>> + Send + 'c>>;

/// A Rust data step: transforms rows the SQL alone cannot.
pub type DataStep = for<'c> fn(&'c mut SqliteConnection) -> StepFuture<'c>;

/// Why a data step failed.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error("{0}")]
    Data(String),
}

/// One versioned migration: SQL, a Rust data step, or both, applied in one
/// transaction. `rollback` is SQL that undoes it, for the few migrations that
/// can be undone without losing data a user cares about.
#[derive(Clone)]
pub struct Migration {
    pub version: Version,
    pub description: &'static str,
    /// SQL run first.
    pub sql: &'static str,
    /// The data step, with a name that enters the checksum (bump the name when
    /// the step's behaviour changes, which only a new migration may do).
    pub step: Option<(&'static str, DataStep)>,
    /// SQL run after the data step (constraints the step made hold).
    pub after_sql: &'static str,
    pub rollback: Option<&'static str>,
}

impl Migration {
    /// SHA-256 (hex) over everything that defines the migration.
    pub fn checksum(&self) -> String {
        let mut hash = Sha256::new();
        for part in [
            self.version.to_string().as_str(),
            self.description,
            self.sql,
            self.step.map(|(name, _)| name).unwrap_or_default(),
            self.after_sql,
            self.rollback.unwrap_or_default(),
        ] {
            hash.update((part.len() as u64).to_le_bytes());
            hash.update(part.as_bytes());
        }
        hash.finalize()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }
}
