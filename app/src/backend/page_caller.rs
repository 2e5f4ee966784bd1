//! Who may call a server function, as its use case declares it. The
//! declarations are the server's (`server/src/routes/use_cases.rs`); a
//! server function asks them through its services
//! ([`Services::page_callers`](crate::backend::services::Services)), so
//! who may call it is written once, there, whether the function answers
//! a request (after the server's gate) or a page rendering on the server
//! calls it directly.

/// A use case's caller as a browser's session meets it: the pages' door
/// sees sessions only, so it comes down to one of three (in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PageCaller {
    Anyone,
    SignedIn,
    Administrator,
}

/// The declared caller of the server function at a path (`/api/fn/…`);
/// `None` when no use case declares it (it is not served).
pub type DeclaredCallers = fn(&str) -> Option<PageCaller>;
