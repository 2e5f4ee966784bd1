//! The calendar's clock: the one "now" every rule about dates reads
//! (today in a person's zone, the month interest is charged through, the
//! day a reminders run is for, how far back bank matching and
//! recommendations look, the window a bank sync asks for).
//!
//! In a build with the `test-clock` feature (on only in `cargo test` and
//! `cargo bench`, through the server's dev-dependency) the calendar can be
//! moved to another day with `TALLY_TEST_TODAY=YYYY-MM-DD`: the clock then
//! runs that many whole days ahead or behind, keeping the time of day, so
//! the suites that depend on the date run on the last day of a month, on
//! 29 February or on 31 December whatever day it really is. A release or
//! `make run` build has no such setting: the feature is not compiled in.
//!
//! Security timestamps (sessions, tokens, rate limits, sign-in history,
//! expiry of uploads) stay on the real clock and in SQL's `'now'`: moving
//! them would sign test browsers out or let a real provider's tokens look
//! expired, and no calendar rule reads them.

use jiff::{SignedDuration, Timestamp};

/// Now, on the calendar's clock.
pub fn now() -> Timestamp {
    let real = Timestamp::now();
    real.checked_add(offset()).unwrap_or(real)
}

/// [`now`] as SQLite compares stored instants (`2026-12-02T11:20:31Z`), for
/// queries that look back from the calendar's now.
pub fn now_sql() -> String {
    now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// [`now`] as Tally stores instants (`2026-12-02T11:20:31.123Z`, SQL's
/// `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`), for rows a date rule later
/// reads back (a declined recommendation's day).
pub fn now_stored() -> String {
    now().strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// How far the calendar is moved from the real clock (zero unless a test
/// moved it).
pub fn offset() -> SignedDuration {
    moved::offset()
}

#[cfg(feature = "test-clock")]
mod moved {
    use std::sync::OnceLock;

    use jiff::civil::Date;
    use jiff::{SignedDuration, Timestamp};

    /// The setting a test sets to move the calendar.
    pub const TODAY: &str = "TALLY_TEST_TODAY";

    pub fn offset() -> SignedDuration {
        static OFFSET: OnceLock<SignedDuration> = OnceLock::new();
        *OFFSET.get_or_init(|| {
            std::env::var(TODAY)
                .ok()
                .and_then(|day| day.trim().parse::<Date>().ok())
                .map(|day| days_between(Timestamp::now(), day))
                .unwrap_or(SignedDuration::ZERO)
        })
    }

    /// Whole days from the UTC date of `real` to `day`.
    pub fn days_between(real: Timestamp, day: Date) -> SignedDuration {
        let today = real.to_zoned(jiff::tz::TimeZone::UTC).date();
        let days = today
            .until(day)
            .map(|span| i64::from(span.get_days()))
            .unwrap_or(0);
        SignedDuration::from_hours(days.saturating_mul(24))
    }
}

#[cfg(not(feature = "test-clock"))]
mod moved {
    use jiff::SignedDuration;

    pub fn offset() -> SignedDuration {
        SignedDuration::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sql_form_is_what_sqlite_compares() {
        let stamp = now_sql();
        assert_eq!(stamp.len(), "2026-12-02T11:20:31Z".len(), "{stamp}");
        assert!(stamp.ends_with('Z'));
        let stored = now_stored();
        assert_eq!(stored.len(), "2026-12-02T11:20:31.123Z".len(), "{stored}");
    }

    #[cfg(feature = "test-clock")]
    #[test]
    fn a_moved_calendar_keeps_the_time_of_day_and_lands_on_the_day() {
        let real: Timestamp = "2026-12-02T23:59:30Z".parse().unwrap();
        for day in [
            "2027-02-28",
            "2028-02-29",
            "2026-12-31",
            "2027-01-01",
            "2026-01-01",
        ] {
            let day: jiff::civil::Date = day.parse().unwrap();
            let moved = real + moved::days_between(real, day);
            let zoned = moved.to_zoned(jiff::tz::TimeZone::UTC);
            assert_eq!(zoned.date(), day);
            assert_eq!(zoned.time(), real.to_zoned(jiff::tz::TimeZone::UTC).time());
        }
    }
}
