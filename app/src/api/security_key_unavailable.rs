//! Outside the browser there is no security key to ask.

use serde_json::Value;

use super::ApiFailure;

pub async fn create(_options: &Value) -> Result<Value, ApiFailure> {
    Err(ApiFailure::Unavailable)
}

pub async fn get(_options: &Value) -> Result<Value, ApiFailure> {
    Err(ApiFailure::Unavailable)
}
