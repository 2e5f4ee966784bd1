//! 20 provider sign-in starts per 15 minutes per client address, as the
//! application Tally replaces limits them: a burst of 20, then one more
//! every 45 seconds.

use std::time::Duration;

use crate::backend::burst_limit::BurstLimit;
use crate::backend::limiter::ClientKey;

/// Starts a client address may make at once.
pub const BURST: u32 = 20;
/// The window the burst refills over.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

/// Sign-in starts per client address.
pub type StartLimit = BurstLimit<ClientKey>;

pub fn start_limit() -> StartLimit {
    BurstLimit::new(BURST, WINDOW)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    #[test]
    fn the_twenty_first_start_waits_and_addresses_are_counted_apart() {
        let limit = start_limit();
        let one = ClientKey::of(IpAddr::from([192, 0, 2, 1]));
        for _ in 0..20 {
            assert!(limit.check(&one).is_ok());
        }
        let wait = limit.check(&one).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(45),
            "{wait:?}"
        );
        assert!(limit
            .check(&ClientKey::of(IpAddr::from([192, 0, 2, 2])))
            .is_ok());
    }
}
