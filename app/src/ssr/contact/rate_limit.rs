//! `RATE_LIMIT_PER_MINUTE`: public form submissions per client IP (an IPv6
//! client by its /64, see `limiter::ClientKey`), leads and support requests
//! together. It runs first, so a limited request never reaches the bot
//! check, the database or the CRM.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::ssr::limiter::{self, ClientKey};

pub struct FormRateLimit {
    limiter: DefaultKeyedRateLimiter<ClientKey>,
    clock: DefaultClock,
}

impl FormRateLimit {
    pub fn new(per_minute: NonZeroU32) -> Self {
        Self {
            limiter: RateLimiter::keyed(Quota::per_minute(per_minute)),
            clock: DefaultClock::default(),
        }
    }

    /// Shares the limit and drops idle clients every `limiter::PRUNE_EVERY`
    /// for as long as it lives (needs the runtime). Pruning on a timer
    /// rather than when the map is big keeps a flood of addresses from
    /// making every request scan it.
    pub fn spawn_pruning(self) -> Arc<Self> {
        let limit = Arc::new(self);
        limiter::spawn_pruning(&limit, limiter::PRUNE_EVERY, |limit: &Self| {
            limit.limiter.retain_recent();
        });
        limit
    }

    /// Counts one submission; `Err(wait)` when the client is over its limit.
    pub fn check(&self, ip: IpAddr) -> Result<(), Duration> {
        let now = self.clock.now();
        self.limiter
            .check_key(&ClientKey::of(ip))
            .map_err(|limit| limit.wait_time_from(now))
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

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        let limit = FormRateLimit::new(NonZeroU32::MIN.saturating_add(4));
        for n in 1..=5u16 {
            assert!(limit
                .check(IpAddr::from([0x2001, 0xdb8, 0, 0, 0, 0, 0, n]))
                .is_ok());
        }
        assert!(limit
            .check(IpAddr::from([0x2001, 0xdb8, 0, 0, 0, 0, 0, 6]))
            .is_err());
        assert!(limit
            .check(IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, 1]))
            .is_ok());
    }
}
