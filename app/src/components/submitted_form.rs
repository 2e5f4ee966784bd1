//! The data of a form the page posts itself (a file form, which a
//! `ServerAction` cannot carry): the same fields, in the same order, as the
//! browser would post without JavaScript; and a choice that sends its
//! form at once.

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

/// With JavaScript, a choice sends its own form at once (the button stays
/// for a browser without it).
pub fn submit_own_form(event: leptos::ev::Event) {
    let form = event.target().and_then(|target| {
        if let Some(input) = target.dyn_ref::<leptos::web_sys::HtmlInputElement>() {
            input.form()
        } else {
            target
                .dyn_ref::<leptos::web_sys::HtmlSelectElement>()
                .and_then(|select| select.form())
        }
    });
    if let Some(form) = form {
        let _ = form.request_submit();
    }
}
