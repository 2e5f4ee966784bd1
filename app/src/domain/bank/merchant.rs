//! Who a bank transaction paid, as a key that stays the same from one month
//! to the next: the description upper-cased with the noise that changes
//! (store and order numbers and other words at least half digits, phone
//! numbers, a trailing city and state, the payment processor's prefix,
//! `*`-suffixed order codes) taken away. Bank
//! matching keys its merchant rules on it; the subscription catalog's
//! descriptor lookup reads descriptions the same way.

/// Processor prefixes that come before the real merchant.
const PREFIXES: &[&str] = &[
    "PAYPAL *",
    "PAYPAL*",
    "PP*",
    "SQ *",
    "SQ*",
    "TST*",
    "TST *",
    "SP *",
    "SP*",
    "POS ",
    "POS DEBIT ",
    "DEBIT CARD PURCHASE ",
    "ACH DEBIT ",
    "ACH ",
    "RECURRING ",
    "CHECKCARD ",
];

/// US state codes, recognised as a trailing "CITY ST".
const STATES: &[&str] = &[
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
    "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY",
    "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV",
    "WI", "WY", "DC",
];

/// Words that say nothing about who was paid; a rule made only of these
/// would match half the statement.
const GENERIC: &[&str] = &[
    "ATM",
    "ACH",
    "TRANSFER",
    "XFER",
    "FEE",
    "PAYMENT",
    "PMT",
    "DEBIT",
    "CREDIT",
    "CARD",
    "PURCHASE",
    "POS",
    "ONLINE",
    "WITHDRAWAL",
    "DEPOSIT",
    "CHECK",
    "BILL",
    "AUTOPAY",
    "RECURRING",
    "WEB",
    "ID",
    "INTERNET",
    "BANKING",
    "THE",
    "AND",
    "OF",
];

/// Descriptions that are never a bill's payment: moving money between the
/// person's own accounts, paying a card off, refunds and returns.
const NEVER_A_BILL: &[&str] = &[
    "TRANSFER",
    "XFER",
    "CARD PAYMENT",
    "CREDIT CARD PMT",
    "AUTOPAY PAYMENT THANK YOU",
    "PAYMENT THANK YOU",
    "REFUND",
    "RETURN",
    "REVERSAL",
    "ZELLE",
    "VENMO",
    "ATM WITHDRAWAL",
];

/// The shortest key a rule may have.
pub const RULE_MIN_CHARS: usize = 4;

/// Whether a word is a number or code that changes from one charge to the
/// next rather than part of the name.
fn noise(word: &str) -> bool {
    if word.starts_with('#') && word.len() > 1 {
        return true;
    }
    let digits = word.chars().filter(char::is_ascii_digit).count();
    let alphanumeric = word.chars().filter(char::is_ascii_alphanumeric).count();
    digits > 0 && digits * 2 >= alphanumeric
}

/// The merchant key of a description.
pub fn normalize(description: &str) -> String {
    let mut text = description.to_uppercase();
    for prefix in PREFIXES {
        if let Some(rest) = text.strip_prefix(prefix) {
            text = rest.to_owned();
            break;
        }
    }
    let mut words: Vec<String> = text
        .split_whitespace()
        .map(|word| {
            // `AMAZON PRIME*2K4RT6`: the order code after `*` changes.
            word.split('*').next().unwrap_or_default().to_owned()
        })
        .filter(|word| !word.is_empty())
        // Store numbers (`#0412`), phone numbers, dates and codes: words
        // half or more digits. A brand with a digit in it (`1PASSWORD`,
        // `LIFE360`, `FACTOR75`) stays.
        .filter(|word| !noise(word))
        .map(|word| {
            word.trim_matches(|c: char| {
                !c.is_ascii_alphanumeric() && c != '&' && c != '.' && c != '/'
            })
            .to_owned()
        })
        .filter(|word| !word.is_empty())
        .collect();
    // A trailing state code, and the city before it when a name of two
    // words or more is left (`JOES DINER AUSTIN TX`, but `NETFLIX.COM CA`).
    if words.len() > 1
        && words
            .last()
            .is_some_and(|last| STATES.contains(&last.as_str()))
    {
        words.pop();
        if words.len() > 2 {
            words.pop();
        }
    }
    words.join(" ")
}

/// Why a key cannot be a merchant rule, if it cannot.
pub fn rule_problem(key: &str) -> Option<&'static str> {
    if key.chars().filter(char::is_ascii_alphanumeric).count() < RULE_MIN_CHARS {
        return Some("the payee is too short to recognise again");
    }
    if key
        .split_whitespace()
        .all(|word| GENERIC.contains(&word.trim_matches('.')))
    {
        return Some("the payee is only generic words (such as ACH, transfer, fee or payment)");
    }
    None
}

/// Whether a transaction can never be a bill's payment: money in, moves
/// between the person's own accounts, card payments, refunds.
pub fn never_a_bill(description: &str, amount_minor: i64) -> bool {
    if amount_minor >= 0 {
        return true;
    }
    let upper = description.to_uppercase();
    NEVER_A_BILL.iter().any(|marker| upper.contains(marker))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_that_changes_every_month_is_taken_away() {
        assert_eq!(normalize("NETFLIX.COM 866-579-7172 CA"), "NETFLIX.COM");
        assert_eq!(normalize("AMAZON PRIME*2K4RT6"), "AMAZON PRIME");
        assert_eq!(normalize("AMAZON PRIME*9ZZ1Q0"), "AMAZON PRIME");
        assert_eq!(normalize("SQ *BLUE BOTTLE COFFEE"), "BLUE BOTTLE COFFEE");
        assert_eq!(normalize("PAYPAL *SPOTIFY"), "SPOTIFY");
        assert_eq!(normalize("TST* JOES DINER 0412 AUSTIN TX"), "JOES DINER");
        assert_eq!(normalize("FRESHMART #0412"), "FRESHMART");
        assert_eq!(normalize("FRESHMART #A12"), "FRESHMART");
        assert_eq!(normalize("1PASSWORD.COM 0412"), "1PASSWORD.COM");
        assert_eq!(normalize("LIFE360 866-579-7172 CA"), "LIFE360");
        assert_eq!(normalize("SPOTIFY P1A2B3C4D5"), "SPOTIFY");
        assert_eq!(
            normalize("ACH DEBIT OAKWOOD APARTMENTS RENT"),
            "OAKWOOD APARTMENTS RENT"
        );
        assert_eq!(
            normalize("City Power & Light Autopay"),
            "CITY POWER & LIGHT AUTOPAY"
        );
    }

    #[test]
    fn generic_or_short_payees_cannot_be_rules() {
        assert!(rule_problem("ATM").is_some());
        assert!(rule_problem("ACH TRANSFER FEE").is_some());
        assert!(rule_problem("PAYMENT").is_some());
        assert!(rule_problem("NETFLIX.COM").is_none());
        assert!(rule_problem("CITY POWER & LIGHT AUTOPAY").is_none());
    }

    #[test]
    fn transfers_card_payments_refunds_and_money_in_are_never_bills() {
        assert!(never_a_bill("ONLINE TRANSFER TO SAVINGS", -10_000));
        assert!(never_a_bill("CHASE CARD PAYMENT", -50_000));
        assert!(never_a_bill("AMAZON REFUND", -500));
        assert!(never_a_bill("PAYROLL ACME", 250_000));
        assert!(!never_a_bill("NETFLIX.COM", -1549));
    }
}
