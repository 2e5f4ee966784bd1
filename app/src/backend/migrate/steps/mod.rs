//! The Rust data steps of migrations. Each runs inside its migration's
//! transaction and must be deterministic: running the upgrade on a copy of
//! the same database gives the same result.

pub mod bill_catalog_backfill;
pub mod catalog_seed;
pub mod stable_transaction_ids;
