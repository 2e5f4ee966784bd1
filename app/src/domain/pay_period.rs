//! Pay periods: instead of the calendar month, the Tracker can show the
//! days from one payday up to the next. A schedule is how often pay comes
//! (Profile → Preferences) and, except for twice a month, one known payday
//! to count from.

use std::fmt;

use super::date::Date;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaySchedule {
    Weekly,
    Biweekly,
    /// On the 1st and the 15th.
    SemiMonthly,
    /// On the payday's day of the month (the month's last day when shorter).
    Monthly,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PayScheduleError {
    #[error("choose weekly, biweekly, semimonthly or monthly")]
    Unknown,
}

impl PaySchedule {
    pub const ALL: [Self; 4] = [
        Self::Weekly,
        Self::Biweekly,
        Self::SemiMonthly,
        Self::Monthly,
    ];

    pub fn parse(text: &str) -> Result<Self, PayScheduleError> {
        Self::ALL
            .into_iter()
            .find(|schedule| schedule.as_str() == text)
            .ok_or(PayScheduleError::Unknown)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Weekly => "weekly",
            Self::Biweekly => "biweekly",
            Self::SemiMonthly => "semimonthly",
            Self::Monthly => "monthly",
        }
    }

    /// Whether periods are counted from a known payday.
    pub fn needs_payday(self) -> bool {
        self != Self::SemiMonthly
    }

    /// The pay period holding `today`: its first day (a payday) and its
    /// last (the day before the next payday). `payday` is any one payday;
    /// it is ignored twice a month.
    pub fn period_containing(self, payday: Date, today: Date) -> Option<(Date, Date)> {
        match self {
            Self::Weekly => Some(every_days(7, payday, today)),
            Self::Biweekly => Some(every_days(14, payday, today)),
            Self::SemiMonthly => {
                if today.day() < 15 {
                    let first = Date::new(today.year(), today.month(), 1)?;
                    Some((first, Date::new(today.year(), today.month(), 14)?))
                } else {
                    let first = Date::new(today.year(), today.month(), 15)?;
                    Some((first, Date::clamped(today.year(), today.month(), 31)?))
                }
            }
            Self::Monthly => {
                let day = payday.day();
                let this_month = Date::clamped(today.year(), today.month(), day)?;
                let first = if this_month <= today {
                    this_month
                } else {
                    this_month.add_months_on_day(-1, day)?
                };
                let next = first.add_months_on_day(1, day)?;
                Some((first, next.add_days(-1)?))
            }
        }
    }
}

/// Every `step` days from `payday`, before or after it.
fn every_days(step: i64, payday: Date, today: Date) -> (Date, Date) {
    let offset = (today.days_since_epoch() - payday.days_since_epoch()).rem_euclid(step);
    let first = today.add_days(-offset).unwrap_or(today);
    (first, first.add_days(step - 1).unwrap_or(first))
}

impl fmt::Display for PaySchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Weekly => "Weekly",
            Self::Biweekly => "Every two weeks",
            Self::SemiMonthly => "Twice a month (1st and 15th)",
            Self::Monthly => "Monthly",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn date(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    fn period(schedule: PaySchedule, payday: &str, today: &str) -> (String, String) {
        let (first, last) = schedule
            .period_containing(date(payday), date(today))
            .unwrap();
        (first.to_string(), last.to_string())
    }

    #[test]
    fn periods_run_from_a_payday_to_the_day_before_the_next() {
        let biweekly = |today| period(PaySchedule::Biweekly, "2026-11-13", today);
        assert_eq!(
            biweekly("2026-11-22"),
            ("2026-11-13".into(), "2026-11-26".into())
        );
        assert_eq!(
            biweekly("2026-11-27"),
            ("2026-11-27".into(), "2026-12-10".into())
        );
        assert_eq!(
            biweekly("2026-11-01"),
            ("2026-10-30".into(), "2026-11-12".into()),
            "a payday in the future counts back too"
        );
        assert_eq!(
            period(PaySchedule::Weekly, "2026-11-20", "2026-11-22"),
            ("2026-11-20".into(), "2026-11-26".into())
        );
        assert_eq!(
            period(PaySchedule::SemiMonthly, "2026-01-01", "2026-02-20"),
            ("2026-02-15".into(), "2026-02-28".into())
        );
        assert_eq!(
            period(PaySchedule::SemiMonthly, "2026-01-01", "2026-02-14"),
            ("2026-02-01".into(), "2026-02-14".into())
        );
        // Paid on the 31st: on the last day of shorter months.
        assert_eq!(
            period(PaySchedule::Monthly, "2026-01-31", "2026-03-05"),
            ("2026-02-28".into(), "2026-03-30".into())
        );
        assert_eq!(
            period(PaySchedule::Monthly, "2026-01-31", "2026-03-31"),
            ("2026-03-31".into(), "2026-04-29".into())
        );
    }

    #[test]
    fn schedules_read_back_what_they_write() {
        for schedule in PaySchedule::ALL {
            assert_eq!(PaySchedule::parse(schedule.as_str()), Ok(schedule));
        }
        assert!(PaySchedule::parse("fortnightly").is_err());
    }

    proptest! {
        /// Every day lies in exactly one period, and consecutive periods
        /// meet without a gap or an overlap.
        #[test]
        fn periods_hold_today_and_tile_the_calendar(
            schedule in prop::sample::select(PaySchedule::ALL.to_vec()),
            payday in 0_i64..3000,
            today in 0_i64..3000,
        ) {
            let start = date("2024-01-01");
            let payday = start.add_days(payday).unwrap();
            let today = start.add_days(today).unwrap();
            let (first, last) = schedule.period_containing(payday, today).unwrap();
            prop_assert!(first <= today && today <= last);
            let length = last.days_since_epoch() - first.days_since_epoch() + 1;
            prop_assert!((7..=31).contains(&length) || schedule == PaySchedule::SemiMonthly);
            let (next_first, _) = schedule
                .period_containing(payday, last.add_days(1).unwrap())
                .unwrap();
            prop_assert_eq!(next_first, last.add_days(1).unwrap());
        }
    }
}
