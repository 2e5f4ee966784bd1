//! `POST /admin/invite`: an invitation made without JavaScript. The same
//! service as `POST /api/admin/invitations` (the administrator's password
//! asked again); the link is shown once, on a page of its own that no
//! cache keeps, never in an address. With JavaScript the Admin page calls
//! its server function (`admin/invite`) with the same fields.

use axum::extract::State;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use app::backend::api_error::ApiError;
use app::backend::auth::admin;
use app::backend::auth::extractors::AdminSession;
use app::backend::client_ip::ClientIp;
use app::contract::admin::Invite;
use app::domain::role::Role;

use super::answer::{escape, failure, outcome, shown_once, sign_in_first};
use crate::state::AppState;

/// Where the form is, and where it comes back to.
pub const PAGE: &str = "/admin";

/// The form's fields, named as the server function's argument. Not
/// `Debug`: it holds the password.
#[derive(Deserialize)]
pub struct InviteForm {
    #[serde(default, rename = "request[email]")]
    email: String,
    #[serde(default, rename = "request[role]")]
    role: String,
    #[serde(default, rename = "request[currentPassword]")]
    current_password: String,
}

impl InviteForm {
    fn request(self) -> Invite {
        Invite {
            email: Some(self.email).filter(|email| !email.trim().is_empty()),
            role: Role::parse(&self.role),
            current_password: self.current_password,
        }
    }
}

pub async fn submit(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    session: Result<AdminSession, ApiError>,
    Form(form): Form<InviteForm>,
) -> Response {
    let session = match session {
        Ok(AdminSession(session)) => session,
        Err(ApiError::Unauthenticated) => return sign_in_first(PAGE),
        Err(error) => return outcome(PAGE, failure(&error)),
    };
    let request = form.request();
    let auth = &state.services.auth;
    let invited = match admin::confirm(auth, session, ip, &request.current_password).await {
        Ok(confirmed) => admin::invite(auth, &confirmed, &request).await,
        Err(error) => Err(error),
    };
    match invited {
        Ok(invited) => shown_once(
            &state,
            "Invitation link",
            &format!(
                "<div class=\"notice\" role=\"status\"><p>Send this link to the person \
                 you invite. It works once, for 7 days, and will not be shown again:</p>\
                 <code data-testid=\"invitation-link\">{link}</code></div>\
                 <p><a class=\"button\" href=\"{PAGE}\">Back to Administration</a></p>",
                link = escape(&invited.link),
            ),
        ),
        Err(error) => outcome(PAGE, failure(&ApiError::from(error))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_email_is_anyone_and_an_unknown_role_the_default() {
        let form = |email: &str, role: &str| InviteForm {
            email: email.into(),
            role: role.into(),
            current_password: "pw".into(),
        };
        let request = form(" ", "root").request();
        assert_eq!(request.email, None);
        assert_eq!(request.role, None);
        assert_eq!(request.current_password, "pw");
        let request = form("sam@example.com", "admin").request();
        assert_eq!(request.email.as_deref(), Some("sam@example.com"));
        assert_eq!(request.role, Some(Role::Admin));
    }
}
