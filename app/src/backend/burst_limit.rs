//! A burst per key, refilled evenly over a window: what the public forms'
//! limit (`RATE_LIMIT_PER_MINUTE` per address), the bank's sync limit (10
//! per 15 minutes per user) and single sign-on's start limit (20 per 15
//! minutes per address) all are. Over any window a key makes at
//! most the burst plus what has refilled.

use std::hash::Hash;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::backend::limiter;

pub struct BurstLimit<K: Clone + Hash + Eq> {
    limiter: DefaultKeyedRateLimiter<K>,
    clock: DefaultClock,
}

impl<K: Clone + Hash + Eq + Send + Sync + 'static> BurstLimit<K> {
    /// `burst` at once, then one more every `window / burst`.
    pub fn new(burst: u32, window: Duration) -> Self {
        let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::with_period(window / burst.get())
            .unwrap_or_else(|| Quota::per_minute(NonZeroU32::MIN))
            .allow_burst(burst);
        Self {
            limiter: RateLimiter::keyed(quota),
            clock: DefaultClock::default(),
        }
    }

    /// Forgets idle keys every `limiter::PRUNE_EVERY` (needs the runtime).
    pub fn spawn_pruning(self) -> Arc<Self> {
        let limit = Arc::new(self);
        limiter::spawn_pruning(&limit, limiter::PRUNE_EVERY, |limit: &Self| {
            limit.limiter.retain_recent();
        });
        limit
    }

    /// Counts one request of `key`; `Err(wait)` over the limit.
    pub fn check(&self, key: &K) -> Result<(), Duration> {
        let now = self.clock.now();
        self.limiter
            .check_key(key)
            .map_err(|limit| limit.wait_time_from(now))
    }
}
