use std::path::Path;

use secrecy::ExposeSecret;
use sqlx::{SqliteConnection, SqlitePool};

use super::cipher::Key;
use super::columns::{SecretColumn, SECRET_COLUMNS};
use super::keyring::{KeySource, Keyring, KeyringError};
use super::store::{self, Sealed};

/// A value sealed with the environment key whose only job is to tell, on the
/// next start, whether `TOKEN_ENCRYPTION_KEY` is still the same key.
const KEY_CHECK: SecretColumn = SecretColumn {
    table: "settings",
    column: "token_key_check",
};
const KEY_CHECK_TEXT: &str = "tally token key check";

#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    #[error(transparent)]
    Keyring(#[from] KeyringError),
    #[error(
        "TOKEN_ENCRYPTION_KEY is not the key the stored secrets were encrypted with \
         (it does not open them); nothing was changed. Set the original key."
    )]
    WrongEnvironmentKey,
    #[error(
        "stored secrets are encrypted with TOKEN_ENCRYPTION_KEY, but it is not set; \
         set it to the key used before. Nothing was changed."
    )]
    MissingEnvironmentKey,
    #[error("re-encrypting secrets failed and changed nothing: {0}")]
    Database(#[from] sqlx::Error),
}

/// Loads the keys and brings the stored secrets in line with them: with
/// `TOKEN_ENCRYPTION_KEY` set, every value still under the database key is
/// re-encrypted with it, all in one transaction (values already `e2:` are
/// skipped, so a second start changes nothing). Returns the keyring and the
/// number of values re-encrypted.
pub async fn prepare(
    pool: &SqlitePool,
    data_dir: &Path,
    environment: Option<Key>,
) -> Result<(Keyring, usize), SecretsError> {
    let keyring = Keyring::load(data_dir, environment)?;
    let mut conn = pool.acquire().await?;
    sqlx::raw_sql("BEGIN IMMEDIATE").execute(&mut *conn).await?;
    match reencrypt(&mut conn, &keyring).await {
        Ok(changed) => {
            sqlx::raw_sql("COMMIT").execute(&mut *conn).await?;
            if changed > 0 {
                tracing::info!(changed, "re-encrypted secrets with TOKEN_ENCRYPTION_KEY");
            }
            Ok((keyring, changed))
        }
        Err(error) => {
            if let Err(rollback) = sqlx::raw_sql("ROLLBACK").execute(&mut *conn).await {
                tracing::warn!(%rollback, "rollback after failed re-encryption reported an error");
            }
            Err(error)
        }
    }
}

async fn reencrypt(conn: &mut SqliteConnection, keyring: &Keyring) -> Result<usize, SecretsError> {
    verify_environment_key(conn, keyring).await?;
    if keyring.source() != KeySource::EnvironmentKey {
        return Ok(0);
    }
    let mut changed = 0;
    for column in SECRET_COLUMNS {
        let rows = store::values(&mut *conn, *column, Sealed::NotWithEnvironmentKey).await?;
        for (rowid, stored) in rows {
            let plain = keyring.open(*column, &stored)?;
            let sealed = keyring.seal(*column, plain.expose_secret())?;
            store::reseal(&mut *conn, *column, rowid, &sealed).await?;
            changed += 1;
        }
    }
    let check = keyring.seal(KEY_CHECK, KEY_CHECK_TEXT)?;
    store::insert_key_check(&mut *conn, &check).await?;
    Ok(changed)
}

/// Refuses a wrong or missing environment key before anything is changed.
async fn verify_environment_key(
    conn: &mut SqliteConnection,
    keyring: &Keyring,
) -> Result<(), SecretsError> {
    let check = store::key_check(&mut *conn).await?;
    let mut sealed_with_environment = check.map(|value| (KEY_CHECK, value));
    if sealed_with_environment.is_none() {
        for column in SECRET_COLUMNS {
            if let Some(value) = store::one_with_environment_key(&mut *conn, *column).await? {
                sealed_with_environment = Some((*column, value));
                break;
            }
        }
    }
    let Some((column, value)) = sealed_with_environment else {
        return Ok(());
    };
    if keyring.source() != KeySource::EnvironmentKey {
        return Err(SecretsError::MissingEnvironmentKey);
    }
    debug_assert!(Keyring::is_environment_sealed(&value));
    keyring
        .open(column, &value)
        .map(|_| ())
        .map_err(|_| SecretsError::WrongEnvironmentKey)
}
