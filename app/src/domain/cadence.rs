//! How often a bill comes due, and when it is due next. Day-based cadences
//! (weekly, biweekly, every N days) repeat from the bill's anchor date;
//! month-based ones (monthly, quarterly, yearly, every N months) fall on the
//! due day of every Nth month from the anchor's month, on the month's last
//! day when it is shorter (a bill due on the 31st is due on 28 or 29
//! February and 30 April).

use std::fmt;

use super::date::Date;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cadence {
    Weekly,
    Biweekly,
    Monthly,
    Quarterly,
    Yearly,
    EveryDays(u16),
    EveryMonths(u16),
}

/// The groups of the Subscriptions page's Cadence sort, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CadenceGroup {
    Weekly,
    Biweekly,
    Monthly,
    Quarterly,
    Yearly,
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CadenceError {
    #[error("choose weekly, biweekly, monthly, quarterly, yearly, or every N days or months")]
    Unknown,
    #[error("the interval must be from 1 to 366")]
    Interval,
}

enum Step {
    Days(i64),
    Months(i64),
}

impl Cadence {
    /// From the stored pair (`bills.cadence`, `bills.cadence_interval`).
    pub fn parse(kind: &str, interval: i64) -> Result<Self, CadenceError> {
        let every = || {
            u16::try_from(interval)
                .ok()
                .filter(|n| (1..=366).contains(n))
                .ok_or(CadenceError::Interval)
        };
        Ok(match kind {
            "weekly" => Self::Weekly,
            "biweekly" => Self::Biweekly,
            "monthly" => Self::Monthly,
            "quarterly" => Self::Quarterly,
            "yearly" => Self::Yearly,
            "custom_days" => Self::EveryDays(every()?),
            "custom_months" => Self::EveryMonths(every()?),
            _ => return Err(CadenceError::Unknown),
        })
    }

    /// The stored pair.
    pub fn to_stored(self) -> (&'static str, i64) {
        match self {
            Self::Weekly => ("weekly", 1),
            Self::Biweekly => ("biweekly", 1),
            Self::Monthly => ("monthly", 1),
            Self::Quarterly => ("quarterly", 1),
            Self::Yearly => ("yearly", 1),
            Self::EveryDays(n) => ("custom_days", i64::from(n)),
            Self::EveryMonths(n) => ("custom_months", i64::from(n)),
        }
    }

    fn step(self) -> Step {
        match self {
            Self::Weekly => Step::Days(7),
            Self::Biweekly => Step::Days(14),
            Self::EveryDays(n) => Step::Days(i64::from(n.max(1))),
            Self::Monthly => Step::Months(1),
            Self::Quarterly => Step::Months(3),
            Self::Yearly => Step::Months(12),
            Self::EveryMonths(n) => Step::Months(i64::from(n.max(1))),
        }
    }

    pub fn group(self) -> CadenceGroup {
        match self {
            Self::Weekly | Self::EveryDays(7) => CadenceGroup::Weekly,
            Self::Biweekly | Self::EveryDays(14) => CadenceGroup::Biweekly,
            Self::Monthly | Self::EveryMonths(1) => CadenceGroup::Monthly,
            Self::Quarterly | Self::EveryMonths(3) => CadenceGroup::Quarterly,
            Self::Yearly | Self::EveryMonths(12) => CadenceGroup::Yearly,
            Self::EveryDays(_) | Self::EveryMonths(_) => CadenceGroup::Other,
        }
    }

    /// What `amount` (minor units) each time costs in a year, rounded to
    /// the nearest minor unit (365 days a year for day-based cadences).
    pub fn yearly_cost(self, amount: i64) -> i64 {
        let (times, per) = match self.step() {
            Step::Days(days) => (365, days),
            Step::Months(months) => (12, months),
        };
        let total = i128::from(amount) * times;
        let per = i128::from(per);
        i64::try_from((total + per / 2) / per).unwrap_or(i64::MAX)
    }

    /// A twelfth of [`Cadence::yearly_cost`], rounded.
    pub fn monthly_cost(self, amount: i64) -> i64 {
        (self.yearly_cost(amount) + 6) / 12
    }

    /// The first due date on or after `from` (and never before `anchor`).
    /// `due_day` matters for month-based cadences only.
    pub fn next_due(self, anchor: Date, due_day: u8, from: Date) -> Option<Date> {
        let target = from.max(anchor);
        match self.step() {
            Step::Days(step) => {
                let behind = target.days_since_epoch() - anchor.days_since_epoch();
                let steps = (behind + step - 1).div_euclid(step);
                anchor.add_days(steps * step)
            }
            Step::Months(step) => {
                let months_between = (i64::from(target.year()) - i64::from(anchor.year())) * 12
                    + i64::from(target.month())
                    - i64::from(anchor.month());
                // Start one step early: the occurrence in the target's own
                // month may still be ahead of it.
                let mut k = (months_between.div_euclid(step) - 1).max(0);
                loop {
                    let due = anchor.add_months_on_day(k * step, due_day)?;
                    if due >= target {
                        return Some(due);
                    }
                    k += 1;
                }
            }
        }
    }
}

impl fmt::Display for Cadence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Weekly => f.write_str("Weekly"),
            Self::Biweekly => f.write_str("Every two weeks"),
            Self::Monthly => f.write_str("Monthly"),
            Self::Quarterly => f.write_str("Quarterly"),
            Self::Yearly => f.write_str("Yearly"),
            Self::EveryDays(1) => f.write_str("Daily"),
            Self::EveryDays(n) => write!(f, "Every {n} days"),
            Self::EveryMonths(1) => f.write_str("Monthly"),
            Self::EveryMonths(n) => write!(f, "Every {n} months"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn date(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    #[test]
    fn month_ends_and_leap_years() {
        let anchor = date("2026-01-31");
        let monthly = Cadence::Monthly;
        assert_eq!(
            monthly.next_due(anchor, 31, date("2026-02-01")),
            Some(date("2026-02-28"))
        );
        assert_eq!(
            monthly.next_due(anchor, 31, date("2028-02-10")),
            Some(date("2028-02-29"))
        );
        assert_eq!(
            monthly.next_due(anchor, 31, date("2026-04-05")),
            Some(date("2026-04-30"))
        );
        assert_eq!(
            monthly.next_due(anchor, 31, date("2026-05-01")),
            Some(date("2026-05-31"))
        );
        // Due on the day itself counts.
        assert_eq!(
            monthly.next_due(anchor, 31, date("2026-05-31")),
            Some(date("2026-05-31"))
        );
        let leap = Cadence::Yearly;
        assert_eq!(
            leap.next_due(date("2024-02-29"), 29, date("2025-01-01")),
            Some(date("2025-02-28"))
        );
        assert_eq!(
            leap.next_due(date("2024-02-29"), 29, date("2027-03-01")),
            Some(date("2028-02-29"))
        );
    }

    #[test]
    fn day_based_cadences_count_from_the_anchor() {
        let anchor = date("2026-11-02");
        assert_eq!(
            Cadence::Weekly.next_due(anchor, 1, date("2026-11-03")),
            Some(date("2026-11-09"))
        );
        assert_eq!(
            Cadence::Biweekly.next_due(anchor, 1, date("2026-11-16")),
            Some(date("2026-11-16"))
        );
        assert_eq!(
            Cadence::EveryDays(10).next_due(anchor, 1, date("2026-10-01")),
            Some(anchor)
        );
        assert_eq!(
            Cadence::Quarterly.next_due(date("2026-01-15"), 15, date("2026-02-01")),
            Some(date("2026-04-15"))
        );
    }

    #[test]
    fn stored_pairs_round_trip_and_costs_add_up() {
        for cadence in [
            Cadence::Weekly,
            Cadence::Biweekly,
            Cadence::Monthly,
            Cadence::Quarterly,
            Cadence::Yearly,
            Cadence::EveryDays(10),
            Cadence::EveryMonths(6),
        ] {
            let (kind, interval) = cadence.to_stored();
            assert_eq!(Cadence::parse(kind, interval), Ok(cadence));
        }
        assert_eq!(
            Cadence::parse("custom_days", 0),
            Err(CadenceError::Interval)
        );
        assert_eq!(Cadence::parse("fortnightly", 1), Err(CadenceError::Unknown));
        assert_eq!(Cadence::Monthly.yearly_cost(1299), 15_588);
        assert_eq!(Cadence::Weekly.yearly_cost(1000), 52_143);
        assert_eq!(Cadence::Yearly.monthly_cost(12_000), 1000);
        assert_eq!(Cadence::EveryMonths(12).group(), CadenceGroup::Yearly);
        assert_eq!(Cadence::EveryDays(10).group(), CadenceGroup::Other);
    }

    fn cadence() -> impl Strategy<Value = Cadence> {
        prop_oneof![
            Just(Cadence::Weekly),
            Just(Cadence::Biweekly),
            Just(Cadence::Monthly),
            Just(Cadence::Quarterly),
            Just(Cadence::Yearly),
            (1_u16..=366).prop_map(Cadence::EveryDays),
            (1_u16..=24).prop_map(Cadence::EveryMonths),
        ]
    }

    proptest! {
        /// The next due date is on or after the asked day and the anchor,
        /// falls on the schedule, and no earlier scheduled date was skipped.
        #[test]
        fn next_due_is_the_first_scheduled_date_not_before_from(
            cadence in cadence(),
            anchor_days in 18_000_i64..22_000,
            ahead in -400_i64..4000,
            due_day in 1_u8..=31,
        ) {
            let anchor = Date::from_days_since_epoch(anchor_days).unwrap();
            let from = anchor.add_days(ahead).unwrap();
            let due = cadence.next_due(anchor, due_day, from).unwrap();
            prop_assert!(due >= from && due >= anchor);
            match cadence.step() {
                Step::Days(step) => {
                    let since = due.days_since_epoch() - anchor.days_since_epoch();
                    prop_assert_eq!(since % step, 0);
                    prop_assert!(since < step || due.add_days(-step).unwrap() < from.max(anchor));
                }
                Step::Months(step) => {
                    let expected = Date::clamped(due.year(), due.month(), due_day).unwrap();
                    prop_assert_eq!(due, expected, "on the due day or the month's last day");
                    let months = (i64::from(due.year()) - i64::from(anchor.year())) * 12
                        + i64::from(due.month()) - i64::from(anchor.month());
                    prop_assert_eq!(months % step, 0);
                    if months >= step {
                        let before = anchor.add_months_on_day(months - step, due_day).unwrap();
                        prop_assert!(before < from.max(anchor));
                    }
                }
            }
        }
    }
}
