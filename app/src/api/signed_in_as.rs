//! Who the header's navigation is for, while the server renders a page:
//! asked of the session directly (`current_session`).

use crate::contract::account::Nav;

/// The navigation for the request's browser session.
pub async fn signed_in_as() -> Nav {
    match super::session::current_session().await {
        Ok(session) => Nav::of(session.user.as_ref()),
        Err(_) => Nav::Visitor,
    }
}
