//! Reading a file the person chose in an `<input type="file">`, through
//! `public/files.js` (`window.tallyFiles`).

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = tallyFiles, js_name = readText)]
    fn read_text(input: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// The text of the first chosen file; `None` when none is chosen.
pub async fn chosen_text(
    input: &leptos::web_sys::HtmlInputElement,
) -> Result<Option<String>, String> {
    super::browser_script::ensure("/files.js", "tallyFiles")
        .await
        .map_err(|_| "the file reader could not be loaded; reload the page".to_owned())?;
    let started = read_text(input.as_ref()).map_err(|_| "the file could not be read".to_owned())?;
    let text = JsFuture::from(started)
        .await
        .map_err(|_| "the file could not be read; is it a text (CSV) file?".to_owned())?;
    Ok(text.as_string())
}
