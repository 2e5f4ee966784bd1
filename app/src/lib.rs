//! Tally's shared Leptos crate: the UI, its routes and the types the browser
//! and the server agree on. Server-only code (services, stores, workers,
//! outbound clients) is the [`backend`], compiled with the `ssr` feature
//! only; nothing in here performs I/O in the browser build.

pub mod api;
#[cfg(feature = "ssr")]
pub mod backend;
pub mod components;
pub mod contract;
pub mod domain;
pub mod pages;
pub mod response_status;

#[cfg(test)]
mod module_graph;
#[cfg(all(test, feature = "ssr"))]
mod own_declaration;
mod shell;
#[cfg(test)]
mod small_stack;

pub use shell::{shell, App};
