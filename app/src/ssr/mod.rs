//! Server-only code shared by the app and the server binary.

pub mod csp;
