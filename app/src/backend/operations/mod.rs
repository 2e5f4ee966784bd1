//! Long-running operations (the `google.longrunning` interface): the
//! engine that runs any feature's jobs, their storage, the ListOperations
//! filter and page tokens, and the proto3 JSON they are shown in. The
//! kinds are their features' (each feature's `jobs`); the REST routes live
//! in the server crate.

mod context;
mod engine;
mod filter;
pub mod job;
pub mod messages;
mod page_token;
pub mod proto_json;
pub mod proto_schema;
mod record;
mod store;

pub use crate::domain::operation_kind::OperationKind;
pub use context::{percent, JobContext};
pub use engine::{
    Engine, ListRequest, OperationsError, Page, Viewer, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE,
};
pub use filter::FilterError;
pub use job::{Job, JobResult, Resume, Running};
pub use page_token::PageTokenError;
pub use record::{Outcome, Record, Status};

#[cfg(test)]
mod layering_tests;
#[cfg(test)]
mod recovery_tests;
#[cfg(test)]
mod state_machine_tests;
