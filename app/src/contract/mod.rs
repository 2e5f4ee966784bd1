//! The wire: every request and response type the browser, REST clients and
//! the server functions exchange, one definition each, with domain types
//! inside. Compiled for both builds; rows that are also wire types derive
//! `sqlx::FromRow` in the server build only.

pub mod account;
pub mod admin;
pub mod authentication;
pub mod bank;
pub mod bill_months;
pub mod bills;
pub mod contact;
pub mod data;
pub mod drift;
pub mod error;
pub mod history;
pub mod notifications;
pub mod operations;
pub mod preferences;
pub mod security_keys;
pub mod statements;
pub mod subscriptions;
pub mod tokens;
pub mod two_factor;
