//! Hardware security keys (WebAuthn/FIDO2, spec v0.92) as a second factor,
//! with `webauthn-rs`. A user registers one or more named keys; while they
//! have any, sign-in asks for one after the password. Each ceremony's state
//! waits in `webauthn_challenges` (expiring, used once) between its two
//! requests; the keys (public key and counter) live in
//! `webauthn_credentials.passkey`.

use serde::Serialize;
use serde_json::Value;
use sqlx::SqlitePool;
use webauthn_rs::prelude::{
    CredentialID, PublicKeyCredential, RegisterPublicKeyCredential, SecurityKey,
    SecurityKeyAuthentication, SecurityKeyRegistration, Url, Uuid, Webauthn, WebauthnBuilder,
};

use super::store::security_keys as store;
use super::token::{random_token, sha256_hex};
use super::users::User;
use super::{pending_sign_in, AuthError};
use crate::domain::text::{plain_text_problem, Lines};

/// How long a ceremony may take (the browser's own timeout is the same).
const CHALLENGE_MINUTES: i64 = 5;

pub use store::KeyInfo;

/// Why the relying party could not be set up.
#[derive(Debug, thiserror::Error)]
#[error("WEBAUTHN_RP_ID {rp_id:?} does not fit WEBAUTHN_ORIGIN {origin}: the origin's host must be the RP id or a subdomain of it")]
pub struct RelyingPartyError {
    pub rp_id: String,
    pub origin: String,
}

/// The relying party: Tally's WebAuthn identity.
#[derive(Clone)]
pub struct SecurityKeys {
    webauthn: Webauthn,
}

impl SecurityKeys {
    /// `any_port` lets one origin host answer on every port (development on
    /// `localhost`).
    pub fn new(rp_id: &str, origin: &str, any_port: bool) -> Result<Self, RelyingPartyError> {
        let error = || RelyingPartyError {
            rp_id: rp_id.to_owned(),
            origin: origin.to_owned(),
        };
        let origin = Url::parse(origin).map_err(|_| error())?;
        let webauthn = WebauthnBuilder::new(rp_id, &origin)
            .map_err(|_| error())?
            .rp_name("Tally")
            .allow_any_port(any_port)
            .build()
            .map_err(|_| error())?;
        Ok(Self { webauthn })
    }

    /// Starts registering a new key: the options for
    /// `navigator.credentials.create` and the id of the waiting state.
    pub async fn begin_registration(
        &self,
        pool: &SqlitePool,
        user: &User,
    ) -> Result<(String, Value), AuthError> {
        let handle = webauthn_user_id(pool, user.id).await?;
        let existing: Vec<CredentialID> = keys_of(pool, user.id)
            .await?
            .into_iter()
            .map(|(_, key)| key.cred_id().clone())
            .collect();
        let display = if user.name.is_empty() {
            &user.email
        } else {
            &user.name
        };
        let (options, state) = self
            .webauthn
            .start_securitykey_registration(
                handle,
                &user.email,
                display,
                Some(existing),
                None,
                None,
            )
            .map_err(|error| AuthError::field("securityKey", error))?;
        let id = random_token();
        store_state(pool, &sha256_hex(&id), user.id, "register", &state).await?;
        Ok((id, to_json(&options)?))
    }

    /// Finishes registration with the browser's answer; names the key.
    pub async fn finish_registration(
        &self,
        pool: &SqlitePool,
        user: &User,
        ceremony: &str,
        name: &str,
        credential: Value,
    ) -> Result<KeyInfo, AuthError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 100 {
            return Err(AuthError::field(
                "name",
                "give the key a name of 1 to 100 characters",
            ));
        }
        if let Some(problem) = plain_text_problem(name, Lines::One) {
            return Err(AuthError::field("name", problem));
        }
        let state: SecurityKeyRegistration =
            take_state(pool, &sha256_hex(ceremony), user.id, "register").await?;
        let credential: RegisterPublicKeyCredential = serde_json::from_value(credential)
            .map_err(|error| AuthError::field("credential", error))?;
        let key = self
            .webauthn
            .finish_securitykey_registration(&credential, &state)
            .map_err(|error| {
                AuthError::field(
                    "credential",
                    format!("the key's answer was refused ({error})"),
                )
            })?;
        let stored = serde_json::to_string(&key).map_err(|e| AuthError::Sealing(e.to_string()))?;
        let credential_id = credential_id_text(key.cred_id());
        store::insert(pool, user.id, &credential_id, name, &stored)
            .await
            .map_err(|error| match error {
                store::InsertError::AlreadyRegistered => AuthError::field("credential", error),
                store::InsertError::Database(error) => AuthError::Database(error),
            })
    }

    /// After a correct password: the options for `navigator.credentials.get`
    /// for the pending sign-in `challenge`, or `None` when the challenge is
    /// not live, did not offer a key, or its user has no keys.
    pub async fn begin_sign_in(
        &self,
        pool: &SqlitePool,
        challenge: &str,
    ) -> Result<Option<Value>, AuthError> {
        let Some(user_id) = offered_to(pool, challenge).await? else {
            return Ok(None);
        };
        let keys: Vec<SecurityKey> = keys_of(pool, user_id)
            .await?
            .into_iter()
            .map(|(_, key)| key)
            .collect();
        if keys.is_empty() {
            return Ok(None);
        }
        let (options, state) = self
            .webauthn
            .start_securitykey_authentication(&keys)
            .map_err(|error| AuthError::field("securityKey", error))?;
        store_state(
            pool,
            &sign_in_state_id(challenge),
            user_id,
            "authenticate",
            &state,
        )
        .await?;
        Ok(Some(to_json(&options)?))
    }

    /// Checks the key's answer for the pending sign-in; on success spends
    /// the challenge, saves the key's new counter and returns the user id.
    pub async fn finish_sign_in(
        &self,
        pool: &SqlitePool,
        challenge: &str,
        credential: Value,
    ) -> Result<Option<i64>, AuthError> {
        let Some(user_id) = offered_to(pool, challenge).await? else {
            return Ok(None);
        };
        let Ok(state) = take_state::<SecurityKeyAuthentication>(
            pool,
            &sign_in_state_id(challenge),
            user_id,
            "authenticate",
        )
        .await
        else {
            return Ok(None);
        };
        let Ok(credential) = serde_json::from_value::<PublicKeyCredential>(credential) else {
            return Ok(None);
        };
        let Ok(result) = self
            .webauthn
            .finish_securitykey_authentication(&credential, &state)
        else {
            return Ok(None);
        };
        for (id, mut key) in keys_of(pool, user_id).await? {
            if key.cred_id() != result.cred_id() {
                continue;
            }
            key.update_credential(&result);
            let stored =
                serde_json::to_string(&key).map_err(|e| AuthError::Sealing(e.to_string()))?;
            store::update_used(pool, id, &stored).await?;
        }
        pending_sign_in::spend(pool, challenge).await?;
        Ok(Some(user_id))
    }
}

/// Whether the user has a key (sign-in then asks for one).
pub async fn is_enabled(pool: &SqlitePool, user_id: i64) -> Result<bool, AuthError> {
    Ok(store::is_enabled(pool, user_id).await?)
}

pub async fn list(pool: &SqlitePool, user_id: i64) -> Result<Vec<KeyInfo>, AuthError> {
    Ok(store::list(pool, user_id).await?)
}

/// Removes one of the user's keys; with the last one gone, sign-in no
/// longer asks for a key. False when the user has no such key.
pub async fn remove(pool: &SqlitePool, user_id: i64, id: i64) -> Result<bool, AuthError> {
    Ok(store::delete(pool, user_id, id).await?)
}

/// The user of a live pending sign-in that offered a security key.
async fn offered_to(pool: &SqlitePool, challenge: &str) -> Result<Option<i64>, AuthError> {
    pending_sign_in::user_offered(
        pool,
        challenge,
        pending_sign_in::SecondFactorMethod::SecurityKey,
    )
    .await
}

/// Whether `user_id` has the key `id` (so asking for their password to
/// remove it makes sense).
pub async fn owns(pool: &SqlitePool, user_id: i64, id: i64) -> Result<bool, AuthError> {
    Ok(store::owns(pool, user_id, id).await?)
}

fn sign_in_state_id(challenge: &str) -> String {
    sha256_hex(&format!("sign-in:{challenge}"))
}

fn credential_id_text(id: &CredentialID) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(id.as_slice())
}

fn to_json(value: &impl Serialize) -> Result<Value, AuthError> {
    serde_json::to_value(value).map_err(|error| AuthError::Sealing(error.to_string()))
}

/// The user's WebAuthn handle (a random UUID, not their row id), made on
/// first use.
async fn webauthn_user_id(pool: &SqlitePool, user_id: i64) -> Result<Uuid, AuthError> {
    let existing = store::handle(pool, user_id).await?;
    if let Some(id) = existing.and_then(|text| Uuid::parse_str(&text).ok()) {
        return Ok(id);
    }
    let id = Uuid::new_v4();
    store::set_handle(pool, user_id, &id.to_string()).await?;
    Ok(id)
}

async fn keys_of(pool: &SqlitePool, user_id: i64) -> Result<Vec<(i64, SecurityKey)>, AuthError> {
    Ok(store::keys(pool, user_id)
        .await?
        .into_iter()
        .filter_map(|(id, stored)| {
            serde_json::from_str(&stored)
                .map_err(|error| tracing::warn!(key = id, %error, "unreadable security key"))
                .ok()
                .map(|key| (id, key))
        })
        .collect())
}

async fn store_state(
    pool: &SqlitePool,
    id: &str,
    user_id: i64,
    purpose: &str,
    state: &impl Serialize,
) -> Result<(), AuthError> {
    let state = serde_json::to_string(state).map_err(|e| AuthError::Sealing(e.to_string()))?;
    let lifetime = format!("+{CHALLENGE_MINUTES} minutes");
    Ok(store::put_state(pool, id, user_id, purpose, &state, &lifetime).await?)
}

/// Takes (and deletes) a live state: each ceremony is answered once.
async fn take_state<T: serde::de::DeserializeOwned>(
    pool: &SqlitePool,
    id: &str,
    user_id: i64,
    purpose: &str,
) -> Result<T, AuthError> {
    store::take_state(pool, id, user_id, purpose)
        .await?
        .and_then(|text| serde_json::from_str(&text).ok())
        .ok_or_else(|| {
            AuthError::field(
                "ceremony",
                "this security-key request expired or was already answered; start again",
            )
        })
}
