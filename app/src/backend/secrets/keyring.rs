use std::io::Write;
use std::path::{Path, PathBuf};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use secrecy::SecretString;

use super::cipher::{CipherError, Key};
use super::columns::SecretColumn;

/// The database key's file in `DATA_DIR` (mode 600). Back it up with the
/// database: without it, `e1:` secrets cannot be read.
pub const DATABASE_KEY_FILE: &str = "db-encryption.key";

const DATABASE_PREFIX: &str = "e1:";
const ENVIRONMENT_PREFIX: &str = "e2:";

/// Which key seals new secrets (Admin shows it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum KeySource {
    /// The key file generated in `DATA_DIR`.
    DatabaseKey,
    /// `TOKEN_ENCRYPTION_KEY` from the environment.
    EnvironmentKey,
}

#[derive(Debug, thiserror::Error)]
pub enum KeyringError {
    #[error("cannot read or create the database key {path}: {source}")]
    KeyFile {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the database key file {0} is damaged (expected 32 bytes as base64)")]
    KeyFileFormat(PathBuf),
    #[error("{context}: {source}")]
    Cipher {
        context: String,
        #[source]
        source: CipherError,
    },
    #[error("{context} holds a value sealed with TOKEN_ENCRYPTION_KEY, which is not set")]
    NoEnvironmentKey { context: String },
    #[error("{context} holds a value in no known format")]
    UnknownFormat { context: String },
}

/// The keys that seal and open secrets. Not `Debug`, not `Serialize`.
pub struct Keyring {
    database: Key,
    environment: Option<Key>,
}

impl Keyring {
    /// Reads the database key from `data_dir`, creating it (mode 600) on
    /// first start.
    pub fn load(data_dir: &Path, environment: Option<Key>) -> Result<Self, KeyringError> {
        let path = data_dir.join(DATABASE_KEY_FILE);
        let io_error = |source| KeyringError::KeyFile {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(data_dir).map_err(io_error)?;
        let database = match std::fs::read_to_string(&path) {
            Ok(text) => Key::parse(&text).map_err(|_| KeyringError::KeyFileFormat(path.clone()))?,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                let key = Key::generate();
                write_private(&path, &key.to_base64()).map_err(io_error)?;
                tracing::info!(path = %path.display(), "generated the database key");
                key
            }
            Err(error) => return Err(io_error(error)),
        };
        Ok(Self {
            database,
            environment,
        })
    }

    pub fn source(&self) -> KeySource {
        if self.environment.is_some() {
            KeySource::EnvironmentKey
        } else {
            KeySource::DatabaseKey
        }
    }

    /// Seals `plaintext` for `column` under the active key.
    pub fn seal(&self, column: SecretColumn, plaintext: &str) -> Result<String, KeyringError> {
        let context = column.context();
        let (key, prefix) = match &self.environment {
            Some(key) => (key, ENVIRONMENT_PREFIX),
            None => (&self.database, DATABASE_PREFIX),
        };
        let sealed = key
            .seal(&context, plaintext.as_bytes())
            .map_err(|source| KeyringError::Cipher { context, source })?;
        Ok(format!("{prefix}{sealed}"))
    }

    /// Seals under the database key whatever the active key is (fixtures that
    /// build v0.36 databases need this).
    pub fn seal_with_database_key(
        &self,
        column: SecretColumn,
        plaintext: &str,
    ) -> Result<String, KeyringError> {
        let context = column.context();
        let sealed = self
            .database
            .seal(&context, plaintext.as_bytes())
            .map_err(|source| KeyringError::Cipher { context, source })?;
        Ok(format!("{DATABASE_PREFIX}{sealed}"))
    }

    /// Opens a stored value of `column`.
    pub fn open(&self, column: SecretColumn, stored: &str) -> Result<SecretString, KeyringError> {
        let context = column.context();
        let (key, sealed) = if let Some(sealed) = stored.strip_prefix(ENVIRONMENT_PREFIX) {
            let key = self
                .environment
                .as_ref()
                .ok_or_else(|| KeyringError::NoEnvironmentKey {
                    context: context.clone(),
                })?;
            (key, sealed)
        } else if let Some(sealed) = stored.strip_prefix(DATABASE_PREFIX) {
            (&self.database, sealed)
        } else {
            return Err(KeyringError::UnknownFormat { context });
        };
        let bytes = key
            .open(&context, sealed)
            .map_err(|source| KeyringError::Cipher {
                context: context.clone(),
                source,
            })?;
        String::from_utf8(bytes)
            .map(SecretString::from)
            .map_err(|_| KeyringError::Cipher {
                context,
                source: CipherError::Format,
            })
    }

    /// Seals a short value the server hands out and later takes back (the
    /// device cookie), bound to `context`, under the database key: it
    /// outlives a change of `TOKEN_ENCRYPTION_KEY`, and only this server
    /// can make or read one.
    pub fn seal_token(&self, context: &str, plaintext: &str) -> Option<String> {
        self.database.seal(context, plaintext.as_bytes()).ok()
    }

    /// Opens what [`Self::seal_token`] sealed for `context`; `None` for
    /// anything else.
    pub fn open_token(&self, context: &str, sealed: &str) -> Option<String> {
        let bytes = self.database.open(context, sealed).ok()?;
        String::from_utf8(bytes).ok()
    }

    /// A value only this server can compute from `message`, made for
    /// `purpose` alone (`Key::mac` under the database key, which
    /// outlives a change of `TOKEN_ENCRYPTION_KEY`), as 43 URL-safe
    /// characters: the CSRF token bound to a session.
    pub fn derive_token(&self, purpose: &str, message: &str) -> Option<String> {
        self.database
            .mac(purpose, message.as_bytes())
            .map(|mac| URL_SAFE_NO_PAD.encode(mac))
    }

    pub fn is_environment_sealed(stored: &str) -> bool {
        stored.starts_with(ENVIRONMENT_PREFIX)
    }
}

fn write_private(path: &Path, contents: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(contents.as_bytes())?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use secrecy::ExposeSecret;

    const TOTP: SecretColumn = SecretColumn {
        table: "users",
        column: "totp_secret",
    };

    #[test]
    fn the_database_key_is_made_once_with_mode_600() {
        let dir = tempfile::tempdir().unwrap();
        let first = Keyring::load(dir.path(), None).unwrap();
        let sealed = first.seal(TOTP, "secret").unwrap();
        assert!(sealed.starts_with("e1:"));
        let second = Keyring::load(dir.path(), None).unwrap();
        assert_eq!(
            second.open(TOTP, &sealed).unwrap().expose_secret(),
            "secret"
        );
        assert_eq!(second.source(), KeySource::DatabaseKey);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(DATABASE_KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn the_environment_key_seals_e2_and_both_open() {
        let dir = tempfile::tempdir().unwrap();
        let old = Keyring::load(dir.path(), None)
            .unwrap()
            .seal(TOTP, "old")
            .unwrap();
        let keyring = Keyring::load(dir.path(), Some(Key::generate())).unwrap();
        assert_eq!(keyring.source(), KeySource::EnvironmentKey);
        let new = keyring.seal(TOTP, "new").unwrap();
        assert!(new.starts_with("e2:"));
        assert_eq!(keyring.open(TOTP, &old).unwrap().expose_secret(), "old");
        assert_eq!(keyring.open(TOTP, &new).unwrap().expose_secret(), "new");

        let without = Keyring::load(dir.path(), None).unwrap();
        assert!(matches!(
            without.open(TOTP, &new),
            Err(KeyringError::NoEnvironmentKey { .. })
        ));
        assert!(matches!(
            without.open(TOTP, "plain"),
            Err(KeyringError::UnknownFormat { .. })
        ));
    }
}
