//! The jobs behind each operation kind.

pub mod backup;
pub mod bank_sync;
pub mod notifications_run;
pub mod reencrypt_secrets;
pub mod restore;
pub mod restore_check;
pub mod sleep;
pub mod statements;
