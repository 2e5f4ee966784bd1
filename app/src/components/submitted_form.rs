//! The data of a form the page posts itself (a file form, which a
//! `ServerAction` cannot carry): the same fields, in the same order, as the
//! browser would post without JavaScript.

use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::{FormData, HtmlFormElement};

/// Stops the browser's own post of the form `event` submits and hands back
/// its data; `None` when the event came from no form.
pub fn submitted_form(event: &leptos::ev::SubmitEvent) -> Option<FormData> {
    event.prevent_default();
    let form = event
        .target()
        .and_then(|target| target.dyn_into::<HtmlFormElement>().ok())?;
    FormData::new_with_form(&form).ok()
}
