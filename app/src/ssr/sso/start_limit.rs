//! 20 provider sign-in starts per 15 minutes per client address, as the
//! application Tally replaces limits them: a burst of 20, then one more
//! every 45 seconds.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::ssr::limiter::{self, ClientKey};

/// Starts a client address may make at once.
pub const BURST: u32 = 20;
/// The window the burst refills over.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

pub struct StartLimit {
    limiter: DefaultKeyedRateLimiter<ClientKey>,
    clock: DefaultClock,
}

impl Default for StartLimit {
    fn default() -> Self {
        let burst = NonZeroU32::new(BURST).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::with_period(WINDOW / BURST)
            .unwrap_or_else(|| Quota::per_minute(NonZeroU32::MIN))
            .allow_burst(burst);
        Self {
            limiter: RateLimiter::keyed(quota),
            clock: DefaultClock::default(),
        }
    }
}

impl StartLimit {
    /// Forgets idle addresses every `limiter::PRUNE_EVERY` (needs the
    /// runtime).
    pub fn spawn_pruning(self) -> Arc<Self> {
        let limit = Arc::new(self);
        limiter::spawn_pruning(&limit, limiter::PRUNE_EVERY, |limit: &Self| {
            limit.limiter.retain_recent();
        });
        limit
    }

    /// Counts one start from `client`; `Err(wait)` over the limit.
    pub fn check(&self, client: ClientKey) -> Result<(), Duration> {
        let now = self.clock.now();
        self.limiter
            .check_key(&client)
            .map_err(|limit| limit.wait_time_from(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    #[test]
    fn the_twenty_first_start_waits_and_addresses_are_counted_apart() {
        let limit = StartLimit::default();
        let one = ClientKey::of(IpAddr::from([192, 0, 2, 1]));
        for _ in 0..20 {
            assert!(limit.check(one).is_ok());
        }
        let wait = limit.check(one).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(45),
            "{wait:?}"
        );
        assert!(limit
            .check(ClientKey::of(IpAddr::from([192, 0, 2, 2])))
            .is_ok());
    }
}
