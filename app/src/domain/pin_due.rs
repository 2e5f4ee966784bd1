//! "Pin due": the Tracker's order that puts what needs the person first —
//! missed, then late, then due within three days, then upcoming, then the
//! rest (paid, skipped) — each group by due date. A per-user switch (the
//! Tracker's "Pin due first" button, kept on the server); a `sort` in the
//! address still wins, so a bookmarked view stays exactly that view.

use super::date::Date;
use super::tracker::Status;

/// Overdue by at most this many days is "late" (a transfer may still be on
/// its way); longer is "missed".
pub const LATE_DAYS: i64 = 3;

/// Not yet paid and due from today through this many days ahead comes
/// right after what is overdue.
pub const SHORTLY_DAYS: i64 = 3;

/// Where an occurrence goes in the pinned order, first to last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pin {
    Missed,
    Late,
    DueShortly,
    Upcoming,
    Rest,
}

/// The group of an occurrence with `status`, due on `due`, seen `today`.
pub fn pin(status: Status, due: Date, today: Date) -> Pin {
    let days_after_due = today.days_since_epoch() - due.days_since_epoch();
    match status {
        Status::Overdue if days_after_due > LATE_DAYS => Pin::Missed,
        Status::Overdue => Pin::Late,
        Status::DueSoon | Status::Upcoming if -days_after_due <= SHORTLY_DAYS => Pin::DueShortly,
        Status::DueSoon | Status::Upcoming => Pin::Upcoming,
        Status::Paid | Status::Skipped => Pin::Rest,
    }
}

/// The sort key of the pinned order: the group, then the due date (then
/// the caller's tie-break, such as the name).
pub fn pin_key(status: Status, due: &str, today: Date) -> (Pin, String) {
    let group = Date::parse(due).map_or(Pin::Rest, |due| pin(status, due, today));
    (group, due.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    #[test]
    fn the_groups_follow_the_days_around_today() {
        let today = day("2026-11-27");
        assert_eq!(pin(Status::Overdue, day("2026-11-20"), today), Pin::Missed);
        assert_eq!(pin(Status::Overdue, day("2026-11-23"), today), Pin::Missed);
        assert_eq!(pin(Status::Overdue, day("2026-11-24"), today), Pin::Late);
        assert_eq!(pin(Status::Overdue, day("2026-11-26"), today), Pin::Late);
        assert_eq!(
            pin(Status::DueSoon, day("2026-11-27"), today),
            Pin::DueShortly
        );
        assert_eq!(
            pin(Status::DueSoon, day("2026-11-30"), today),
            Pin::DueShortly
        );
        assert_eq!(
            pin(Status::DueSoon, day("2026-12-01"), today),
            Pin::Upcoming
        );
        assert_eq!(
            pin(Status::Upcoming, day("2026-12-20"), today),
            Pin::Upcoming
        );
        assert_eq!(pin(Status::Paid, day("2026-11-20"), today), Pin::Rest);
        assert_eq!(pin(Status::Skipped, day("2026-11-28"), today), Pin::Rest);
    }

    #[test]
    fn the_order_is_missed_late_shortly_upcoming_then_the_rest_by_date() {
        let today = day("2026-11-27");
        let mut rows = [
            ("paid early", Status::Paid, "2026-11-01"),
            ("next month", Status::Upcoming, "2026-12-15"),
            ("tomorrow", Status::DueSoon, "2026-11-28"),
            ("yesterday", Status::Overdue, "2026-11-26"),
            ("long ago", Status::Overdue, "2026-11-02"),
            ("today", Status::DueSoon, "2026-11-27"),
            ("skipped", Status::Skipped, "2026-11-29"),
        ];
        rows.sort_by_key(|(name, status, due)| (pin_key(*status, due, today), *name));
        let names: Vec<&str> = rows.iter().map(|(name, _, _)| *name).collect();
        assert_eq!(
            names,
            [
                "long ago",
                "yesterday",
                "today",
                "tomorrow",
                "next month",
                "paid early",
                "skipped"
            ]
        );
    }
}
