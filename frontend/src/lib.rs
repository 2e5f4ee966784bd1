//! The browser entry point: hydrates the server-rendered page. Lazy routes
//! (`#[lazy_route]`) are fetched before the page that needs one hydrates,
//! and so is the bill form's code on a page the server sent with the form.

mod split_slack;

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // A page showing the bill form hydrates once the form's code is here.
    app::components::bill_form::hydrate_when_ready(|| leptos::mount::hydrate_lazy(app::App));
}
