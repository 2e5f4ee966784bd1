//! Layers wrapped around every route; the request policies run in one
//! (`front_door`).

pub mod cache_control;
pub mod csrf;
pub mod deadline;
pub mod front_door;
pub mod hosts;
pub mod request_id;
pub mod security_headers;
pub mod signed_in_pages;
