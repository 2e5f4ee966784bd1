//! The refusal a form posted without JavaScript comes back with: Leptos
//! puts the server function's error body in the address it sends the
//! browser back to (`__err`, URL-safe base64 of the JSON), for the page
//! to show.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use app::contract::error::ErrorBody;
use base64::Engine;

/// The error body `location` carries in `__err`, if it carries one.
pub fn refusal_in(location: &str) -> Option<ErrorBody> {
    let query = location.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or(query);
    let (_, encoded) =
        form_urlencoded::parse(query.as_bytes()).find(|(name, _)| name == "__err")?;
    let json = base64::engine::general_purpose::URL_SAFE
        .decode(encoded.as_bytes())
        .expect("__err is base64");
    Some(serde_json::from_slice(&json).expect("__err holds an error body"))
}

/// Neither `location` nor the refusal in it holds any of `typed`.
pub fn clean(location: &str, typed: &[&str]) {
    let refusal = refusal_in(location)
        .map(|body| serde_json::to_string(&body).unwrap())
        .unwrap_or_default();
    for value in typed {
        assert!(!location.contains(value), "{location} carries {value}");
        assert!(
            !refusal.contains(value),
            "its refusal {refusal} carries {value}"
        );
    }
}
