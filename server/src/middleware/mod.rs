//! Layers wrapped around every route: request ids, logging and security
//! headers in one service around the router (`edge`), the request policies
//! in one layer inside it (`front_door`).

pub mod cache_control;
pub mod csrf;
pub mod deadline;
pub mod edge;
pub mod front_door;
pub mod hosts;
pub mod multipart_token;
pub mod server_fns;
pub mod signed_in_pages;
pub mod token_paths;
