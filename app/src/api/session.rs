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
    use crate::backend::auth::current;
    use leptos::server_fn::error::FromServerFnError;

    let services = super::signed_in::services()?;
    let headers: http::HeaderMap = leptos_axum::extract()
        .await
        .map_err(ErrorBody::from_server_fn_error)?;
    let found = current::authenticate_browser(&services.pool, &headers)
        .await
        .map_err(|error| {
            tracing::error!(%error, "current session");
            ErrorBody::new(500, "INTERNAL", "internal error")
        })?;
    if found.is_some() {
        super::signed_in::mark_personal();
    }
    Ok(Session {
        user: found.map(|found| found.user),
    })
}
