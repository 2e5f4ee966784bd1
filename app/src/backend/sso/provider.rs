//! The provider as Tally knows it: its discovery document and keys,
//! fetched when first needed and kept. A provider down at start-up does not
//! stop Tally: discovery is tried again at the next sign-in. An ID token
//! signed with a key Tally has not seen makes it fetch the keys again, at
//! most once every 30 seconds.

use std::time::{Duration, Instant};

use openidconnect::core::CoreJsonWebKeySet;
use openidconnect::{IssuerUrl, ProviderMetadataWithLogout};
use tokio::sync::Mutex;

use super::error::SsoError;
use super::http::ProviderHttp;

/// The discovery document, with the end-session endpoint when the provider
/// offers RP-initiated logout.
pub type Metadata = ProviderMetadataWithLogout;

/// The shortest time between two fetches of the provider's keys.
pub const KEYS_REFETCH: Duration = Duration::from_secs(30);

struct Known {
    metadata: Metadata,
    keys_fetched: Instant,
}

pub struct Provider {
    issuer: IssuerUrl,
    http: ProviderHttp,
    known: Mutex<Option<Known>>,
}

impl Provider {
    pub fn new(issuer: IssuerUrl, http: ProviderHttp) -> Self {
        Self {
            issuer,
            http,
            known: Mutex::new(None),
        }
    }

    pub fn issuer(&self) -> &IssuerUrl {
        &self.issuer
    }

    pub fn http(&self) -> &ProviderHttp {
        &self.http
    }

    /// The discovery document with its keys, discovered now if not yet.
    pub async fn metadata(&self) -> Result<Metadata, SsoError> {
        let mut known = self.known.lock().await;
        if let Some(known) = known.as_ref() {
            return Ok(known.metadata.clone());
        }
        let metadata = self.discover().await?;
        *known = Some(Known {
            metadata: metadata.clone(),
            keys_fetched: Instant::now(),
        });
        Ok(metadata)
    }

    /// Discovery from scratch, without keeping it (Admin's test).
    pub async fn discover(&self) -> Result<Metadata, SsoError> {
        let http = self.http.client();
        Metadata::discover_async(self.issuer.clone(), &http)
            .await
            .map_err(|error| SsoError::Unavailable(describe(&error)))
    }

    /// The metadata with freshly fetched keys, when the last fetch is older
    /// than [`KEYS_REFETCH`]; `None` when it is not.
    pub async fn refetch_keys(&self) -> Result<Option<Metadata>, SsoError> {
        let mut known = self.known.lock().await;
        let Some(current) = known.as_mut() else {
            return Ok(None);
        };
        if current.keys_fetched.elapsed() < KEYS_REFETCH {
            return Ok(None);
        }
        let http = self.http.client();
        let keys = CoreJsonWebKeySet::fetch_async(current.metadata.jwks_uri(), &http)
            .await
            .map_err(|error| SsoError::Unavailable(describe(&error)))?;
        current.metadata = current.metadata.clone().set_jwks(keys);
        current.keys_fetched = Instant::now();
        Ok(Some(current.metadata.clone()))
    }
}

/// An error with its causes, for the log.
pub fn describe(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
