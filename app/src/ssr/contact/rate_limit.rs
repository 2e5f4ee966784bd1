//! `RATE_LIMIT_PER_MINUTE`: public form submissions per client IP, leads and
//! support requests together. It runs first, so a limited request never
//! reaches the bot check, the database or the CRM.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

pub struct FormRateLimit {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
}

impl FormRateLimit {
    pub fn new(per_minute: NonZeroU32) -> Self {
        Self {
            limiter: RateLimiter::keyed(Quota::per_minute(per_minute)),
            clock: DefaultClock::default(),
        }
    }

    /// Counts one submission; `Err(wait)` when the IP is over its limit.
    pub fn check(&self, ip: IpAddr) -> Result<(), Duration> {
        let now = self.clock.now();
        let result = self
            .limiter
            .check_key(&ip)
            .map_err(|limit| limit.wait_time_from(now));
        if self.limiter.len() > 10_000 {
            self.limiter.retain_recent();
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixth_submission_in_a_minute_waits() {
        let limit = FormRateLimit::new(NonZeroU32::MIN.saturating_add(4));
        let ip = IpAddr::from([192, 0, 2, 1]);
        for _ in 0..5 {
            assert!(limit.check(ip).is_ok());
        }
        let wait = limit.check(ip).unwrap_err();
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(60));
        assert!(limit.check(IpAddr::from([192, 0, 2, 2])).is_ok(), "per IP");
    }
}
