//! Subscription intelligence over the database: recommendations from the
//! person's bank charges, what they do with them, the catalog and their own
//! descriptors. The reasoning itself is `domain::subscriptions`.

pub mod catalog_entries;
mod error;
pub mod feedback;
pub mod own_descriptors;
pub mod recommendations;
mod store;

pub use error::SubscriptionError;
