//! Every integration test in one binary. Each file below was its own test
//! binary, and each linked the whole server: 38 binaries of about 135 MB
//! filled a CI disk and spent minutes linking. One binary links once; the
//! tests still run in parallel threads as before.
//!
//! `sign_in_timing` stays a binary of its own: it compares medians of
//! response times, and the other tests' load in the same process would only
//! add noise to them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod account_forms;
mod accounts;
mod admin_backups;
mod admin_status;
mod authentication_settings;
mod authorization;
mod backups;
mod bank_sync;
mod bills;
mod cache_policy;
mod client_address;
mod contact;
mod container;
mod csrf_forms;
mod data_commands;
mod drift;
mod durability;
mod forms_without_javascript;
mod health;
mod history;
mod hostile_input;
mod hosts;
mod http_basics;
mod login_redirect;
mod metrics;
mod notifications;
mod operations;
mod operations_google_client;
mod ops;
mod ops_portainer;
mod ops_release;
mod other_apps;
mod outbound;
mod page_cache;
mod personal_data;
mod privacy;
mod process;
mod registration;
mod route_walks;
mod second_factors;
mod secrets;
mod security_keys;
mod server_functions;
mod server_rendered;
mod settings_changes;
mod sign_in_form;
mod single_sign_on;
mod site_files;
mod statement_imports;
mod static_assets;
mod subscriptions;
mod token_limits;
mod token_scopes;
mod totp;
mod tracker;
mod upgrade;
mod workbook;
