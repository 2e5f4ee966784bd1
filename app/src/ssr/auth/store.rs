//! The accounts' SQL, one file per part: what an administrator changes
//! (`admin`), invitations and open registration (`invitations`), the accounts
//! themselves (`users`), sessions and pending sign-ins (`sessions`).

pub mod admin;
pub mod invitations;
pub mod sessions;
pub mod users;
