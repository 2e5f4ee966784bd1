//! Outside the browser there is no security key to ask.

use super::ApiFailure;
use crate::contract::security_keys::WebAuthnJson;

pub async fn create(_options: &WebAuthnJson) -> Result<WebAuthnJson, ApiFailure> {
    Err(ApiFailure::Unavailable)
}

pub async fn get(_options: &WebAuthnJson) -> Result<WebAuthnJson, ApiFailure> {
    Err(ApiFailure::Unavailable)
}
