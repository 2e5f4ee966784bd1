//! The accounts' SQL, one file per part: the accounts themselves
//! (`users`), what an administrator changes on them (`admin`), personal
//! API tokens (`api_tokens`), invitations (`invitations`), sessions and
//! pending sign-ins (`sessions`), the sign-in history (`login_history`),
//! and the second factors (`totp`, `security_keys`).

pub mod admin;
pub mod api_tokens;
pub mod invitations;
pub mod login_history;
pub mod security_keys;
pub mod sessions;
pub mod totp;
pub mod users;
