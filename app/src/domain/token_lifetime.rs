//! How long a personal API token lives, chosen when it is made. Shared by
//! the browser (the choices in Profile), the server (which decides) and the
//! `tally token create` command. There is no "never": a leaked token stops
//! working on its own, at the latest a year after it was made.

/// The lifetime when none is chosen.
pub const DEFAULT_DAYS: u16 = 90;
/// The longest lifetime a token can have.
pub const MAX_DAYS: u16 = 365;
/// The lifetimes Profile offers.
pub const CHOICES: [u16; 4] = [7, 30, 90, 365];

/// A token lifetime in whole days, 1 to [`MAX_DAYS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenLifetime(u16);

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a token lives from 1 to {MAX_DAYS} days; {0} is outside that")]
pub struct LifetimeOutOfRange(pub i64);

impl TokenLifetime {
    pub fn parse(days: i64) -> Result<Self, LifetimeOutOfRange> {
        u16::try_from(days)
            .ok()
            .filter(|days| (1..=MAX_DAYS).contains(days))
            .map(Self)
            .ok_or(LifetimeOutOfRange(days))
    }

    pub fn days(self) -> u16 {
        self.0
    }
}

impl Default for TokenLifetime {
    fn default() -> Self {
        Self(DEFAULT_DAYS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_day_to_a_year_and_nothing_else() {
        assert_eq!(TokenLifetime::parse(1).map(TokenLifetime::days), Ok(1));
        assert_eq!(TokenLifetime::parse(365).map(TokenLifetime::days), Ok(365));
        for days in [0, -1, 366, i64::from(u16::MAX) + 1, i64::MAX, i64::MIN] {
            assert_eq!(TokenLifetime::parse(days), Err(LifetimeOutOfRange(days)));
        }
        assert_eq!(TokenLifetime::default().days(), DEFAULT_DAYS);
        assert!(CHOICES.contains(&DEFAULT_DAYS));
        assert!(CHOICES
            .iter()
            .all(|days| TokenLifetime::parse(i64::from(*days)).is_ok()));
    }
}
