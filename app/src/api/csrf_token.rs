//! The CSRF token every state-changing request carries, fetched once from
//! `/api/auth/csrf-token` through gloo-net and kept in memory (never in
//! storage) until the browser signs in or out ([`forget`]): a signed-in
//! browser's token is bound to its session. Browser build only.

use std::cell::{Cell, RefCell};

use gloo_net::http::{Request, Response};

use super::{failure_from, ApiFailure};
use crate::contract::account::CsrfToken;

thread_local! {
    static CSRF_TOKEN: RefCell<Option<String>> = const { RefCell::new(None) };
    /// Whether the token the server rendered into the page is still the
    /// browser's: not once it signed in or out since.
    static RENDERED_HOLDS: Cell<bool> = const { Cell::new(true) };
}

fn network(error: gloo_net::Error) -> ApiFailure {
    ApiFailure::Network(error.to_string())
}

/// The header every state-changing call carries the CSRF token in.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// The token this page already has, if it fetched one.
pub fn cached() -> Option<String> {
    CSRF_TOKEN.with(|cell| cell.borrow().clone())
}

/// Whether a token rendered into the page may still be used.
pub fn rendered_holds() -> bool {
    RENDERED_HOLDS.with(Cell::get)
}

/// Forgets the kept token (and the rendered one): the browser signed in or
/// out, or the server refused the token.
pub fn forget() {
    CSRF_TOKEN.with(|cell| *cell.borrow_mut() = None);
    RENDERED_HOLDS.with(|cell| cell.set(false));
}

/// The CSRF token, fetched once and kept in memory.
pub async fn csrf_token() -> Result<String, ApiFailure> {
    if let Some(token) = cached() {
        return Ok(token);
    }
    let response = Request::get("/api/auth/csrf-token")
        .send()
        .await
        .map_err(network)?;
    let body: CsrfToken = checked(response).await?.json().await.map_err(network)?;
    CSRF_TOKEN.with(|cell| *cell.borrow_mut() = Some(body.csrf_token.clone()));
    Ok(body.csrf_token)
}

async fn checked(response: Response) -> Result<Response, ApiFailure> {
    if response.ok() {
        Ok(response)
    } else {
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        Err(failure_from(status, &body))
    }
}
