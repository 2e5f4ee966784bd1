//! Opening another address of the same page, where it is: after a form
//! the page posted itself, the address then says what a card shows (an
//! import's preview, a kept file), as it does after the same form posted
//! without JavaScript. The fragment is left out, so the page does not jump.

use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

/// A function that opens an address of this site without scrolling.
pub fn open_here() -> impl Fn(&str) + Clone + 'static {
    let navigate = use_navigate();
    move |address: &str| {
        let page = address.split('#').next().unwrap_or(address);
        navigate(
            page,
            NavigateOptions {
                scroll: false,
                ..NavigateOptions::default()
            },
        );
    }
}
