//! In the browser: the token the server rendered into the page's forms
//! (hydration keeps it), the one this page already fetched, or else one
//! fetched now, so a form drawn after a navigation carries it too.

use leptos::prelude::*;

use crate::domain::csrf::{well_formed, FIELD};

/// This page's CSRF token, as soon as it is known.
pub fn page_token() -> Signal<String> {
    let token = RwSignal::new(
        super::csrf_token::cached()
            .or_else(rendered)
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
