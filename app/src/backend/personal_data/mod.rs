//! "Your data, whole" (issue 32): one SQLite file with everything that is
//! the person's, and its import into the signed-in account.
//!
//! The file is a Tally database of this build's schema, marked with its
//! own `application_id`, holding one account's rows and no credential or
//! secret. Importing checks the file is exactly Tally's schema (as a
//! restore does), brings it up to this build's schema with the same
//! migrations, holds every row to the rules of the form that writes its
//! like, and copies its rows with new ids in short transactions that
//! other writers come between, every row or none (`store::copy_in`).
//!
//! - `rules`: what travels, column by column, and the SQL for it (pure);
//! - `form_rules`: the forms' rules every imported row is held to (pure);
//! - `store`: every SQL statement; `service`: the export and the import;
//! - `upload`: an uploaded file, written to a scratch file as it arrives.
//!
//! One import of a person's runs at a time (`service::turn`).

mod error;
mod form_rules;
pub mod rules;
pub mod service;
mod store;
pub mod upload;

pub use error::PersonalDataError;
