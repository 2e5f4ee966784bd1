//! Types and pure rules shared by the browser and the server. No I/O here.

pub mod amount;
pub mod bank;
pub mod bill;
pub mod bill_month;
pub mod cadence;
pub mod contact;
pub mod date;
pub mod email;
pub mod form_outcome;
pub mod interest;
pub mod money;
pub mod notification;
pub mod operation;
pub mod operation_kind;
pub mod password_policy;
pub mod pay_period;
pub mod query_string;
pub mod redirect;
pub mod role;
pub mod subscriptions;
pub mod text;
pub mod timestamp;
pub mod token_lifetime;
pub mod token_scope;
pub mod tracker;
pub mod words;
