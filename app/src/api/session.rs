//! `current_session`: who is signed in, for the header's navigation. A
//! server function (GET, no body, so no CSRF token needed), called directly
//! while the server renders a page and over HTTP from the browser.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::contract::account::Session;
use crate::contract::error::ErrorBody;

/// The signed-in user, or `{"user": null}`.
#[server(prefix = "/api/fn", endpoint = "session", input = GetUrl)]
pub async fn current_session() -> Result<Session, ErrorBody> {
    let found = super::signed_in::maybe_signed_in().await?;
    Ok(Session {
        user: found.map(|me| me.current.user),
    })
}
