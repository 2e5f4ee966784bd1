//! Long-running operations (the `google.longrunning` interface): the
//! registry of kinds, the engine that runs them, their storage, the
//! ListOperations filter and page tokens, and the proto3 JSON they are shown
//! in. The REST routes live in the server crate.

mod context;
mod engine;
mod filter;
mod job;
mod kinds;
pub mod messages;
mod page_token;
pub mod proto_json;
pub mod proto_schema;
mod record;
mod store;

pub use crate::domain::operation_kind::OperationKind;
pub use context::Resources;
pub use engine::{
    Engine, ListRequest, OperationsError, Page, Viewer, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE,
};
pub use filter::FilterError;
pub use job::Job;
pub use page_token::PageTokenError;
pub use record::{Outcome, Record, Status};

#[cfg(test)]
mod layering_tests;
#[cfg(test)]
mod state_machine_tests;
