//! Diagnostics: the `sleep` operation kind, the operator's and the tests'
//! way to exercise the operations API (`POST /v1/diagnostics:sleep`).

mod jobs;

pub use jobs::Sleep;
