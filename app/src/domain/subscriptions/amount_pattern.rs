//! How a merchant's charges behave in amount, oldest first: all the same,
//! varying within a range, or changed to a new price on a day (a price
//! rise or cut the person should know about).

use crate::domain::date::Date;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AmountPattern {
    /// Every charge the same.
    Stable { amount_minor: i64 },
    /// The same price until `on`, then another that has held since.
    Changed {
        from_minor: i64,
        to_minor: i64,
        on: Date,
    },
    /// Amounts that vary (usage-based, taxes, currency).
    Range { low_minor: i64, high_minor: i64 },
}

impl AmountPattern {
    /// The amount to expect next.
    pub fn current(&self, last_minor: i64) -> i64 {
        match self {
            Self::Stable { amount_minor } => *amount_minor,
            Self::Changed { to_minor, .. } => *to_minor,
            Self::Range { .. } => last_minor,
        }
    }
}

/// The pattern of `charges` (day, positive amount), in any order; `None`
/// for none.
pub fn read(charges: &[(Date, i64)]) -> Option<AmountPattern> {
    let mut charges = charges.to_vec();
    charges.sort();
    let (_, first) = *charges.first()?;
    if charges.iter().all(|(_, amount)| *amount == first) {
        return Some(AmountPattern::Stable {
            amount_minor: first,
        });
    }
    // One change of price that held: a run of one amount, then of another.
    let change = charges
        .windows(2)
        .position(|pair| pair[0].1 != pair[1].1)
        .map(|index| index + 1);
    if let Some(at) = change {
        let (before, after) = charges.split_at(at);
        let to = after[0].1;
        if before.iter().all(|(_, a)| *a == first) && after.iter().all(|(_, a)| *a == to) {
            return Some(AmountPattern::Changed {
                from_minor: first,
                to_minor: to,
                on: after[0].0,
            });
        }
    }
    let low = charges.iter().map(|(_, a)| *a).min()?;
    let high = charges.iter().map(|(_, a)| *a).max()?;
    Some(AmountPattern::Range {
        low_minor: low,
        high_minor: high,
    })
}

/// Whether amounts stay within `percent` of their middle (a dog walker's
/// fixed fee does; a weekly grocery bill does not).
pub fn steady(amounts: &[i64], percent: i64) -> bool {
    let (Some(low), Some(high)) = (amounts.iter().min(), amounts.iter().max()) else {
        return false;
    };
    (high - low) * 100 <= percent * (high + low) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(day: &str, amount: i64) -> (Date, i64) {
        (Date::parse(day).unwrap(), amount)
    }

    #[test]
    fn stable_changed_and_ranging_amounts_are_told_apart() {
        assert_eq!(
            read(&[on("2026-01-05", 1549), on("2026-02-05", 1549)]),
            Some(AmountPattern::Stable { amount_minor: 1549 })
        );
        assert_eq!(
            read(&[
                on("2026-03-05", 1799),
                on("2026-01-05", 1549),
                on("2026-02-05", 1549),
                on("2026-04-05", 1799)
            ]),
            Some(AmountPattern::Changed {
                from_minor: 1549,
                to_minor: 1799,
                on: Date::parse("2026-03-05").unwrap()
            })
        );
        assert_eq!(
            read(&[
                on("2026-01-05", 8420),
                on("2026-02-05", 9110),
                on("2026-03-05", 7990)
            ]),
            Some(AmountPattern::Range {
                low_minor: 7990,
                high_minor: 9110
            })
        );
        assert_eq!(read(&[]), None);
    }

    #[test]
    fn steady_means_within_a_percentage_of_the_middle() {
        assert!(steady(&[2500, 2500, 2500], 5));
        assert!(!steady(&[6233, 8812, 4410], 5));
        assert!(!steady(&[], 5));
    }
}
