//! The Tally server: configuration, telemetry, the Axum application and the
//! command-line subcommands. `main.rs` only dispatches to these.

pub mod cli;
pub mod commands;
pub mod config;
pub mod csrf_cookie;
pub mod extract;
pub mod health_check;
pub mod log_writer;
pub mod metrics;
pub mod middleware;
pub mod ops;
pub mod pack_wasm;
pub mod page_cache;
pub mod panic_exit;
pub mod routes;
pub mod session_answer;
pub mod shutdown;
pub mod site_files;
pub mod startup;
pub mod state;
pub mod static_assets;
pub mod telemetry;
