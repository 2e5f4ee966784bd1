//! The spec's limit on starting syncs: 10 requests per 15 minutes per
//! signed-in user, over `POST …/{id}/sync`, `…/sync-all` and
//! `…/{id}/backfill` together (the bank router's GET routes are not
//! limited). A burst of 10, then one more every 90 seconds: over any 15
//! minutes no user starts more than 10 + what has refilled.

use std::time::Duration;

use crate::backend::burst_limit::BurstLimit;

/// Requests a user may make at once.
pub const BURST: u32 = 10;
/// The window the burst refills over.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

/// Sync requests per signed-in user.
pub type SyncLimit = BurstLimit<i64>;

pub fn sync_limit() -> SyncLimit {
    BurstLimit::new(BURST, WINDOW)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eleventh_request_waits_and_users_are_counted_apart() {
        let limit = sync_limit();
        for _ in 0..10 {
            assert!(limit.check(&1).is_ok());
        }
        let wait = limit.check(&1).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(90),
            "{wait:?}"
        );
        assert!(limit.check(&2).is_ok());
    }
}
