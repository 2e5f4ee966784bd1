//! The days OFX and CAMT write, as `YYYY-MM-DD`. Both put the date first
//! and a time (and zone) after it; the time is dropped because a bill is
//! paid on a day, and the day the bank printed is the one the person sees
//! on their statement.

use crate::domain::date::Date;

/// OFX `20240115`, `20240115120000.000[-5:EST]`: the first eight digits.
pub(super) fn ofx_day(text: &str) -> Option<String> {
    let digits = text.trim().get(..8)?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number = |range: std::ops::Range<usize>| digits.get(range)?.parse::<u16>().ok();
    day(number(0..4)?, number(4..6)?, number(6..8)?)
}

/// CAMT `2024-01-15` or `2024-01-15T10:30:00+01:00`: the first ten
/// characters.
pub(super) fn iso_day(text: &str) -> Option<String> {
    let date = text.trim().get(..10)?;
    Date::parse(date).ok().map(|date| date.to_string())
}

/// The day, if it exists in the calendar.
pub(super) fn day(year: u16, month: u16, day: u16) -> Option<String> {
    Date::new(
        i32::from(year),
        u8::try_from(month).ok()?,
        u8::try_from(day).ok()?,
    )
    .map(|date| date.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ofx_dates_keep_their_day() {
        assert_eq!(
            ofx_day("20240115120000.000[-5:EST]").as_deref(),
            Some("2024-01-15")
        );
        assert_eq!(ofx_day("20240229").as_deref(), Some("2024-02-29"));
        assert_eq!(ofx_day("20230229"), None);
        assert_eq!(ofx_day("2024011"), None);
        assert_eq!(ofx_day("2024-01-15"), None);
        assert_eq!(ofx_day("2024€0115"), None);
    }

    #[test]
    fn camt_dates_keep_their_day() {
        assert_eq!(iso_day("2024-01-15").as_deref(), Some("2024-01-15"));
        assert_eq!(
            iso_day("2024-01-15T10:30:00+01:00").as_deref(),
            Some("2024-01-15")
        );
        assert_eq!(iso_day("2024-13-01"), None);
        assert_eq!(iso_day("15.01.2024"), None);
        assert_eq!(iso_day("2024-01-1é"), None);
    }
}
