//! Built for neither the server nor the browser (the crate's own unit
//! tests): no request, no token.

use leptos::prelude::*;

pub fn page_token() -> Signal<String> {
    Signal::stored(String::new())
}

pub fn forget() {}
