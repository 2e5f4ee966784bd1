//! Layers wrapped around every route.

pub mod cache_control;
pub mod request_id;
pub mod security_headers;
