//! "Send test" is limited to 5 sends per 15 minutes per person: it goes
//! out through the server's SMTP and the channels' services at once, and
//! nothing else would stop a script from pressing it all day. A burst of
//! 5, then one more every 3 minutes: over any 15 minutes nobody sends more
//! than 5 + what has refilled.

use std::time::Duration;

use crate::backend::burst_limit::BurstLimit;

/// Test sends a person may make at once.
pub const BURST: u32 = 5;
/// The window the burst refills over.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

/// Test sends per signed-in user.
pub type TestLimit = BurstLimit<i64>;

pub fn test_limit() -> TestLimit {
    BurstLimit::new(BURST, WINDOW)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixth_test_waits_and_people_are_counted_apart() {
        let limit = test_limit();
        for _ in 0..5 {
            assert!(limit.check(&1).is_ok());
        }
        let wait = limit.check(&1).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(180),
            "{wait:?}"
        );
        assert!(limit.check(&2).is_ok());
    }
}
