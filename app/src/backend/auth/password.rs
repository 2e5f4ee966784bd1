//! Argon2id password hashes, computed off the async runtime.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use secrecy::{ExposeSecret, SecretString};

use super::AuthError;

/// A PHC-format Argon2id hash. Deliberately neither `Debug` nor `Serialize`.
pub struct PasswordHashString(pub(crate) String);

impl PasswordHashString {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Hashes with Argon2id (the crate's OWASP-recommended defaults) on a
/// blocking thread.
pub async fn hash(password: SecretString) -> Result<PasswordHashString, AuthError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.expose_secret().as_bytes(), &salt)
            .map(|hash| PasswordHashString(hash.to_string()))
            .map_err(|error| AuthError::Hashing(error.to_string()))
    })
    .await
    .map_err(|error| AuthError::Hashing(error.to_string()))?
}

/// A hash of a password nobody has, verified against when an email is
/// unknown so that the answer takes as long as for a known one.
const DECOY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$3zxkwX5f0uTQd7Tl7Xv3rU1DkaWkq2sT2B8f1tQ8pWk";

/// Whether `password` matches `stored` (or, when there is no stored hash,
/// spends the same effort and answers false).
pub async fn verify(password: SecretString, stored: Option<String>) -> Result<bool, AuthError> {
    tokio::task::spawn_blocking(move || {
        let known = stored.is_some();
        let stored = stored.unwrap_or_else(|| DECOY.to_owned());
        let parsed =
            PasswordHash::new(&stored).map_err(|error| AuthError::Hashing(error.to_string()))?;
        let matches = Argon2::default()
            .verify_password(password.expose_secret().as_bytes(), &parsed)
            .is_ok();
        Ok(known && matches)
    })
    .await
    .map_err(|error| AuthError::Hashing(error.to_string()))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_and_differ_per_salt() {
        let first = hash(SecretString::from("correct horse battery"))
            .await
            .unwrap();
        let second = hash(SecretString::from("correct horse battery"))
            .await
            .unwrap();
        assert!(first.as_str().starts_with("$argon2id$"));
        assert_ne!(first.as_str(), second.as_str());
        assert!(verify(
            SecretString::from("correct horse battery"),
            Some(first.0.clone())
        )
        .await
        .unwrap());
        assert!(
            !verify(SecretString::from("wrong horse battery"), Some(first.0))
                .await
                .unwrap()
        );
        assert!(!verify(SecretString::from("anything at all"), None)
            .await
            .unwrap());
    }
}
