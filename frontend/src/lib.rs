//! The browser entry point: hydrates the server-rendered page. Lazy routes
//! (`#[lazy_route]`) are fetched before the page that needs one hydrates.

mod split_slack;

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_lazy(app::App);
}
