//! Calendar dates without a time zone (`2026-11-22`), for due dates and
//! interest months. Pure arithmetic on the proleptic Gregorian calendar, so
//! the browser and the server agree; which date is "today" for a user (their
//! time zone) is decided on the server.

use std::fmt;

/// A calendar date.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: i32,
    month: u8,
    day: u8,
}

/// A calendar month (`2026-11`), the unit interest is charged in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct YearMonth {
    pub year: i32,
    pub month: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a date like 2026-01-31")]
pub struct DateError(pub String);

pub fn is_leap_year(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

pub fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        _ => 28,
    }
}

impl Date {
    /// 1970-01-01.
    pub const EPOCH: Self = Self {
        year: 1970,
        month: 1,
        day: 1,
    };

    /// Years 1–9999 only: enough for bills, and every date prints as
    /// `YYYY-MM-DD`.
    pub fn new(year: i32, month: u8, day: u8) -> Option<Self> {
        let valid = (1..=9999).contains(&year)
            && (1..=12).contains(&month)
            && day >= 1
            && day <= days_in_month(year, month);
        valid.then_some(Self { year, month, day })
    }

    /// The date, with the day clamped to the month's last day: the 31st of
    /// February is the 28th (or the 29th in a leap year).
    pub fn clamped(year: i32, month: u8, day: u8) -> Option<Self> {
        if !(1..=12).contains(&month) {
            return None;
        }
        Self::new(year, month, day.clamp(1, days_in_month(year, month)))
    }

    pub fn parse(text: &str) -> Result<Self, DateError> {
        let bad = || DateError(text.to_owned());
        let bytes = text.as_bytes();
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return Err(bad());
        }
        let number = |range: std::ops::Range<usize>| -> Result<u32, DateError> {
            let part = &text[range];
            if part.bytes().all(|b| b.is_ascii_digit()) {
                part.parse().map_err(|_| bad())
            } else {
                Err(bad())
            }
        };
        let year = i32::try_from(number(0..4)?).map_err(|_| bad())?;
        let month = u8::try_from(number(5..7)?).map_err(|_| bad())?;
        let day = u8::try_from(number(8..10)?).map_err(|_| bad())?;
        Self::new(year, month, day).ok_or_else(bad)
    }

    pub fn year(self) -> i32 {
        self.year
    }

    pub fn month(self) -> u8 {
        self.month
    }

    pub fn day(self) -> u8 {
        self.day
    }

    pub fn year_month(self) -> YearMonth {
        YearMonth {
            year: self.year,
            month: self.month,
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    pub fn days_since_epoch(self) -> i64 {
        let year = i64::from(self.year) - i64::from(self.month <= 2);
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let month = i64::from(self.month);
        let day_of_year =
            (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }

    /// The date `days` after 1970-01-01 (`civil_from_days`).
    pub fn from_days_since_epoch(days: i64) -> Option<Self> {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let day_of_era = z - era * 146_097;
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let mp = (5 * day_of_year + 2) / 153;
        let day = day_of_year - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        Self::new(
            i32::try_from(year).ok()?,
            u8::try_from(month).ok()?,
            u8::try_from(day).ok()?,
        )
    }

    pub fn add_days(self, days: i64) -> Option<Self> {
        Self::from_days_since_epoch(self.days_since_epoch().checked_add(days)?)
    }

    /// `months` later on `day` of that month, clamped to its last day.
    pub fn add_months_on_day(self, months: i64, day: u8) -> Option<Self> {
        let index = i64::from(self.year) * 12 + i64::from(self.month) - 1 + months;
        let year = i32::try_from(index.div_euclid(12)).ok()?;
        let month = u8::try_from(index.rem_euclid(12) + 1).ok()?;
        Self::clamped(year, month, day)
    }

    /// Monday = 0 … Sunday = 6.
    pub fn weekday(self) -> u8 {
        // 1970-01-01 was a Thursday (3).
        u8::try_from((self.days_since_epoch() + 3).rem_euclid(7)).unwrap_or(0)
    }
}

impl YearMonth {
    pub fn next(self) -> Self {
        if self.month == 12 {
            Self {
                year: self.year + 1,
                month: 1,
            }
        } else {
            Self {
                year: self.year,
                month: self.month + 1,
            }
        }
    }

    pub fn previous(self) -> Self {
        if self.month == 1 {
            Self {
                year: self.year - 1,
                month: 12,
            }
        } else {
            Self {
                year: self.year,
                month: self.month - 1,
            }
        }
    }

    /// "November 2026".
    pub fn long_name(self) -> String {
        const NAMES: [&str; 12] = [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ];
        let name = NAMES
            .get(usize::from(self.month.saturating_sub(1)))
            .copied()
            .unwrap_or("");
        format!("{name} {}", self.year)
    }

    /// The month's last day.
    pub fn last_day(self) -> Option<Date> {
        Date::clamped(self.year, self.month, 31)
    }

    /// Reads `2026-11`, as `bills.interest_accrued_month` stores it.
    pub fn parse(text: &str) -> Option<Self> {
        let (year, month) = text.split_once('-')?;
        let year: i32 = year.parse().ok()?;
        let month: u8 = month.parse().ok()?;
        ((1..=9999).contains(&year) && (1..=12).contains(&month) && text.len() == 7)
            .then_some(Self { year, month })
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl fmt::Display for YearMonth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
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
    fn months_have_long_names() {
        let month = |text| YearMonth::parse(text).unwrap();
        assert_eq!(month("2026-11").long_name(), "November 2026");
        assert_eq!(month("2027-01").previous().long_name(), "December 2026");
        assert_eq!(month("2026-12").next(), month("2027-01"));
        assert_eq!(
            month("2026-02").last_day().unwrap().to_string(),
            "2026-02-28"
        );
    }

    #[test]
    fn leap_years_and_month_lengths() {
        assert!(
            is_leap_year(2024) && is_leap_year(2000) && !is_leap_year(1900) && !is_leap_year(2026)
        );
        assert_eq!(days_in_month(2024, 2), 29);
        assert_eq!(days_in_month(2026, 2), 28);
        assert_eq!(Date::new(2026, 2, 29), None);
        assert_eq!(Date::clamped(2026, 2, 31), Some(date("2026-02-28")));
        assert_eq!(Date::clamped(2028, 2, 31), Some(date("2028-02-29")));
    }

    #[test]
    fn parsing_is_strict_and_round_trips() {
        assert_eq!(date("2026-11-22").to_string(), "2026-11-22");
        for bad in [
            "2026-2-01",
            "2026-13-01",
            "2026-04-31",
            "20261122",
            "2026-11-22T00",
            "abcd-ef-gh",
        ] {
            assert!(Date::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(YearMonth::parse("2026-11").unwrap().to_string(), "2026-11");
        assert_eq!(YearMonth::parse("2026-13"), None);
    }

    #[test]
    fn known_days_and_weekdays() {
        assert_eq!(date("1970-01-01").days_since_epoch(), 0);
        assert_eq!(date("2000-03-01").days_since_epoch(), 11_017);
        assert_eq!(date("2026-11-22").weekday(), 6, "a Sunday");
        assert_eq!(
            date("2026-01-31").add_months_on_day(1, 31),
            Some(date("2026-02-28"))
        );
        assert_eq!(
            date("2026-12-15").add_months_on_day(2, 15),
            Some(date("2027-02-15"))
        );
    }

    proptest! {
        #[test]
        fn days_round_trip(days in -700_000_i64..2_900_000) {
            let date = Date::from_days_since_epoch(days).unwrap();
            prop_assert_eq!(date.days_since_epoch(), days);
            prop_assert_eq!(Date::parse(&date.to_string()).unwrap(), date);
            let next = date.add_days(1).unwrap();
            prop_assert!(next > date);
        }
    }
}
