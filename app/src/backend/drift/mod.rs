//! Price drift (issue 30): bills charged another amount than expected for
//! two or more months in a row, with "Update to" (and undo) and "Dismiss".
//! The rule is `domain::drift`; reminders read [`service::drifting`] for
//! their `price_changed` events.

mod error;
pub mod service;
mod store;

pub use error::DriftError;
