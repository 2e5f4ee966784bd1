//! Which days a bank sync asks the provider for, counted back from the
//! moment of the request: the first (seed) sync and a backfill ask for the
//! last 44 days, a routine sync (manual or automatic) for the last 30, and
//! nothing ever reaches past the provider's own 45-day lookback cap.

/// Days the seed sync and a backfill fetch.
pub const SEED_DAYS: i64 = 44;
/// Days a routine sync fetches.
pub const ROUTINE_DAYS: i64 = 30;
/// The provider's lookback cap: no request starts earlier than this.
pub const LOOKBACK_CAP_DAYS: i64 = 45;

const DAY: i64 = 86_400;

/// Why a sync runs, which sets how far back it looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncReason {
    /// The first sync of a new (or reconnected) connection.
    Seed,
    /// A re-fetch of the whole seed window, to fill gaps.
    Backfill,
    /// A manual "sync now" or the automatic worker.
    Routine,
}

impl SyncReason {
    pub fn days(self) -> i64 {
        match self {
            Self::Seed | Self::Backfill => SEED_DAYS,
            Self::Routine => ROUTINE_DAYS,
        }
    }
}

/// A request window in epoch seconds: `start` inclusive, `end` exclusive,
/// as the provider's `start-date` and `end-date` take them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncWindow {
    pub start: i64,
    pub end: i64,
}

impl SyncWindow {
    /// The window for `reason` at `now` (epoch seconds); the end is one
    /// second past `now` so a transaction posted this very second counts.
    pub fn at(now: i64, reason: SyncReason) -> Self {
        let days = reason.days().min(LOOKBACK_CAP_DAYS);
        let cap = now - LOOKBACK_CAP_DAYS * DAY;
        Self {
            start: (now - days * DAY).max(cap),
            end: now + 1,
        }
    }

    /// Whether a posted time falls inside the window.
    pub fn contains(self, at: i64) -> bool {
        (self.start..self.end).contains(&at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_790_000_000;

    #[test]
    fn seed_and_backfill_look_back_44_days_routine_30() {
        assert_eq!(SyncWindow::at(NOW, SyncReason::Seed).start, NOW - 44 * DAY);
        assert_eq!(
            SyncWindow::at(NOW, SyncReason::Backfill).start,
            NOW - 44 * DAY
        );
        assert_eq!(
            SyncWindow::at(NOW, SyncReason::Routine).start,
            NOW - 30 * DAY
        );
        assert_eq!(SyncWindow::at(NOW, SyncReason::Routine).end, NOW + 1);
    }

    #[test]
    fn no_window_reaches_past_the_providers_cap() {
        for reason in [SyncReason::Seed, SyncReason::Backfill, SyncReason::Routine] {
            let window = SyncWindow::at(NOW, reason);
            assert!(window.start >= NOW - LOOKBACK_CAP_DAYS * DAY, "{reason:?}");
            assert!(window.contains(NOW) && !window.contains(window.end));
        }
    }
}
