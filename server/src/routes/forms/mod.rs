//! The account forms as a browser posts them without JavaScript (turned
//! off, or submitted before the page hydrated). Every form that carries a
//! secret is `method="post"` to one of these, so a password, code or token
//! name never lands in the address bar, the history or the next page's
//! `Referer`; with JavaScript the page calls its server function instead.
//!
//! Each runs the same service as the other doors, and is declared with its
//! use case (`.page_form(path, handler)` in `routes::use_cases`), which
//! mounts it and tells the CSRF check that its token comes in the form's
//! `csrf_token` field, checked against the cookie exactly like the
//! header. Each answers
//! with a redirect carrying a code (`domain::form_outcome`), never a field,
//! or, for what is shown once (a new token, a second factor's key and
//! recovery codes, an invitation link), with a page of its own that no
//! cache keeps.

pub mod answer;
pub mod invitation;
pub mod password;
pub mod register;
pub mod sign_in;
pub mod sign_out;
pub mod sso_link;
pub mod tokens;
pub mod two_factor;
