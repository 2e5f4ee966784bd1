//! Money: integer minor units with an ISO 4217 currency, never a float,
//! and how a person in a given locale expects to read it (`$1,299.00`,
//! `1.299,00 €`, `¥1,299`).

use std::fmt;

/// An ISO 4217 currency code and how many minor-unit digits it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Currency {
    code: [u8; 3],
    digits: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a currency code like USD or EUR")]
pub struct CurrencyError(pub String);

/// Currencies whose minor unit is not a hundredth.
const ODD_DIGITS: &[(&str, u8)] = &[
    ("JPY", 0),
    ("KRW", 0),
    ("ISK", 0),
    ("CLP", 0),
    ("VND", 0),
    ("HUF", 2),
    ("BHD", 3),
    ("KWD", 3),
    ("JOD", 3),
    ("OMR", 3),
    ("TND", 3),
];

const SYMBOLS: &[(&str, &str)] = &[
    ("USD", "$"),
    ("EUR", "€"),
    ("GBP", "£"),
    ("JPY", "¥"),
    ("INR", "₹"),
    ("KRW", "₩"),
];

impl Currency {
    pub const USD: Self = Self {
        code: *b"USD",
        digits: 2,
    };

    /// Any three ASCII letters (upper-cased); the digit count comes from
    /// ISO 4217 (two unless listed otherwise).
    pub fn parse(code: &str) -> Result<Self, CurrencyError> {
        let upper = code.trim().to_ascii_uppercase();
        let bytes: [u8; 3] = upper
            .as_bytes()
            .try_into()
            .ok()
            .filter(|bytes: &[u8; 3]| bytes.iter().all(u8::is_ascii_uppercase))
            .ok_or_else(|| CurrencyError(code.to_owned()))?;
        let digits = ODD_DIGITS
            .iter()
            .find(|(odd, _)| *odd == upper)
            .map_or(2, |(_, digits)| *digits);
        Ok(Self {
            code: bytes,
            digits,
        })
    }

    pub fn code(&self) -> &str {
        std::str::from_utf8(&self.code).unwrap_or("XXX")
    }

    pub fn digits(&self) -> u8 {
        self.digits
    }

    fn symbol(&self) -> Option<&'static str> {
        SYMBOLS
            .iter()
            .find(|(code, _)| *code == self.code())
            .map(|(_, symbol)| *symbol)
    }
}

/// How a locale writes numbers and where the currency goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Locale {
    group: &'static str,
    decimal: &'static str,
    symbol_after: bool,
    /// The currency the locale's plain `$` means (others get a prefix).
    home_dollar: &'static str,
}

/// The locales Tally formats for (Profile offers these), as BCP 47 tags.
pub const LOCALES: &[(&str, &str)] = &[
    ("en-US", "English (United States)"),
    ("en-GB", "English (United Kingdom)"),
    ("en-CA", "English (Canada)"),
    ("en-AU", "English (Australia)"),
    ("de-DE", "Deutsch (Deutschland)"),
    ("fr-FR", "Français (France)"),
    ("es-ES", "Español (España)"),
    ("nl-NL", "Nederlands (Nederland)"),
    ("ja-JP", "日本語 (日本)"),
];

impl Locale {
    /// The locale for a BCP 47 tag; United States English when unknown.
    pub fn parse(tag: &str) -> Self {
        let (group, decimal, symbol_after, home_dollar) = match tag {
            "de-DE" | "es-ES" | "nl-NL" => (".", ",", true, "USD"),
            "fr-FR" => ("\u{202f}", ",", true, "USD"),
            "en-CA" => (",", ".", false, "CAD"),
            "en-AU" => (",", ".", false, "AUD"),
            _ => (",", ".", false, "USD"),
        };
        Self {
            group,
            decimal,
            symbol_after,
            home_dollar,
        }
    }
}

/// An amount in minor units of a currency (negative for money owed back).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Money {
    pub minor: i64,
    pub currency: Currency,
}

impl Money {
    pub fn new(minor: i64, currency: Currency) -> Self {
        Self { minor, currency }
    }

    /// An amount in the currency with `code` (US dollars when unknown), as
    /// `en-US` writes it: how bank amounts are shown.
    pub fn shown(minor: i64, code: &str) -> String {
        Self::new(minor, Currency::parse(code).unwrap_or(Currency::USD))
            .format(Locale::parse("en-US"))
    }

    /// The amount as `locale` writes it, with the currency's symbol where
    /// one is unambiguous there and its code otherwise.
    pub fn format(&self, locale: Locale) -> String {
        let digits = u32::from(self.currency.digits());
        let scale = 10_u64.pow(digits);
        let magnitude = self.minor.unsigned_abs();
        let whole = (magnitude / scale).to_string();
        let mut grouped = String::new();
        for (i, digit) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i).is_multiple_of(3) {
                grouped.push_str(locale.group);
            }
            grouped.push(digit);
        }
        if digits > 0 {
            grouped.push_str(locale.decimal);
            grouped.push_str(&format!(
                "{:0width$}",
                magnitude % scale,
                width = digits as usize
            ));
        }
        let code = self.currency.code();
        let mark = match (code, self.currency.symbol()) {
            (code, Some(_)) if code == locale.home_dollar => "$".to_owned(),
            ("USD", Some(_)) if locale.home_dollar != "USD" => "US$".to_owned(),
            (_, Some(symbol)) => symbol.to_owned(),
            ("CAD" | "AUD", None) if code == locale.home_dollar => "$".to_owned(),
            (code, None) => code.to_owned(),
        };
        let sign = if self.minor < 0 { "-" } else { "" };
        if locale.symbol_after {
            format!("{sign}{grouped}\u{a0}{mark}")
        } else if mark.len() == 3 && mark.chars().all(|c| c.is_ascii_uppercase()) {
            format!("{sign}{mark}\u{a0}{grouped}")
        } else {
            format!("{sign}{mark}{grouped}")
        }
    }
}

/// Why a typed amount was refused; the message is for the person typing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TypedAmountError {
    #[error("enter an amount")]
    Empty,
    #[error("use digits and at most one decimal point, like 12.99")]
    NotANumber,
    #[error("use at most {0} digits after the decimal point")]
    TooPrecise(u8),
    #[error("that amount is too large")]
    TooLarge,
}

/// The largest amount Tally accepts, in minor units.
pub const MAX_MINOR: i64 = 100_000_000_000_000;

/// Reads what a person types (`12`, `12.5`, `1,299.00`, `$5`) as minor
/// units of a currency with `digits` decimals. Thousands separators and a
/// leading currency sign are tolerated.
pub fn parse_minor(input: &str, digits: u8) -> Result<i64, TypedAmountError> {
    let trimmed = input.trim().trim_start_matches(['$', '€', '£', '¥']).trim();
    if trimmed.is_empty() {
        return Err(TypedAmountError::Empty);
    }
    let cleaned: String = trimmed.chars().filter(|c| *c != ',').collect();
    let (whole, fraction) = cleaned.split_once('.').unwrap_or((&cleaned, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction) {
        return Err(TypedAmountError::NotANumber);
    }
    if fraction.len() > usize::from(digits) {
        return Err(TypedAmountError::TooPrecise(digits));
    }
    if whole.len() > 15 {
        return Err(TypedAmountError::TooLarge);
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| TypedAmountError::NotANumber)?
    };
    let padded = format!("{fraction:0<width$}", width = usize::from(digits));
    let fraction: i64 = if padded.is_empty() {
        0
    } else {
        padded.parse().map_err(|_| TypedAmountError::NotANumber)?
    };
    let minor = whole
        .checked_mul(10_i64.pow(u32::from(digits)))
        .and_then(|w| w.checked_add(fraction))
        .filter(|minor| *minor <= MAX_MINOR)
        .ok_or(TypedAmountError::TooLarge)?;
    Ok(minor)
}

/// Minor units as a plain number for an input field (`1299.00`).
pub fn minor_to_input(minor: i64, digits: u8) -> String {
    if digits == 0 {
        return minor.to_string();
    }
    let scale = 10_i64.pow(u32::from(digits));
    let sign = if minor < 0 { "-" } else { "" };
    let magnitude = minor.unsigned_abs();
    let scale = scale.unsigned_abs();
    format!(
        "{sign}{}.{:0width$}",
        magnitude / scale,
        magnitude % scale,
        width = usize::from(digits)
    )
}

impl fmt::Display for Money {
    /// United States English; pages use [`Money::format`] with the user's
    /// locale.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format(Locale::parse("en-US")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn money(minor: i64, code: &str) -> Money {
        Money::new(minor, Currency::parse(code).unwrap())
    }

    #[test]
    fn locales_write_amounts_their_way() {
        let us = Locale::parse("en-US");
        assert_eq!(money(129_900, "USD").format(us), "$1,299.00");
        assert_eq!(money(-5, "USD").format(us), "-$0.05");
        assert_eq!(money(129_900, "EUR").format(us), "€1,299.00");
        assert_eq!(money(1299, "JPY").format(us), "¥1,299");
        assert_eq!(money(1_234_567, "KWD").format(us), "KWD\u{a0}1,234.567");
        let de = Locale::parse("de-DE");
        assert_eq!(money(129_900, "EUR").format(de), "1.299,00\u{a0}€");
        let fr = Locale::parse("fr-FR");
        assert_eq!(
            money(100_000_000, "EUR").format(fr),
            "1\u{202f}000\u{202f}000,00\u{a0}€"
        );
        let ca = Locale::parse("en-CA");
        assert_eq!(money(1000, "CAD").format(ca), "$10.00");
        assert_eq!(money(1000, "USD").format(ca), "US$10.00");
        assert_eq!(money(1000, "CHF").format(us), "CHF\u{a0}10.00");
        assert_eq!(Locale::parse("xx-YY"), us);
    }

    #[test]
    fn typed_amounts_follow_the_currency() {
        assert_eq!(parse_minor("1,299.5", 2), Ok(129_950));
        assert_eq!(parse_minor("$12", 2), Ok(1200));
        assert_eq!(parse_minor(".5", 2), Ok(50));
        assert_eq!(parse_minor("1299", 0), Ok(1299));
        assert_eq!(parse_minor("12.5", 0), Err(TypedAmountError::TooPrecise(0)));
        assert_eq!(
            parse_minor("1.2345", 3),
            Err(TypedAmountError::TooPrecise(3))
        );
        assert_eq!(parse_minor("", 2), Err(TypedAmountError::Empty));
        assert_eq!(parse_minor("12a", 2), Err(TypedAmountError::NotANumber));
        assert_eq!(
            parse_minor("9999999999999999", 2),
            Err(TypedAmountError::TooLarge)
        );
        assert_eq!(minor_to_input(129_950, 2), "1299.50");
        assert_eq!(minor_to_input(1299, 0), "1299");
    }

    #[test]
    fn currency_codes_are_checked() {
        assert_eq!(Currency::parse("usd").unwrap().code(), "USD");
        assert_eq!(Currency::parse("JPY").unwrap().digits(), 0);
        for bad in ["US", "USDX", "U$D", "", "€€€"] {
            assert!(Currency::parse(bad).is_err(), "{bad}");
        }
    }

    proptest! {
        /// The written amount holds exactly the minor units: removing
        /// everything but digits gives the number back.
        #[test]
        fn typed_amounts_round_trip(minor in 0_i64..MAX_MINOR, digits in 0_u8..=3) {
            prop_assert_eq!(parse_minor(&minor_to_input(minor, digits), digits), Ok(minor));
        }

        #[test]
        fn formatting_never_changes_the_amount(minor in -1_000_000_000_000_i64..1_000_000_000_000, tag in 0..LOCALES.len()) {
            for code in ["USD", "EUR", "JPY", "KWD"] {
                let written = money(minor, code).format(Locale::parse(LOCALES[tag].0));
                let digits: String = written.chars().filter(char::is_ascii_digit).collect();
                prop_assert_eq!(digits.parse::<i64>().unwrap(), minor.abs());
                prop_assert_eq!(written.starts_with('-'), minor < 0);
            }
        }
    }
}
