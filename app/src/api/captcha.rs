//! The browser side of the bot check: `public/captcha.js`
//! (`window.tallyCaptcha`) loads the provider's widget into an element,
//! reads the visitor's token at submit time and resets the widget after a
//! refused submission.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = tallyCaptcha, js_name = render)]
    fn render_widget(
        element: &JsValue,
        site_key: &str,
        script_url: &str,
    ) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = tallyCaptcha, js_name = token)]
    fn widget_token(id: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = tallyCaptcha, js_name = reset)]
    fn reset_widget(id: &str) -> Result<JsValue, JsValue>;
}

/// Puts the provider's widget into `element`; answers the widget's id, or
/// what stopped it in words.
pub async fn render(
    element: &leptos::web_sys::HtmlElement,
    site_key: &str,
    script_url: &str,
) -> Result<String, String> {
    super::browser_script::ensure("/captcha.js", "tallyCaptcha")
        .await
        .map_err(not_loaded)?;
    let started = render_widget(element.as_ref(), site_key, script_url).map_err(not_loaded)?;
    let id = JsFuture::from(started).await.map_err(not_loaded)?;
    Ok(id.as_string().unwrap_or_default())
}

/// The visitor's answer, once they have completed the widget.
pub fn token(id: &str) -> Option<String> {
    widget_token(id)
        .ok()
        .and_then(|token| token.as_string())
        .filter(|token| !token.is_empty())
}

/// Asks for a fresh answer (a token is verified only once).
pub fn reset(id: &str) {
    let _ = reset_widget(id);
}

fn not_loaded(error: JsValue) -> String {
    let detail = js_sys::Reflect::get(&error, &JsValue::from_str("message"))
        .ok()
        .and_then(|message| message.as_string())
        .unwrap_or_else(|| "the bot check could not be loaded".to_owned());
    format!("{detail}; check your connection or content blocker and reload the page")
}
