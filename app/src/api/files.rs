//! Sending a file the person chose in an `<input type="file">`, through
//! `public/files.js` (`window.tallyFiles`).

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = tallyFiles, js_name = upload)]
    fn upload_file(input: &JsValue, url: &str, csrf: &str) -> Result<js_sys::Promise, JsValue>;
}

/// Sends the first chosen file's bytes as the body of a `POST` to `url`
/// (its name added as `fileName`): the answer's status and text, `None`
/// when no file is chosen.
pub async fn upload_chosen(
    input: &leptos::web_sys::HtmlInputElement,
    url: &str,
) -> Result<Option<(u16, String)>, String> {
    super::browser_script::ensure("/files.js", "tallyFiles")
        .await
        .map_err(|_| "the file reader could not be loaded; reload the page".to_owned())?;
    let csrf = super::csrf_token::csrf_token()
        .await
        .map_err(|failure| failure.message())?;
    let started = upload_file(input.as_ref(), url, &csrf)
        .map_err(|_| "the file could not be sent".to_owned())?;
    let answer = JsFuture::from(started)
        .await
        .map_err(|_| "the file could not be sent; check the connection".to_owned())?;
    let Some(text) = answer.as_string() else {
        return Ok(None);
    };
    #[derive(serde::Deserialize)]
    struct Answer {
        status: u16,
        body: String,
    }
    let answer: Answer = serde_json::from_str(&text).map_err(|error| error.to_string())?;
    Ok(Some((answer.status, answer.body)))
}
