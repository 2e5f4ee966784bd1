//! Reminders and notifications: Tally tells people what needs them (bills
//! due soon or overdue, failed autopay, bank connections that stopped or
//! came back, charges at another amount) through their channels (email,
//! ntfy, Gotify, Discord, Telegram, signed webhooks), once, from a daily
//! run; and a private calendar feed of their bills.
//!
//! What the rest of the app uses: [`service`] (one function per use case),
//! [`run`] (start a run now, the scheduler), [`calendar::feed`],
//! [`notice::send`] (a notice to administrators by email), the
//! [`Notifier`] built at start-up, and [`jobs::NotificationsRun`], the
//! `notifications_run` operation kind.

pub mod calendar;
mod deliver;
mod error;
pub mod jobs;
pub mod notice;
mod notifier;
mod render;
mod rules;
pub mod run;
mod schedule;
pub mod service;
mod store;
mod test_limit;
pub mod transport;

pub use error::NotifyError;
pub use notifier::{Notifier, NotifySettings};
