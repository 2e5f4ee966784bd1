//! Amounts of money as integer minor units (cents), never floats.

use std::fmt;

/// A non-negative amount in minor units (for example cents). Build one with
/// [`Amount::parse`] or [`Amount::from_minor`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Amount(i64);

/// Why a typed amount was refused; the message is meant for the person typing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    #[error("enter an amount")]
    Empty,
    #[error("use digits and at most one decimal point, like 12.99")]
    NotANumber,
    #[error("use at most two digits after the decimal point")]
    TooPrecise,
    #[error("that amount is too large")]
    TooLarge,
}

impl Amount {
    /// The largest amount Tally accepts: a trillion in major units leaves
    /// ample room for sums without overflowing `i64`.
    pub const MAX_MINOR: i64 = 100_000_000_000_000;

    pub const fn from_minor(minor: i64) -> Option<Self> {
        if minor >= 0 && minor <= Self::MAX_MINOR {
            Some(Self(minor))
        } else {
            None
        }
    }

    pub const fn minor(self) -> i64 {
        self.0
    }

    /// Parses what a person types: `12`, `12.5`, `12.99`, `$1,299.00`.
    /// Thousands separators and a leading `$` are tolerated.
    pub fn parse(input: &str) -> Result<Self, AmountError> {
        let trimmed = input.trim();
        let trimmed = trimmed.strip_prefix('$').unwrap_or(trimmed).trim();
        if trimmed.is_empty() {
            return Err(AmountError::Empty);
        }
        let digits: String = trimmed.chars().filter(|c| *c != ',').collect();
        let (whole, fraction) = match digits.split_once('.') {
            Some((whole, fraction)) => (whole, fraction),
            None => (digits.as_str(), ""),
        };
        let all_digits = |part: &str| part.chars().all(|c| c.is_ascii_digit());
        if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction)
        {
            return Err(AmountError::NotANumber);
        }
        if fraction.len() > 2 {
            return Err(AmountError::TooPrecise);
        }
        let whole: i64 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| AmountError::TooLarge)?
        };
        let cents: i64 = format!("{fraction:0<2}")
            .parse()
            .map_err(|_| AmountError::NotANumber)?;
        whole
            .checked_mul(100)
            .and_then(|minor| minor.checked_add(cents))
            .and_then(Self::from_minor)
            .ok_or(AmountError::TooLarge)
    }

    /// This amount repeated `times` times, or `None` past [`Self::MAX_MINOR`].
    pub fn times(self, times: i64) -> Option<Self> {
        self.0.checked_mul(times).and_then(Self::from_minor)
    }
}

/// Formats as `1,234.56` (no currency symbol; the caller adds one).
impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = (self.0 / 100).to_string();
        let mut grouped = String::with_capacity(whole.len() + whole.len() / 3);
        for (index, digit) in whole.chars().enumerate() {
            if index > 0 && (whole.len() - index).is_multiple_of(3) {
                grouped.push(',');
            }
            grouped.push(digit);
        }
        write!(f, "{grouped}.{:02}", self.0 % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::{Amount, AmountError};

    #[test]
    fn parses_what_people_type() {
        assert_eq!(Amount::parse("12").unwrap().minor(), 1200);
        assert_eq!(Amount::parse("12.5").unwrap().minor(), 1250);
        assert_eq!(Amount::parse(" $1,299.09 ").unwrap().minor(), 129_909);
        assert_eq!(Amount::parse(".99").unwrap().minor(), 99);
        assert_eq!(Amount::parse("7.").unwrap().minor(), 700);
    }

    #[test]
    fn refuses_what_is_not_an_amount() {
        assert_eq!(Amount::parse(""), Err(AmountError::Empty));
        assert_eq!(Amount::parse("$"), Err(AmountError::Empty));
        assert_eq!(Amount::parse("."), Err(AmountError::NotANumber));
        assert_eq!(Amount::parse("-5"), Err(AmountError::NotANumber));
        assert_eq!(Amount::parse("1e3"), Err(AmountError::NotANumber));
        assert_eq!(Amount::parse("1.2.3"), Err(AmountError::NotANumber));
        assert_eq!(Amount::parse("1.999"), Err(AmountError::TooPrecise));
        assert_eq!(
            Amount::parse("99999999999999999999"),
            Err(AmountError::TooLarge)
        );
        assert_eq!(Amount::parse("1000000000001"), Err(AmountError::TooLarge));
    }

    #[test]
    fn formats_with_grouping_and_two_decimals() {
        let show = |minor| Amount::from_minor(minor).unwrap().to_string();
        assert_eq!(show(0), "0.00");
        assert_eq!(show(5), "0.05");
        assert_eq!(show(19_188), "191.88");
        assert_eq!(show(123_456_789), "1,234,567.89");
        assert_eq!(show(100_000), "1,000.00");
    }

    #[test]
    fn format_then_parse_round_trips() {
        for minor in [0, 1, 99, 100, 100_000, 987_654_321, Amount::MAX_MINOR] {
            let amount = Amount::from_minor(minor).unwrap();
            assert_eq!(Amount::parse(&amount.to_string()), Ok(amount));
        }
    }

    #[test]
    fn times_refuses_overflow() {
        let monthly = Amount::parse("15.99").unwrap();
        assert_eq!(monthly.times(12).unwrap().minor(), 19_188);
        assert_eq!(
            Amount::from_minor(Amount::MAX_MINOR).unwrap().times(2),
            None
        );
    }
}
