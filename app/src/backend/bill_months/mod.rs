//! Per-month overrides of a bill's occurrences: this time's amount, a
//! skip, a snooze, a note (issue 30). The rules are
//! `domain::bill_month`; the Tracker, reminders and the calendar feed read
//! them through [`store::between`].

mod error;
pub mod service;
pub mod store;

pub use error::BillMonthError;
