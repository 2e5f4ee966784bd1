//! `RATE_LIMIT_PER_MINUTE`: public form submissions per client IP (an IPv6
//! client by its /64, see `limiter::ClientKey`), leads and support requests
//! together. It runs first, so a limited request never reaches the bot
//! check, the database or the CRM.

use std::num::NonZeroU32;
use std::time::Duration;

use crate::backend::burst_limit::BurstLimit;
use crate::backend::limiter::ClientKey;

/// Submissions per client address: `per_minute` at once, refilled over a
/// minute. Shared (`spawn_pruning`), it drops idle clients on a timer
/// rather than when the map is big, so a flood of addresses never makes
/// every request scan it.
pub type FormRateLimit = BurstLimit<ClientKey>;

pub fn form_rate_limit(per_minute: NonZeroU32) -> FormRateLimit {
    BurstLimit::new(per_minute.get(), Duration::from_secs(60))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    /// Counts one submission from `ip`, as `intake` does.
    fn check(limit: &FormRateLimit, ip: IpAddr) -> Result<(), Duration> {
        limit.check(&ClientKey::of(ip))
    }

    #[test]
    fn the_sixth_submission_in_a_minute_waits() {
        let limit = form_rate_limit(NonZeroU32::MIN.saturating_add(4));
        let ip = IpAddr::from([192, 0, 2, 1]);
        for _ in 0..5 {
            assert!(check(&limit, ip).is_ok());
        }
        let wait = check(&limit, ip).unwrap_err();
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(60));
        assert!(
            check(&limit, IpAddr::from([192, 0, 2, 2])).is_ok(),
            "per IP"
        );
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        let limit = form_rate_limit(NonZeroU32::MIN.saturating_add(4));
        for n in 1..=5u16 {
            assert!(check(&limit, IpAddr::from([0x2001, 0xdb8, 0, 0, 0, 0, 0, n])).is_ok());
        }
        assert!(check(&limit, IpAddr::from([0x2001, 0xdb8, 0, 0, 0, 0, 0, 6])).is_err());
        assert!(check(&limit, IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, 1])).is_ok());
    }
}
