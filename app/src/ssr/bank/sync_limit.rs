//! The spec's limit on starting syncs: 10 requests per 15 minutes per
//! signed-in user, over `POST …/{id}/sync`, `…/sync-all` and
//! `…/{id}/backfill` together (the bank router's GET routes are not
//! limited). A burst of 10, then one more every 90 seconds: over any 15
//! minutes no user starts more than 10 + what has refilled.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::ssr::limiter;

/// Requests a user may make at once.
pub const BURST: u32 = 10;
/// The window the burst refills over.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

pub struct SyncLimit {
    limiter: DefaultKeyedRateLimiter<i64>,
    clock: DefaultClock,
}

impl Default for SyncLimit {
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

impl SyncLimit {
    /// Forgets idle users every `limiter::PRUNE_EVERY` (needs the runtime).
    pub fn spawn_pruning(self) -> Arc<Self> {
        let limit = Arc::new(self);
        limiter::spawn_pruning(&limit, limiter::PRUNE_EVERY, |limit: &Self| {
            limit.limiter.retain_recent();
        });
        limit
    }

    /// Counts one sync request of `user_id`; `Err(wait)` over the limit.
    pub fn check(&self, user_id: i64) -> Result<(), Duration> {
        let now = self.clock.now();
        self.limiter
            .check_key(&user_id)
            .map_err(|limit| limit.wait_time_from(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eleventh_request_waits_and_users_are_counted_apart() {
        let limit = SyncLimit::default();
        for _ in 0..10 {
            assert!(limit.check(1).is_ok());
        }
        let wait = limit.check(1).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(90),
            "{wait:?}"
        );
        assert!(limit.check(2).is_ok());
    }
}
