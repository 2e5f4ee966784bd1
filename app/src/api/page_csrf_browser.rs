//! In the browser: the token the server rendered into the page's forms
//! (hydration keeps it), the one this page already fetched, or else one
//! fetched now, so a form drawn after a navigation carries it too. Once
//! the browser signs in or out the token changes (a signed-in browser's
//! is bound to its session): [`forget`].

use leptos::prelude::*;

use crate::domain::csrf::{well_formed, FIELD};

/// This page's CSRF token, as soon as it is known.
pub fn page_token() -> Signal<String> {
    let token = RwSignal::new(
        super::csrf_token::cached()
            .or_else(|| super::csrf_token::rendered_holds().then(rendered).flatten())
            .unwrap_or_default(),
    );
    if token.get_untracked().is_empty() {
        leptos::task::spawn_local(async move {
            if let Ok(found) = super::csrf_token::csrf_token().await {
                token.set(found);
            }
        });
    }
    token.into()
}

/// A token the server rendered into one of the page's forms.
fn rendered() -> Option<String> {
    document()
        .query_selector(&format!("input[name=\"{FIELD}\"]"))
        .ok()
        .flatten()
        .and_then(|input| input.get_attribute("value"))
        .filter(|token| well_formed(token))
}

/// Forgets this page's token, once the browser has signed in or out (the
/// answer set the new token's cookie): the next write, and the next form
/// drawn, fetch the new one; the token rendered into the page is not read
/// again.
pub fn forget() {
    super::csrf_token::forget();
}
