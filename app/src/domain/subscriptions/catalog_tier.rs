//! Which of a catalog service's plans a bill is on, so its price is
//! compared with that plan's and not with the cheapest (Netflix at $17.99 is
//! the Standard plan, not "125 % over" Standard with ads).

/// One plan of a service, at its list prices (US cents); at least one set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tier {
    pub name: String,
    pub monthly_minor: Option<i64>,
    pub annual_minor: Option<i64>,
}

impl Tier {
    /// What the plan costs a month for a bill charged `yearly` or not: a
    /// yearly bill against the plan's yearly price where it has one, any
    /// other against its monthly price; a twelfth of the yearly price
    /// (rounded) when that is all there is.
    pub fn monthly_for(&self, yearly: bool) -> Option<i64> {
        let twelfth = self.annual_minor.map(|annual| (annual + 6) / 12);
        if yearly {
            twelfth.or(self.monthly_minor)
        } else {
            self.monthly_minor.or(twelfth)
        }
    }
}

/// The plan whose price a month is nearest `monthly_minor` (the bill's cost
/// a month); on a tie the cheaper plan, then the first listed. `None` when
/// no plan has a price.
pub fn matching(tiers: &[Tier], monthly_minor: i64, yearly: bool) -> Option<(&Tier, i64)> {
    tiers
        .iter()
        .filter_map(|tier| Some((tier, tier.monthly_for(yearly)?)))
        .min_by_key(|(_, price)| ((price - monthly_minor).abs(), *price))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tier(name: &str, monthly: Option<i64>, annual: Option<i64>) -> Tier {
        Tier {
            name: name.into(),
            monthly_minor: monthly,
            annual_minor: annual,
        }
    }

    fn netflix() -> Vec<Tier> {
        vec![
            tier("Standard with ads", Some(799), None),
            tier("Standard", Some(1799), None),
            tier("Premium", Some(2499), None),
        ]
    }

    fn name(found: Option<(&Tier, i64)>) -> Option<(&str, i64)> {
        found.map(|(tier, price)| (tier.name.as_str(), price))
    }

    #[test]
    fn a_charge_is_on_the_plan_nearest_its_price() {
        let tiers = netflix();
        assert_eq!(
            name(matching(&tiers, 1799, false)),
            Some(("Standard", 1799))
        );
        // The walk's case: $15.49 (an older Standard price) is nearest
        // Standard, not 94 % over Standard with ads.
        assert_eq!(
            name(matching(&tiers, 1549, false)),
            Some(("Standard", 1799))
        );
        assert_eq!(
            name(matching(&tiers, 799, false)),
            Some(("Standard with ads", 799))
        );
        assert_eq!(name(matching(&tiers, 9999, false)), Some(("Premium", 2499)));
        assert_eq!(
            name(matching(&tiers, 0, false)),
            Some(("Standard with ads", 799))
        );
    }

    #[test]
    fn halfway_between_two_plans_is_the_cheaper() {
        let tiers = netflix();
        assert_eq!(
            name(matching(&tiers, 1299, false)),
            Some(("Standard with ads", 799))
        );
        assert_eq!(
            name(matching(&tiers, 1300, false)),
            Some(("Standard", 1799))
        );
    }

    #[test]
    fn a_yearly_bill_compares_with_yearly_prices() {
        let tiers = vec![
            tier("Basic", Some(1199), None),
            tier("Premium", Some(1899), Some(18999)),
        ];
        // $189.99 a year is $15.83 a month: the Premium plan paid yearly.
        assert_eq!(name(matching(&tiers, 1583, true)), Some(("Premium", 1583)));
        // Paid monthly, $15.83 is nearer Premium's $18.99 (3.16 away) than
        // Basic's $11.99 (3.84 away).
        assert_eq!(name(matching(&tiers, 1583, false)), Some(("Premium", 1899)));
        // A plan with only a yearly price counts at a twelfth of it.
        assert_eq!(
            tier("Annual", None, Some(9900)).monthly_for(false),
            Some(825)
        );
    }

    #[test]
    fn no_priced_plan_matches_nothing() {
        assert_eq!(name(matching(&[], 1000, false)), None);
        assert_eq!(
            name(matching(&[tier("Free", None, None)], 1000, false)),
            None
        );
    }
}
