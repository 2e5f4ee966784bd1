//! Email addresses as Tally accepts them, in the browser and on the server.

/// What is wrong with a typed address (for the person typing).
pub const EMAIL_PROBLEM: &str = "enter an address like name@example.com";

/// A plausible email address: one `@`, something on both sides, a dot in
/// the domain, no spaces or control characters, at most 254 characters.
/// Returns it trimmed.
pub fn check_email(email: &str) -> Result<String, &'static str> {
    let email = email.trim();
    let valid = email.len() <= 254
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && domain.contains('.')
                && !domain.contains('@')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        })
        && !email.chars().any(|c| c.is_whitespace() || c.is_control());
    if valid {
        Ok(email.to_owned())
    } else {
        Err(EMAIL_PROBLEM)
    }
}

#[cfg(test)]
mod tests {
    use super::check_email;

    #[test]
    fn accepts_plain_addresses_and_refuses_the_rest() {
        assert_eq!(check_email(" a@b.co ").unwrap(), "a@b.co");
        for bad in [
            "",
            "a",
            "a@b",
            "@b.co",
            "a@.co",
            "a@b.co.",
            "a b@c.de",
            "a@b@c.de",
            "a\u{0}@b.co",
        ] {
            assert!(check_email(bad).is_err(), "{bad}");
        }
        assert!(check_email(&format!("{}@b.co", "a".repeat(250))).is_err());
    }
}
