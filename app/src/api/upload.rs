//! A chosen file sent as the body of a `POST`, its JSON answer read.

use serde::de::DeserializeOwned;

use super::ApiFailure;

/// Sends the first chosen file of `input` to `url`; the answer as `T` when
/// its status is `ok`, the API's failure otherwise, `None` when no file is
/// chosen.
pub async fn upload_answer<T: DeserializeOwned>(
    input: &leptos::web_sys::HtmlInputElement,
    url: &str,
    ok: u16,
) -> Result<Option<T>, ApiFailure> {
    let Some((status, body)) = super::files::upload_chosen(input, url)
        .await
        .map_err(ApiFailure::Network)?
    else {
        return Ok(None);
    };
    if status == ok {
        serde_json::from_str(&body)
            .map(Some)
            .map_err(|error| ApiFailure::Network(error.to_string()))
    } else {
        Err(super::failure_from(status, &body))
    }
}
