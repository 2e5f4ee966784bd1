//! Secrets at rest. Every secret column is sealed with XChaCha20-Poly1305
//! under one of two keys: the database key (a file in `DATA_DIR`, made on
//! first start; values prefixed `e1:`) or `TOKEN_ENCRYPTION_KEY` (values
//! prefixed `e2:`). When the environment key is set, start-up moves every
//! `e1:` value to it in one transaction.

mod cipher;
mod columns;
mod jobs;
mod keyring;
mod reencrypt;
mod store;

pub use cipher::{CipherError, Key, KeyFormatError};
pub use columns::*;
pub use jobs::ReencryptSecrets;
pub use keyring::{KeySource, Keyring, KeyringError, DATABASE_KEY_FILE};
pub use reencrypt::{prepare, SecretsError};
