//! Outside the browser there is nothing to call from.

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::ApiFailure;

pub async fn get_json<T: DeserializeOwned>(_path: &str) -> Result<T, ApiFailure> {
    Err(ApiFailure::Unavailable)
}

pub async fn send_json<B: Serialize, T: DeserializeOwned>(
    _method: &str,
    _path: &str,
    _body: &B,
) -> Result<Option<T>, ApiFailure> {
    Err(ApiFailure::Unavailable)
}
