//! An amount as statement files write it (`-12.34`, `+12.34`, `1,234.56`,
//! `12,34`, `1.234,56`) read as signed minor units. The separators are
//! settled here; the number itself is read by bank sync's reader
//! ([`signed_minor`]), so extra precision is refused (never rounded) and
//! the same size limit holds for both ways of importing.

use crate::domain::bank::provider_amount::signed_minor;

/// Why an amount could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum AmountError {
    #[error("the amount {0:?} is not a number of money in this currency")]
    Unreadable(String),
}

/// Reads `text` as minor units of a currency with `digits` decimals.
///
/// With both `.` and `,` the last one is the decimal mark. With only commas,
/// one comma followed by one or two digits is a decimal comma (`12,34`);
/// otherwise commas group thousands (`1,234`), and the groups must be of
/// three, so a misplaced separator is refused rather than guessed. Several
/// dots group thousands the same way (`1.234.567`); one dot is a decimal
/// point.
pub(super) fn minor_units(text: &str, digits: u8) -> Result<i64, AmountError> {
    let bad = || AmountError::Unreadable(text.chars().take(40).collect());
    let trimmed = text.trim();
    let (sign, body) = match trimmed.as_bytes().first() {
        Some(b'-') => ("-", trimmed.get(1..).unwrap_or_default()),
        Some(b'+') => ("", trimmed.get(1..).unwrap_or_default()),
        _ => ("", trimmed),
    };
    if body.is_empty()
        || body.len() > 40
        || !body
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
    {
        return Err(bad());
    }
    let last_dot = body.rfind('.');
    let last_comma = body.rfind(',');
    let (whole, fraction, group) = match (last_dot, last_comma) {
        (None, None) => (body, "", None),
        (Some(dot), Some(comma)) => {
            let (mark, group) = if dot > comma {
                (dot, ',')
            } else {
                (comma, '.')
            };
            (&body[..mark], &body[mark + 1..], Some(group))
        }
        (Some(dot), None) if body.matches('.').count() == 1 => {
            (&body[..dot], &body[dot + 1..], None)
        }
        (Some(_), None) => (body, "", Some('.')),
        (None, Some(comma)) => {
            let after = body.len() - comma - 1;
            if body.matches(',').count() == 1 && (1..=2).contains(&after) {
                (&body[..comma], &body[comma + 1..], None)
            } else {
                (body, "", Some(','))
            }
        }
    };
    if fraction.contains(['.', ',']) {
        return Err(bad());
    }
    let whole = match group {
        Some(mark) => ungroup(whole, mark).ok_or_else(bad)?,
        None if whole.contains(['.', ',']) => return Err(bad()),
        None => whole.to_owned(),
    };
    if whole.is_empty() && fraction.is_empty() {
        return Err(bad());
    }
    signed_minor(&format!("{sign}{whole}.{fraction}"), digits).map_err(|_| bad())
}

/// `1,234,567` without its separators, if every group after the first has
/// three digits and the first has one to three.
fn ungroup(whole: &str, mark: char) -> Option<String> {
    let digits = |group: &str| group.bytes().all(|b| b.is_ascii_digit());
    let mut groups = whole.split(mark);
    let first = groups.next()?;
    if first.is_empty() || first.len() > 3 || !digits(first) {
        return None;
    }
    let mut plain = first.to_owned();
    for group in groups {
        if group.len() != 3 || !digits(group) {
            return None;
        }
        plain.push_str(group);
    }
    Some(plain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::money::MAX_MINOR;
    use proptest::prelude::*;

    #[test]
    fn the_ways_statements_write_amounts_are_read() {
        assert_eq!(minor_units("-12.34", 2), Ok(-1234));
        assert_eq!(minor_units("+12.34", 2), Ok(1234));
        assert_eq!(minor_units(" 12 ", 2), Ok(1200));
        assert_eq!(minor_units("1,234.56", 2), Ok(123_456));
        assert_eq!(minor_units("-1,234,567.8", 2), Ok(-123_456_780));
        assert_eq!(minor_units("12,34", 2), Ok(1234));
        assert_eq!(minor_units("12,3", 2), Ok(1230));
        assert_eq!(minor_units("1,234", 2), Ok(123_400));
        assert_eq!(minor_units("1.234,56", 2), Ok(123_456));
        assert_eq!(minor_units("1.234.567", 2), Ok(123_456_700));
        assert_eq!(minor_units(".5", 2), Ok(50));
        assert_eq!(minor_units("12.3400", 2), Ok(1234));
        assert_eq!(minor_units("1500", 0), Ok(1500));
        assert_eq!(minor_units("1.234", 3), Ok(1234));
    }

    #[test]
    fn anything_doubtful_is_refused() {
        for bad in [
            "",
            "-",
            "+",
            ".",
            ",",
            "12.345",
            "1.5",
            "1,23,456.00",
            "12,34,5",
            "1.234.5",
            "1,2345",
            "1.234,5.6",
            "--1",
            "1e3",
            "12 34",
            "$12",
            "99999999999999999999999",
            "1,0000",
            "1.2,345.67",
        ] {
            let digits = if bad == "1.5" { 0 } else { 2 };
            assert!(minor_units(bad, digits).is_err(), "{bad:?} was read");
        }
    }

    /// `-0.05`, written the way statements write it.
    fn decimal(minor: i64) -> String {
        let sign = if minor < 0 { "-" } else { "" };
        let magnitude = minor.unsigned_abs();
        format!("{sign}{}.{:02}", magnitude / 100, magnitude % 100)
    }

    /// `1,234,567.89`.
    fn grouped(minor: i64) -> String {
        let plain = decimal(minor);
        let (sign, rest) = plain.split_at(usize::from(minor < 0));
        let (whole, fraction) = rest.split_once('.').unwrap();
        let mut out = String::new();
        for (i, digit) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(digit);
        }
        format!("{sign}{out}.{fraction}")
    }

    proptest! {
        #[test]
        fn decimals_round_trip(minor in -MAX_MINOR..=MAX_MINOR) {
            prop_assert_eq!(minor_units(&decimal(minor), 2), Ok(minor));
            prop_assert_eq!(minor_units(&grouped(minor), 2), Ok(minor));
        }

        #[test]
        fn any_text_is_read_or_refused(text in ".{0,60}", digits in 0_u8..4) {
            let _ = minor_units(&text, digits);
        }
    }
}
