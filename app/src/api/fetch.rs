//! The browser side: `fetch` through gloo-net, with the CSRF token kept in
//! memory for the life of the page.

use std::cell::RefCell;

use gloo_net::http::{Request, RequestBuilder, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::{failure_from, ApiFailure};
use crate::contract::account::CsrfToken;

thread_local! {
    static CSRF_TOKEN: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn network(error: gloo_net::Error) -> ApiFailure {
    ApiFailure::Network(error.to_string())
}

/// The header every state-changing call carries the CSRF token in.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// The CSRF token, fetched once and kept in memory.
pub async fn csrf_token() -> Result<String, ApiFailure> {
    if let Some(token) = CSRF_TOKEN.with(|cell| cell.borrow().clone()) {
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

pub async fn get_json<T: DeserializeOwned>(path: &str) -> Result<T, ApiFailure> {
    let response = Request::get(path).send().await.map_err(network)?;
    checked(response).await?.json().await.map_err(network)
}

fn builder(method: &str, path: &str) -> RequestBuilder {
    match method {
        "PUT" => Request::put(path),
        "PATCH" => Request::patch(path),
        "DELETE" => Request::delete(path),
        _ => Request::post(path),
    }
}

/// Sends `body` as JSON with the CSRF header; `None` for a 204 answer.
pub async fn send_json<B: Serialize, T: DeserializeOwned>(
    method: &str,
    path: &str,
    body: &B,
) -> Result<Option<T>, ApiFailure> {
    let token = csrf_token().await?;
    let response = builder(method, path)
        .header(CSRF_HEADER, &token)
        .json(body)
        .map_err(network)?
        .send()
        .await
        .map_err(network)?;
    let response = checked(response).await?;
    if response.status() == 204 {
        return Ok(None);
    }
    response.json().await.map(Some).map_err(network)
}
