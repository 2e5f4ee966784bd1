//! `/api/auth/security-keys…` and `/api/auth/login/security-key…`.

use serde::{Deserialize, Serialize};

/// A registered key, as its owner sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct KeyInfo {
    pub id: i64,
    pub name: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
}

/// WebAuthn's own JSON (the `publicKey` options, or the key's credential),
/// passed between `navigator.credentials` and the server untouched: the
/// browser never reads inside it, and typing it here would put
/// webauthn-rs-proto into the WASM bundle for nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(transparent)]
#[cfg_attr(feature = "ssr", schema(value_type = Object))]
pub struct WebAuthnJson(pub serde_json::Value);

/// The answer to `POST /api/auth/security-keys/options`: the ceremony's id
/// and the options for `navigator.credentials.create`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RegistrationStarted {
    pub ceremony: String,
    pub options: WebAuthnJson,
}

/// `POST /api/auth/security-keys`: the key's credential, under a name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RegisterKey {
    pub ceremony: String,
    pub name: String,
    pub credential: WebAuthnJson,
}

/// `DELETE /api/auth/security-keys/{id}`: removing a key needs the password.
/// Its `Debug` never shows it.
#[derive(Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RemoveKey {
    #[serde(default)]
    pub current_password: Option<String>,
}

/// `POST /api/auth/login/security-key/options`: the sign-in's challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct KeyChallenge {
    pub challenge: String,
}

/// The options for `navigator.credentials.get`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct KeySignInOptions {
    pub options: WebAuthnJson,
}

/// `POST /api/auth/login/security-key`: the key's answer to the challenge;
/// answered like every sign-in step (`account::SignInAnswer`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct KeySignIn {
    pub challenge: String,
    pub credential: WebAuthnJson,
}

impl std::fmt::Debug for RemoveKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoveKey")
            .field(
                "current_password",
                &self.current_password.as_ref().map(|_| "[redacted]"),
            )
            .finish()
    }
}
