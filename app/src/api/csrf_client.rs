//! The client of the pages' writing server functions: the browser's
//! `fetch`, with the CSRF token every state-changing request needs (kept in
//! memory, `csrf_token`). A refusal (403) forgets the kept token, so the
//! next write fetches it again: the browser may have signed in or out in
//! another tab, which changes it. Browser build only; the
//! server build names Leptos' own client (`csrf_client_unavailable.rs`).

use std::future::Future;

use leptos::server_fn::client::browser::BrowserClient;
use leptos::server_fn::client::Client;
use leptos::server_fn::error::{FromServerFnError, IntoAppError, ServerFnErrorErr};
use leptos::server_fn::request::browser::BrowserRequest;
use leptos::server_fn::response::browser::BrowserResponse;
use leptos::server_fn::response::ClientRes;
use leptos::server_fn::Bytes;
use send_wrapper::SendWrapper;

use super::csrf_token::{csrf_token, forget, CSRF_HEADER};

/// `#[server(client = CsrfClient)]` for every server function that writes.
pub struct CsrfClient;

impl<E, IS, OS> Client<E, IS, OS> for CsrfClient
where
    E: FromServerFnError,
    IS: FromServerFnError,
    OS: FromServerFnError,
{
    type Request = BrowserRequest;
    type Response = BrowserResponse;

    fn send(request: BrowserRequest) -> impl Future<Output = Result<BrowserResponse, E>> + Send {
        SendWrapper::new(async move {
            let token = csrf_token()
                .await
                .map_err(|failure| ServerFnErrorErr::Request(failure.message()).into_app_error())?;
            request.headers().set(CSRF_HEADER, &token);
            let response = <BrowserClient as Client<E, IS, OS>>::send(request).await?;
            if <BrowserResponse as ClientRes<E>>::status(&response) == 403 {
                forget();
            }
            Ok::<BrowserResponse, E>(response)
        })
    }

    fn open_websocket(
        path: &str,
    ) -> impl Future<
        Output = Result<
            (
                impl futures::Stream<Item = Result<Bytes, Bytes>> + Send + 'static,
                impl futures::Sink<Bytes> + Send + 'static,
            ),
            E,
        >,
    > + Send {
        <BrowserClient as Client<E, IS, OS>>::open_websocket(path)
    }

    fn spawn(future: impl Future<Output = ()> + Send + 'static) {
        <BrowserClient as Client<E, IS, OS>>::spawn(future)
    }
}
