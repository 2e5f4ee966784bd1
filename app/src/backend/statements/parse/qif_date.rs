//! QIF dates. QIF has no standard date form: Quicken US writes `1/15/24`
//! and `1/15'24` (the apostrophe marks 2000 and later), Quicken UK and other
//! programs `15/01/2024`, German ones `15.01.2024`, newer ones
//! `2024-01-15`. When both numbers are 12 or less, one date cannot say
//! which is the month; the file as a whole decides (see
//! [`WrittenDate::evidence`]), and when it cannot either, the person does.

use super::{dates, DateOrder};

/// A date as the file writes it, before the file's order is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WrittenDate {
    /// The order is not in doubt: `2024-01-15`, or `15.01.2024` (dots are
    /// written day first wherever they are used).
    Fixed { year: u16, month: u16, day: u16 },
    /// `01/02/2024`: month/day or day/month.
    Either { first: u16, second: u16, year: u16 },
}

/// What one date says about the file's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Evidence {
    /// It reads the same either way (or does not depend on the order).
    None,
    /// Only this order gives a real day (`25/12/2024` is day first).
    Only(DateOrder),
    /// It reads as two different days.
    Ambiguous,
}

impl WrittenDate {
    /// Reads `1/15/24`, `01/15'24`, `1/15'2024`, `15/01/2024`, `15.01.2024`,
    /// `2024-01-15` (Quicken pads with spaces: ` 1/ 5'24`). Two-digit years
    /// after an apostrophe are 2000 and later; other two-digit years below
    /// 70 are 2000 and later, the rest 1900s.
    pub(super) fn read(text: &str) -> Option<Self> {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.is_empty() || compact.len() > 12 {
            return None;
        }
        let mut numbers: Vec<&str> = Vec::with_capacity(3);
        let mut separators: Vec<char> = Vec::with_capacity(2);
        let mut rest = compact.as_str();
        loop {
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let (number, after) = rest.split_at(end);
            if number.is_empty() {
                return None;
            }
            numbers.push(number);
            let mut chars = after.chars();
            match chars.next() {
                None => break,
                Some(separator @ ('/' | '-' | '.' | '\'')) => separators.push(separator),
                Some(_) => return None,
            }
            rest = chars.as_str();
        }
        let ([a, b, c], [first_mark, year_mark]) = (numbers.as_slice(), separators.as_slice())
        else {
            return None;
        };
        let number = |text: &str| text.parse::<u16>().ok();
        if a.len() == 4 {
            let fits = b.len() <= 2 && c.len() <= 2;
            return fits.then_some(Self::Fixed {
                year: number(a)?,
                month: number(b)?,
                day: number(c)?,
            });
        }
        if a.len() > 2 || b.len() > 2 {
            return None;
        }
        let written_year = number(c)?;
        let year = match c.len() {
            4 => written_year,
            1 | 2 if *year_mark == '\'' => 2000 + written_year,
            1 | 2 if written_year < 70 => 2000 + written_year,
            1 | 2 => 1900 + written_year,
            _ => return None,
        };
        let (first, second) = (number(a)?, number(b)?);
        if *first_mark == '.' && *year_mark == '.' {
            return Some(Self::Fixed {
                year,
                month: second,
                day: first,
            });
        }
        Some(Self::Either {
            first,
            second,
            year,
        })
    }

    /// The day in `order`, if the numbers make one.
    pub(super) fn day(self, order: DateOrder) -> Option<String> {
        match (self, order) {
            (Self::Fixed { year, month, day }, _)
            | (
                Self::Either {
                    first: month,
                    second: day,
                    year,
                },
                DateOrder::MonthFirst,
            )
            | (
                Self::Either {
                    first: day,
                    second: month,
                    year,
                },
                DateOrder::DayFirst,
            ) => dates::day(year, month, day),
        }
    }

    pub(super) fn evidence(self) -> Evidence {
        let month_first = self.day(DateOrder::MonthFirst);
        let day_first = self.day(DateOrder::DayFirst);
        match (month_first, day_first) {
            (Some(_), None) => Evidence::Only(DateOrder::MonthFirst),
            (None, Some(_)) => Evidence::Only(DateOrder::DayFirst),
            (Some(a), Some(b)) if a != b => Evidence::Ambiguous,
            _ => Evidence::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DateOrder::{DayFirst, MonthFirst};

    fn day(text: &str, order: DateOrder) -> Option<String> {
        WrittenDate::read(text)?.day(order)
    }

    #[test]
    fn the_usual_forms_are_read() {
        assert_eq!(day("01/15/24", MonthFirst).as_deref(), Some("2024-01-15"));
        assert_eq!(day("01/15'24", MonthFirst).as_deref(), Some("2024-01-15"));
        assert_eq!(day("1/5'2024", MonthFirst).as_deref(), Some("2024-01-05"));
        assert_eq!(day(" 1/ 5' 4", MonthFirst).as_deref(), Some("2004-01-05"));
        assert_eq!(day("12/31/99", MonthFirst).as_deref(), Some("1999-12-31"));
        assert_eq!(day("12/31/69", MonthFirst).as_deref(), Some("2069-12-31"));
        assert_eq!(day("12/31'99", MonthFirst).as_deref(), Some("2099-12-31"));
        assert_eq!(day("25/12/2024", DayFirst).as_deref(), Some("2024-12-25"));
        assert_eq!(day("25.12.2024", MonthFirst).as_deref(), Some("2024-12-25"));
        assert_eq!(day("2024-12-25", DayFirst).as_deref(), Some("2024-12-25"));
        assert_eq!(day("1-2-2024", DayFirst).as_deref(), Some("2024-02-01"));
    }

    #[test]
    fn what_is_not_a_date_is_refused() {
        for text in [
            "",
            "1/2",
            "1/2/3/4",
            "a/b/c",
            "1//2024",
            "123/1/2024",
            "1/1/202",
            "2024-1-123",
            "1:2:2024",
            "99999/1/1",
            "1/2/2024x",
            "１/２/2024",
        ] {
            assert_eq!(WrittenDate::read(text), None, "{text:?}");
        }
        assert_eq!(day("25/12/2024", MonthFirst), None);
        assert_eq!(day("02/30/2024", MonthFirst), None);
    }

    #[test]
    fn each_date_says_what_it_can_about_the_order() {
        let evidence = |text| WrittenDate::read(text).map(WrittenDate::evidence);
        assert_eq!(evidence("25/12/2024"), Some(Evidence::Only(DayFirst)));
        assert_eq!(evidence("12/25/2024"), Some(Evidence::Only(MonthFirst)));
        assert_eq!(evidence("01/02/2024"), Some(Evidence::Ambiguous));
        assert_eq!(evidence("05/05/2024"), Some(Evidence::None));
        assert_eq!(evidence("2024-01-02"), Some(Evidence::None));
        assert_eq!(evidence("31/31/2024"), Some(Evidence::None));
    }
}
