//! The server build's name for the writing server functions' client. The
//! server calls those functions directly and never sends them a request, so
//! Leptos' own browser client stands in for [`CsrfClient`] here.

pub use leptos::server_fn::client::browser::BrowserClient as CsrfClient;
