//! The names of the CSRF double submit, shared by the pages and the server.

/// The form field a page without JavaScript sends the token in.
pub const FIELD: &str = "csrf_token";

/// Whether `token` looks like one Tally issues (43 URL-safe characters):
/// anything else in the cookie is replaced, never echoed into a page.
pub fn well_formed(token: &str) -> bool {
    token.len() == 43
        && token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_tokens_of_tallys_own_shape_are_well_formed() {
        assert!(well_formed(&"a".repeat(43)));
        assert!(well_formed("abcdefghijklmnopqrstuvwxyz-_ABCDEFGHIJ01234"));
        assert!(!well_formed(&"a".repeat(42)));
        assert!(!well_formed(&"a".repeat(44)));
        assert!(!well_formed(
            "\"><script>alert(1)</script>aaaaaaaaaaaaaaaaa"
        ));
        assert!(!well_formed(""));
    }
}
