//! A bank provider's amount: a decimal string with the provider's sign
//! (positive is money in, negative money out), read as signed minor units.

use crate::domain::money::{parse_minor, MAX_MINOR};

/// Why a provider's amount could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the amount {0:?} is not a decimal number of money")]
pub struct BadAmount(pub String);

/// Reads `"-12.34"`, `"1500"`, `"+0.5"` as signed minor units of a currency
/// with `digits` decimals. Zeros past those decimals are tolerated
/// (`"12.3400"`); other extra precision is refused, never rounded.
pub fn signed_minor(raw: &str, digits: u8) -> Result<i64, BadAmount> {
    let bad = || BadAmount(raw.chars().take(40).collect());
    let text = raw.trim();
    if text.len() > 32 {
        return Err(bad());
    }
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    // Only digits and one point: no separators, no currency signs.
    if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(bad());
    }
    let trimmed = match unsigned.split_once('.') {
        Some((whole, fraction)) if fraction.len() > usize::from(digits) => {
            let (kept, rest) = fraction.split_at(usize::from(digits));
            if rest.bytes().any(|b| b != b'0') {
                return Err(bad());
            }
            format!("{whole}.{kept}")
        }
        _ => unsigned.to_owned(),
    };
    let minor = parse_minor(trimmed.trim_end_matches('.'), digits).map_err(|_| bad())?;
    debug_assert!(minor <= MAX_MINOR);
    Ok(if negative { -minor } else { minor })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_and_decimals_are_read_exactly() {
        assert_eq!(signed_minor("-12.34", 2), Ok(-1234));
        assert_eq!(signed_minor("1500", 2), Ok(150_000));
        assert_eq!(signed_minor("+0.5", 2), Ok(50));
        assert_eq!(signed_minor("12.3400", 2), Ok(1234));
        assert_eq!(signed_minor("-0.00", 2), Ok(0));
        assert_eq!(signed_minor("7", 0), Ok(7));
    }

    #[test]
    fn anything_else_is_refused_not_guessed() {
        for bad in [
            "",
            "-",
            "12.345",
            "1,000.00",
            "$5",
            "1e3",
            "12.3.4",
            "--1",
            "NaN",
            "99999999999999999999",
        ] {
            assert!(signed_minor(bad, 2).is_err(), "{bad:?}");
        }
    }
}
