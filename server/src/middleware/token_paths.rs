//! Addresses that carry a secret in their path: the calendar feed
//! (`/calendar/{token}.ics`) and the link in a confirmation email
//! (`/notifications/confirm/{token}`). Whoever reads a log file must not
//! be able to subscribe to someone's calendar or confirm their channel,
//! so the access log writes `…` in place of the token. Tokens in a query
//! (an invitation, a setup link) never reach a log: only the path is
//! logged. A new route with a token in its path is added here.

/// The prefixes after which the rest of the path is a secret.
const SECRET_AFTER: &[&str] = &["/calendar/", "/notifications/confirm/"];

/// `path` as it may be logged.
pub fn loggable(path: &str) -> std::borrow::Cow<'_, str> {
    for prefix in SECRET_AFTER {
        if let Some(rest) = path.strip_prefix(prefix) {
            if rest.is_empty() {
                break;
            }
            // The feed's `.ics` says which route it was; it is not secret.
            let suffix = if rest.ends_with(".ics") { ".ics" } else { "" };
            return format!("{prefix}…{suffix}").into();
        }
    }
    path.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_in_a_path_is_never_logged() {
        assert_eq!(loggable("/calendar/Zq9xT0kENsecret.ics"), "/calendar/….ics");
        assert_eq!(
            loggable("/notifications/confirm/c0nfirmT0ken"),
            "/notifications/confirm/…"
        );
        assert_eq!(loggable("/api/bills/12"), "/api/bills/12");
        assert_eq!(loggable("/calendar/"), "/calendar/");
        assert_eq!(loggable("/tracker"), "/tracker");
    }
}
