//! The list of changes to how people sign in (Admin → Authentication) and
//! to the mail server (Admin → Notifications), Hardening III (issue 52):
//! who changed which fields when, never a value, shown on Admin → Status
//! and mailed to every administrator. Either change can hand every
//! account to whoever made it (a provider of their own with linking by
//! email; a mail server that reads every confirmation link), so even one
//! made with the password should not go unseen.
//!
//! - `rules`: the areas, the fields as kept, the words of the list and
//!   of the notice.
//! - `store`: every SQL statement.
//! - `service`: [`record`] in the change's own transaction, [`announce`]
//!   after it, [`status_rows`] for Admin → Status.
//!
//! Its only errors are the database's (`sqlx::Error`), which the features
//! that record a change fold into their own.

mod rules;
pub mod service;
mod store;

pub use rules::Area;
pub use service::{announce, record, status_rows, Recorded};
