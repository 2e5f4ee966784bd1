//! How likely an unmatched bank debit paid a given bill, as a score out of
//! 100 with the reasons a person can check: who the payee is against the
//! service the bill is (its catalog link, else its name), the amount, the
//! days from a due date, the name, and whether the same payee paid this
//! bill before. The payee outranks the amount: a charge Tally knows as
//! Netflix is never suggested for a bill that is Spotify, however equal
//! the amounts, and one for the Netflix bill at a new price still is. A
//! suggestion is only ever shown; the user applies it (or not).

use super::merchant;

/// Below this a bill is not suggested at all.
pub const THRESHOLD: u32 = 40;
/// At most this many bills are suggested for one transaction.
pub const PER_TRANSACTION: usize = 3;

/// What is known of a bill when scoring.
pub struct BillFacts<'a> {
    pub name: &'a str,
    pub amount_minor: i64,
    /// The due date nearest the transaction's day, and how many days away.
    pub days_from_due: Option<i64>,
    /// Transactions with the same payee matched to this bill before (or a
    /// merchant rule for it).
    pub matched_before: bool,
    /// Whether the payee is the service this bill is.
    pub service: Service<'a>,
}

/// The payee's service against the bill's, when the catalog knows both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service<'a> {
    /// The catalog does not tell (the payee, or the bill, is no known service).
    Unknown,
    /// The payee is the service the bill is linked to (or named after).
    Same(&'a str),
    /// The payee is one known service and the bill another: never this bill.
    Other,
}

/// A bill's score for a transaction, with its reasons in plain words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    pub points: u32,
    pub reasons: Vec<String>,
}

/// Scores a debit (its `amount_minor` negative, as the provider signs it)
/// against one bill.
pub fn score(description: &str, amount_minor: i64, bill: &BillFacts<'_>) -> Score {
    let mut points = 0;
    let mut reasons = Vec::new();
    match bill.service {
        Service::Other => {
            return Score {
                points: 0,
                reasons: vec!["the payee is another service than this bill's".to_owned()],
            }
        }
        Service::Same(name) => {
            points += 50;
            reasons.push(format!("the payee is {name}, the service this bill is"));
        }
        Service::Unknown => {}
    }
    let paid = amount_minor.unsigned_abs();
    let due = bill.amount_minor.unsigned_abs();
    if due > 0 {
        let off = paid.abs_diff(due);
        if off == 0 {
            points += 40;
            reasons.push("the amount equals the bill's".to_owned());
        } else if off * 10 <= due {
            points += 25;
            reasons.push("the amount is within 10% of the bill's".to_owned());
        } else if off * 4 <= due {
            points += 10;
            reasons.push("the amount is within 25% of the bill's".to_owned());
        }
    }
    match bill.days_from_due {
        Some(0) => {
            points += 25;
            reasons.push("it posted on a due date".to_owned());
        }
        Some(days @ 1..=3) => {
            points += 20;
            reasons.push(format!(
                "it posted {days} day{} from a due date",
                plural(days)
            ));
        }
        Some(days @ 4..=7) => {
            points += 10;
            reasons.push(format!("it posted {days} days from a due date"));
        }
        _ => {}
    }
    if let Some(word) = shared_word(description, bill.name) {
        points += 25;
        reasons.push(format!("the payee and the bill share the word {word}"));
    }
    if bill.matched_before {
        points += 20;
        reasons.push("this payee paid this bill before".to_owned());
    }
    Score {
        points: points.min(100),
        reasons,
    }
}

fn plural(n: i64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The first telling word (three letters or more, not a generic one) that
/// the payee and the bill's name both have.
fn shared_word(description: &str, bill_name: &str) -> Option<String> {
    let words = |text: &str| -> Vec<String> {
        text.to_uppercase()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| word.len() >= 3 && merchant::rule_problem(word).is_none())
            .filter(|word| !word.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_owned)
            .collect()
    };
    let bill = words(bill_name);
    words(&merchant::normalize(description))
        .into_iter()
        .find(|word| bill.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bill(name: &str, amount_minor: i64, days: Option<i64>, before: bool) -> BillFacts<'_> {
        BillFacts {
            name,
            amount_minor,
            days_from_due: days,
            matched_before: before,
            service: Service::Unknown,
        }
    }

    #[test]
    fn the_payee_outranks_an_equal_amount() {
        // The NETFLIX.COM -$17.99 against Spotify Family at $17.99
        // and the Netflix bill at $15.49, linked to Netflix.
        let spotify = BillFacts {
            service: Service::Other,
            ..bill("Spotify Family", 1_799, Some(0), false)
        };
        let netflix = BillFacts {
            service: Service::Same("Netflix"),
            ..bill("Netflix", 1_549, Some(2), false)
        };
        let for_spotify = score("NETFLIX.COM 866-579-7172 CA", -1_799, &spotify);
        let for_netflix = score("NETFLIX.COM 866-579-7172 CA", -1_799, &netflix);
        assert_eq!(for_spotify.points, 0, "{for_spotify:?}");
        assert!(for_netflix.points >= THRESHOLD, "{for_netflix:?}");
        assert!(for_netflix.reasons[0].contains("Netflix, the service this bill is"));
        // A bill named for nothing the catalog knows is scored as before.
        let unknown = score(
            "NETFLIX.COM",
            -1_799,
            &bill("Streaming", 1_799, Some(0), false),
        );
        assert_eq!(unknown.points, 65);
    }

    #[test]
    fn the_same_amount_on_the_due_date_by_name_scores_high_with_every_reason() {
        let found = score(
            "CITY POWER & LIGHT AUTOPAY",
            -8_450,
            &bill("City Power", 8_450, Some(0), false),
        );
        assert_eq!(found.points, 90);
        assert_eq!(found.reasons.len(), 3);
        assert!(found.reasons[2].contains("POWER") || found.reasons[2].contains("CITY"));
    }

    #[test]
    fn a_near_amount_some_days_off_scores_lower_and_a_stranger_not_at_all() {
        let near = score(
            "NETFLIX.COM 866-579-7172 CA",
            -1_649,
            &bill("Netflix", 1_549, Some(2), false),
        );
        assert_eq!(near.points, 25 + 20 + 25, "{near:?}");
        assert!(near.reasons[1].contains("2 days"));
        let stranger = score(
            "FRESHMART #0412",
            -6_233,
            &bill("Rent", 145_000, Some(12), false),
        );
        assert_eq!(stranger.points, 0);
        assert!(stranger.points < THRESHOLD);
    }

    #[test]
    fn history_counts_and_generic_words_do_not() {
        let with = score(
            "ACH PAYMENT ONLINE",
            -5_000,
            &bill("Online payment fee", 9_000, None, true),
        );
        assert_eq!(with.points, 20, "{with:?}");
        assert_eq!(with.reasons, vec!["this payee paid this bill before"]);
    }
}
