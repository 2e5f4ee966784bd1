//! The password policy, shared by the browser (to say what is wrong while the
//! person types) and the server (which decides).

/// Fewer characters than this is refused.
pub const MIN_CHARS: usize = 12;
/// More than this is refused (hashing cost stays bounded).
pub const MAX_CHARS: usize = 256;

/// Passwords that appear at the top of every breach list.
const COMMON: &[&str] = &[
    "password1234",
    "123456789012",
    "qwertyuiopas",
    "iloveyou1234",
    "passwordpassword",
    "letmeinletmein",
    "administrator",
    "welcome12345",
    "changeme1234",
    "trustno1trustno1",
];

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordProblem {
    #[error("use at least {MIN_CHARS} characters")]
    TooShort,
    #[error("use at most {MAX_CHARS} characters")]
    TooLong,
    #[error("use more than one distinct character")]
    OneCharacter,
    #[error("this password is too common; choose another")]
    TooCommon,
    #[error("the password must not contain your email address")]
    ContainsEmail,
}

/// Checks `password` for the account `email`.
pub fn check(password: &str, email: &str) -> Result<(), PasswordProblem> {
    let chars = password.chars().count();
    if chars < MIN_CHARS {
        return Err(PasswordProblem::TooShort);
    }
    if chars > MAX_CHARS {
        return Err(PasswordProblem::TooLong);
    }
    let mut distinct: Vec<char> = password.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 2 {
        return Err(PasswordProblem::OneCharacter);
    }
    let lower = password.to_lowercase();
    if COMMON.contains(&lower.as_str()) {
        return Err(PasswordProblem::TooCommon);
    }
    let local = email.split('@').next().unwrap_or_default().to_lowercase();
    if !email.is_empty()
        && (lower.contains(&email.to_lowercase()) || (local.len() >= 4 && lower.contains(&local)))
    {
        return Err(PasswordProblem::ContainsEmail);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_a_reasonable_passphrase() {
        assert_eq!(check("correct horse battery", "alice@example.com"), Ok(()));
    }

    #[test]
    fn refuses_weak_passwords_with_a_reason() {
        assert_eq!(check("short", "a@b.c"), Err(PasswordProblem::TooShort));
        assert_eq!(
            check(&"x".repeat(300), "a@b.c"),
            Err(PasswordProblem::TooLong)
        );
        assert_eq!(
            check(&"a".repeat(20), "a@b.c"),
            Err(PasswordProblem::OneCharacter)
        );
        assert_eq!(
            check("Password1234", "a@b.c"),
            Err(PasswordProblem::TooCommon)
        );
        assert_eq!(
            check("alice-is-my-password", "alice@example.com"),
            Err(PasswordProblem::ContainsEmail)
        );
        assert!(PasswordProblem::TooShort.to_string().contains("12"));
    }
}
