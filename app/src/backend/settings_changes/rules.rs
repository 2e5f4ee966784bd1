//! Pure decisions of the settings changes' list: which area a change is
//! of, how its fields are kept, and the words Admin → Status and the
//! administrators' notice use. Never a value: only the fields' API names.

/// What was changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    /// Admin → Authentication: single sign-on and local sign-in.
    SignIn,
    /// Admin → Notifications: the mail server.
    Mail,
}

impl Area {
    /// As stored (`settings_changes.area`).
    pub fn name(self) -> &'static str {
        match self {
            Self::SignIn => "sign-in",
            Self::Mail => "mail",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        [Self::SignIn, Self::Mail]
            .into_iter()
            .find(|area| area.name() == name)
    }

    /// The words a person reads.
    pub fn words(self) -> &'static str {
        match self {
            Self::SignIn => "the sign-in settings",
            Self::Mail => "the mail server",
        }
    }

    /// The page where it is changed.
    pub fn page(self) -> &'static str {
        match self {
            Self::SignIn => "Admin → Authentication",
            Self::Mail => "Admin → Notifications",
        }
    }
}

/// The fields as stored: their API names, comma-separated.
pub fn joined(fields: &[&str]) -> String {
    fields.join(",")
}

/// The stored fields as a person reads them.
pub fn shown(stored: &str) -> String {
    stored
        .split(',')
        .filter(|field| !field.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One change as Admin → Status lists it (its time is the row's label).
pub fn status_line(by: &str, area: Area, fields: &str, identities_dropped: i64) -> String {
    let mut line = format!("{by} changed {}: {}", area.words(), shown(fields));
    if identities_dropped > 0 {
        line.push_str(&format!(
            "; the issuer changed, so {} unlinked",
            identities(identities_dropped)
        ));
    }
    line
}

fn identities(n: i64) -> String {
    if n == 1 {
        "1 identity at the previous provider was".to_owned()
    } else {
        format!("{n} identities at the previous provider were")
    }
}

/// The administrators' notice of one change: its subject and paragraphs.
/// `through_previous`: it goes out through the mail server in force before
/// the change (a change of the mail server that replaced one).
pub fn notice(
    by: &str,
    area: Area,
    fields: &str,
    identities_dropped: i64,
    at: &str,
    through_previous: bool,
) -> (String, Vec<String>) {
    let title = format!("Tally: {} changed", area.words());
    let mut paragraphs = vec![
        format!("{by} changed {} of Tally at {at} (UTC).", area.words()),
        format!("Fields changed: {}.", shown(fields)),
    ];
    if identities_dropped > 0 {
        paragraphs.push(format!(
            "The identity provider's issuer changed, so {} unlinked: those people sign in with their password, or link their account again.",
            identities(identities_dropped)
        ));
    }
    if through_previous {
        paragraphs.push(
            "This message went out through the mail server in use before the change.".to_owned(),
        );
    } else if area == Area::Mail {
        paragraphs.push(
            "There was no mail server before this one, so this message went out through it."
                .to_owned(),
        );
    }
    paragraphs.push(format!(
        "The values are not in this message. If you did not expect this change, sign in, review {} and change your password; every change is listed on Admin → Status:",
        area.page()
    ));
    (title, paragraphs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_area_is_stored_by_name() {
        for area in [Area::SignIn, Area::Mail] {
            assert_eq!(Area::parse(area.name()), Some(area));
        }
        assert_eq!(Area::parse("other"), None);
    }

    #[test]
    fn fields_are_named_never_valued() {
        let stored = joined(&["issuerUrl", "clientSecret"]);
        assert_eq!(stored, "issuerUrl,clientSecret");
        assert_eq!(
            status_line("ada@example.com", Area::SignIn, &stored, 0),
            "ada@example.com changed the sign-in settings: issuerUrl, clientSecret"
        );
        assert!(status_line("a", Area::SignIn, &stored, 2)
            .ends_with("2 identities at the previous provider were unlinked"));
        let (title, paragraphs) = notice(
            "ada@example.com",
            Area::Mail,
            "host,password",
            0,
            "2026-01-01T10:00:00Z",
            true,
        );
        assert_eq!(title, "Tally: the mail server changed");
        assert!(paragraphs[0].starts_with("ada@example.com changed the mail server"));
        assert!(paragraphs[1].contains("host, password"));
        assert!(paragraphs.iter().any(|p| p.contains("before the change")));
        let (_, first) = notice("a", Area::Mail, "host", 0, "t", false);
        assert!(first.iter().any(|p| p.contains("no mail server before")));
        let (_, sign_in) = notice("a", Area::SignIn, "issuerUrl", 3, "t", false);
        assert!(sign_in.iter().any(|p| p.contains("3 identities")));
        assert!(!sign_in.iter().any(|p| p.contains("mail server")));
    }
}
