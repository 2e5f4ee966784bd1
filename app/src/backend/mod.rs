//! Server-only code shared by the app and the server binary: the database,
//! its migrations, secrets at rest and backups.

pub mod api_error;
pub mod auth;
pub mod backup;
pub mod bank;
pub mod bill_months;
pub mod bills;
pub mod burst_limit;
pub mod catalog;
pub mod client_ip;
pub mod clock;
pub mod contact;
pub mod cookies;
pub mod csp;
pub mod data_dir_lock;
pub mod db;
pub mod db_health;
pub mod diagnostics;
pub mod drift;
pub mod instance;
pub mod kept_upload;
pub mod limiter;
pub mod limits;
pub mod migrate;
pub mod notifications;
pub mod operations;
pub mod other_apps;
pub mod outbound;
pub mod page_caller;
pub mod personal_data;
pub mod preferences;
pub mod secrets;
pub mod services;
pub mod settings;
pub mod settings_changes;
pub mod sso;
pub mod statements;
pub mod status;
pub mod subscriptions;
pub mod untrusted_sqlite;
pub mod upload_quota;
pub mod wasm_packs;
pub mod workbook;
pub mod write_gate;

#[cfg(test)]
mod query_schema_tests;
