//! Who a bank transaction paid, as a key that stays the same from one month
//! to the next: the description upper-cased with the noise that changes
//! (store and order numbers and other words at least half digits, phone
//! numbers, a trailing city and state, the payment processor's prefix,
//! `*`-suffixed order codes) taken away; a name after `*` stays. Bank
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
    // Banks' own words for paying a card off (`CHASE CREDIT CRD AUTOPAY`).
    "CREDIT CRD",
    "CRD AUTOPAY",
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
    let bytes = word.as_bytes();
    if bytes.len() > 1 && bytes[0] == b'#' {
        return true;
    }
    let (mut digits, mut alphanumeric) = (0, 0);
    for byte in bytes {
        if byte.is_ascii_digit() {
            digits += 1;
            alphanumeric += 1;
        } else if byte.is_ascii_alphabetic() {
            alphanumeric += 1;
        }
    }
    digits > 0 && digits * 2 >= alphanumeric
}

/// The merchant key of a description.
pub fn normalize(description: &str) -> String {
    // Bank descriptions are nearly always ASCII, whose upper case is cheap.
    let upper = if description.is_ascii() {
        description.to_ascii_uppercase()
    } else {
        // Other spaces as plain ones, so the words split the same way.
        description
            .to_uppercase()
            .chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .collect()
    };
    let mut text = upper.as_str();
    for prefix in PREFIXES {
        if let Some(rest) = text.strip_prefix(prefix) {
            text = rest;
            break;
        }
    }
    // Written straight into the key, remembering where the last three
    // words start (this runs for every transaction a sync or a lookup
    // reads: two allocations in all).
    let mut key = String::with_capacity(text.len());
    let mut starts = [0_usize; 3];
    let mut words = 0;
    // Whether noise was dropped right before the last word kept: a city
    // sits right before its state, a phone number often stands for it.
    let mut noise_before = false;
    let mut noise_before_last = false;
    let mut take = |word: &str| {
        // Store numbers (`#0412`), phone numbers, dates and codes: words
        // half or more digits. A brand with a digit in it (`1PASSWORD`,
        // `LIFE360`, `FACTOR75`) stays.
        if noise(word) {
            noise_before = true;
            return;
        }
        let word =
            word.trim_matches(|c: char| !c.is_alphanumeric() && c != '&' && c != '.' && c != '/');
        if word.is_empty() {
            return;
        }
        if words > 0 {
            key.push(' ');
        }
        starts = [starts[1], starts[2], key.len()];
        noise_before_last = noise_before;
        noise_before = false;
        key.push_str(word);
        words += 1;
    };
    for word in text.split_ascii_whitespace() {
        // `AMAZON PRIME*2K4RT6`: an order code after `*` changes every
        // month and goes; a name after it (`GOOGLE *YOUTUBE TV`,
        // `HLU*HULU`) is who was paid and stays, as a word of its own.
        match word.find('*') {
            None => take(word),
            Some(star) => {
                take(&word[..star]);
                for piece in word[star + 1..].split('*') {
                    if !piece.bytes().any(|b| b.is_ascii_digit()) {
                        take(piece);
                    }
                }
            }
        }
    }
    // A trailing state code, and the city right before it when a name of
    // two words or more is left (`JOES DINER AUSTIN TX`, but
    // `NETFLIX.COM CA`, and `YOUTUBE TV 650-253-0000 CA` keeps its `TV`).
    if words > 1 && STATES.contains(&&key[starts[2]..]) {
        key.truncate(starts[2] - 1);
        if words - 1 > 2 && !noise_before_last {
            key.truncate(starts[1] - 1);
        }
    }
    key
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
        assert_eq!(normalize("PRIME VIDEO*2K4L80QX2"), "PRIME VIDEO");
        // A name after `*` is the merchant, not an order code: one
        // processor's charges for different services keep different keys.
        assert_eq!(normalize("GOOGLE *YOUTUBE TV"), "GOOGLE YOUTUBE TV");
        assert_eq!(normalize("GOOGLE *Google Storage"), "GOOGLE GOOGLE STORAGE");
        assert_eq!(normalize("APL*APPLE TV+"), "APL APPLE TV");
        assert_eq!(normalize("HLU*HULU 877-8244858 CA"), "HLU HULU");
        assert_eq!(
            normalize("GOOGLE *YOUTUBE TV 650-253-0000 CA"),
            "GOOGLE YOUTUBE TV"
        );
        assert_eq!(normalize("AMZN DIGITAL*AUDIBLE"), "AMZN DIGITAL AUDIBLE");
        assert_eq!(normalize("PATREON* MEMBERSHIP"), "PATREON MEMBERSHIP");
        assert_eq!(normalize("TWITCHINTER*"), "TWITCHINTER");
        assert_eq!(normalize("SQ *BLUE BOTTLE COFFEE"), "BLUE BOTTLE COFFEE");
        assert_eq!(normalize("PAYPAL *SPOTIFY"), "SPOTIFY");
        assert_eq!(normalize("TST* JOES DINER 0412 AUSTIN TX"), "JOES DINER");
        assert_eq!(normalize("FRESHMART #0412"), "FRESHMART");
        assert_eq!(normalize("FRESHMART #A12"), "FRESHMART");
        assert_eq!(normalize("1PASSWORD.COM 0412"), "1PASSWORD.COM");
        assert_eq!(normalize("LIFE360 866-579-7172 CA"), "LIFE360");
        assert_eq!(normalize("SPOTIFY P1A2B3C4D5"), "SPOTIFY");
        assert_eq!(normalize("Café\u{a0}Olé  #12"), "CAFÉ OLÉ");
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
        assert!(never_a_bill("CHASE CREDIT CRD AUTOPAY", -45_000));
        assert!(never_a_bill("AMAZON REFUND", -500));
        assert!(never_a_bill("PAYROLL ACME", 250_000));
        assert!(!never_a_bill("NETFLIX.COM", -1549));
    }
}
