//! Tally's own helper scripts (`/captcha.js`, `/webauthn.js`)
//! are loaded the first time a page needs one, not with every page: the
//! home page's first visit does not carry them.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

fn has(window: &JsValue, global: &str) -> bool {
    js_sys::Reflect::has(window, &JsValue::from_str(global)).unwrap_or(false)
}

/// Resolves once `window[global]` exists: adds `<script src>` to the head
/// the first time (a call while it loads waits for the same element); a
/// script that failed to load is removed, so the next call tries again.
pub async fn ensure(src: &str, global: &str) -> Result<(), JsValue> {
    let window = leptos::web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    if has(&window, global) {
        return Ok(());
    }
    let document = window
        .document()
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let script = match document.query_selector(&format!("script[src=\"{src}\"]"))? {
        Some(existing) => existing,
        None => {
            let script = document.create_element("script")?;
            script.set_attribute("src", src)?;
            document
                .query_selector("head")?
                .ok_or_else(|| JsValue::from_str("no head"))?
                .append_child(&script)?;
            script
        }
    };
    let loaded = js_sys::Promise::new(&mut |resolve, reject| {
        let _ = script.add_event_listener_with_callback("load", &resolve);
        let _ = script.add_event_listener_with_callback("error", &reject);
    });
    // It may have run between the first look and the listeners.
    if has(&window, global) {
        return Ok(());
    }
    if let Err(error) = JsFuture::from(loaded).await {
        script.remove();
        return Err(error);
    }
    Ok(())
}
