//! The account forms whose answer a server function cannot give, as a
//! browser posts them without JavaScript (turned off, or submitted before
//! the page hydrated): what is shown once (a new token, a second factor's
//! key and recovery codes, an invitation link), which must be in no
//! address, and what leaves the site (linking an identity provider,
//! signing out of one). A server function can only send the browser back
//! to a page. The other forms, signing in and registering among them, post
//! to their server functions. Every form here is `method="post"`, so a
//! password, code or token name never lands in the address bar, the
//! history or the next page's `Referer`; with JavaScript the page
//! dispatches its server function instead.
//!
//! Each runs the same service as the other doors, and is declared with its
//! use case (`.page_form(path, handler)` in `routes::use_cases`), which
//! mounts it and tells the CSRF check that its token comes in the form's
//! `csrf_token` field, checked against the cookie exactly like the
//! header. Each answers with a page of its own that no cache keeps, or
//! with a redirect carrying a code (`domain::form_outcome`), never a
//! field.

pub mod answer;
pub mod invitation;
pub mod sign_out;
pub mod sso_link;
pub mod tokens;
pub mod two_factor;

/// Profile, where the account forms are and come back to.
pub const PROFILE: &str = "/profile";
