//! The browser side of a security-key ceremony: hands the server's options
//! to `public/webauthn.js` (`window.tallyWebauthn`), which talks to the key
//! through `navigator.credentials`, and returns the key's answer as JSON.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::ApiFailure;
use crate::contract::security_keys::WebAuthnJson;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = tallyWebauthn, js_name = register)]
    fn register_with_key(options: &str) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = tallyWebauthn, js_name = authenticate)]
    fn authenticate_with_key(options: &str) -> Result<js_sys::Promise, JsValue>;
}

/// Asks the key to make a credential for `options` (`{"publicKey": …}`).
pub async fn create(options: &WebAuthnJson) -> Result<WebAuthnJson, ApiFailure> {
    loaded().await?;
    run(register_with_key(&options.0.to_string())).await
}

/// Asks the key to sign the challenge in `options`.
pub async fn get(options: &WebAuthnJson) -> Result<WebAuthnJson, ApiFailure> {
    loaded().await?;
    run(authenticate_with_key(&options.0.to_string())).await
}

async fn loaded() -> Result<(), ApiFailure> {
    super::browser_script::ensure("/webauthn.js", "tallyWebauthn")
        .await
        .map_err(|_| {
            ApiFailure::Key("the security key helper could not be loaded; reload the page".into())
        })
}

async fn run(started: Result<js_sys::Promise, JsValue>) -> Result<WebAuthnJson, ApiFailure> {
    let answer = JsFuture::from(started.map_err(refused)?)
        .await
        .map_err(refused)?;
    let text = answer.as_string().unwrap_or_default();
    serde_json::from_str(&text)
        .map(WebAuthnJson)
        .map_err(|error| ApiFailure::Key(error.to_string()))
}

/// A refusal from the browser or the key, in words: cancelling, timing out
/// and an already-registered key all arrive as DOMExceptions.
fn refused(error: JsValue) -> ApiFailure {
    let name = js_sys::Reflect::get(&error, &JsValue::from_str("name"))
        .ok()
        .and_then(|name| name.as_string())
        .unwrap_or_default();
    ApiFailure::Key(match name.as_str() {
        "NotAllowedError" => "the security key request was cancelled or timed out".to_owned(),
        "InvalidStateError" => "this security key is already registered".to_owned(),
        "SecurityError" => {
            "security keys work only at the address Tally is configured for (WEBAUTHN_ORIGIN)"
                .to_owned()
        }
        _ => format!("the browser could not use a security key ({name})"),
    })
}
