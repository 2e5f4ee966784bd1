//! Recommendations from a person's bank charges. Charges are grouped by
//! merchant key and currency; a group whose latest charge resolves to a
//! catalog service (a bank or own descriptor, 90 or more) is a
//! recommendation with three kinds of evidence: identity (what matched),
//! amount (stable, a range, or a price change and its date) and cadence
//! (from the charges, or the catalog's when one charge is all there is).
//! Confidence adds them up: one charge is a labelled, weaker candidate; two
//! a cadence apart a confident one; more history raises it. Groups that
//! recur at a steady price but match no service are reported apart as
//! unknown recurring; transfers, ATM, refunds, card payments, payroll and
//! peer-to-peer payments are never either. Services already tracked, and
//! declines not yet expired (180 days, or until the price changes), are
//! left out. The output does not depend on the order of the input.

use std::collections::{BTreeMap, HashSet};

use super::amount_pattern::{self, AmountPattern};
use super::catalog_index::{CatalogIndex, Identity};
use super::charge_cadence;
use crate::domain::bank::merchant;
use crate::domain::cadence::Cadence;
use crate::domain::date::Date;

/// How long a decline keeps a service out of the recommendations.
pub const DECLINE_DAYS: i64 = 180;
/// Unknown merchants need this many charges at a steady price.
pub const UNKNOWN_CHARGES: usize = 3;
/// "Steady", in percent either way.
pub const STEADY_PERCENT: i64 = 5;
/// How far a varying amount must move before it undoes a decline.
pub const VARYING_PERCENT: i64 = 25;

/// One bank charge (or credit; only debits are read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Charge {
    pub id: i64,
    pub day: Date,
    /// Signed as the bank sends it: negative is money out.
    pub amount_minor: i64,
    pub description: String,
    pub currency: String,
}

/// A recommendation the person declined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declined {
    pub catalog_id: i64,
    /// The amount it had then, if known: a new amount brings it back.
    pub amount_minor: Option<i64>,
    pub on: Date,
}

/// Where the cadence comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CadenceSource {
    /// The intervals between the charges.
    Charges,
    /// The catalog's typical cadence: too few charges to tell.
    Catalog,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recommendation {
    pub catalog_id: i64,
    pub service_name: String,
    pub merchant_key: String,
    pub currency: String,
    pub identity: Identity,
    pub amounts: AmountPattern,
    /// The amount to expect next (positive).
    pub amount_minor: i64,
    pub cadence: Cadence,
    pub cadence_source: CadenceSource,
    pub charges: usize,
    pub skipped: usize,
    pub monthly_minor: i64,
    pub yearly_minor: i64,
    /// Out of 100.
    pub confidence: u8,
    /// Oldest first.
    pub transaction_ids: Vec<i64>,
    pub last_charged: Date,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRecurring {
    pub merchant_key: String,
    /// The latest charge's description, verbatim.
    pub description: String,
    pub currency: String,
    pub cadence: Cadence,
    pub amount_minor: i64,
    pub charges: usize,
    pub transaction_ids: Vec<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Most confident first.
    pub recommendations: Vec<Recommendation>,
    pub unknown_recurring: Vec<UnknownRecurring>,
}

/// What else decides what is offered.
pub struct Known<'a> {
    pub today: Date,
    /// Catalog services the person already tracks as bills.
    pub tracked: &'a HashSet<i64>,
    pub declined: &'a [Declined],
}

/// Never a subscription, whatever the catalog says.
fn never(charge: &Charge) -> bool {
    let upper = charge.description.to_uppercase();
    merchant::never_a_bill(&charge.description, charge.amount_minor)
        || upper.split_whitespace().any(|word| word == "ATM")
        || upper.contains("PAYROLL")
}

pub fn recommend(index: &CatalogIndex, charges: &[Charge], known: &Known<'_>) -> Found {
    // Grouped by the service each charge resolves to (descriptor variants
    // of one service together; one descriptor carrying two services, told
    // apart by amount, apart), or by payee when none; and by currency.
    type Group<'c> = Vec<(&'c Charge, Option<Identity>)>;
    let mut groups: BTreeMap<(Option<i64>, String, String), Group<'_>> = BTreeMap::new();
    for charge in charges.iter().filter(|charge| !never(charge)) {
        let key = merchant::normalize(&charge.description);
        if key.is_empty() {
            continue;
        }
        let identity = index
            .identify_key(&key, charge.amount_minor)
            .filter(Identity::resolved);
        let service = identity.as_ref().map(|found| found.catalog_id);
        // A charge the amount did not tell apart is never merged into the
        // charges that did resolve to one service: it is a card of its
        // own, marked for review, per payee.
        let payee = match &identity {
            Some(found) if !found.ambiguous => String::new(),
            _ => key,
        };
        groups
            .entry((service, payee, charge.currency.clone()))
            .or_default()
            .push((charge, identity));
    }
    let mut found = Found::default();
    for ((_, _, currency), mut group) in groups {
        group.sort_by(|(a, _), (b, _)| {
            (a.day, a.id, a.amount_minor, &a.description).cmp(&(
                b.day,
                b.id,
                b.amount_minor,
                &b.description,
            ))
        });
        let Some((latest, identity)) = group.last().cloned() else {
            continue;
        };
        let group: Vec<&Charge> = group.into_iter().map(|(charge, _)| charge).collect();
        let key = merchant::normalize(&latest.description);
        let days: Vec<Date> = group.iter().map(|charge| charge.day).collect();
        let amounts: Vec<(Date, i64)> = group
            .iter()
            .map(|charge| (charge.day, charge.amount_minor.abs()))
            .collect();
        let detected = charge_cadence::detect(&days);
        match identity {
            Some(identity) => {
                if let Some(recommendation) =
                    recommendation(index, &key, &currency, identity, &group, detected, &amounts)
                {
                    if offered(&recommendation, known) {
                        found.recommendations.push(recommendation);
                    }
                }
            }
            None => {
                let Some(detected) = detected else { continue };
                let plain: Vec<i64> = amounts.iter().map(|(_, amount)| *amount).collect();
                if detected.charges >= UNKNOWN_CHARGES
                    && amount_pattern::steady(&plain, STEADY_PERCENT)
                {
                    found.unknown_recurring.push(UnknownRecurring {
                        merchant_key: key,
                        description: latest.description.clone(),
                        currency,
                        cadence: detected.cadence,
                        amount_minor: latest.amount_minor.abs(),
                        charges: detected.charges,
                        transaction_ids: group.iter().map(|charge| charge.id).collect(),
                    });
                }
            }
        }
    }
    found.recommendations.sort_by(|a, b| {
        b.confidence
            .cmp(&a.confidence)
            .then_with(|| a.service_name.cmp(&b.service_name))
            .then_with(|| a.catalog_id.cmp(&b.catalog_id))
            .then_with(|| a.merchant_key.cmp(&b.merchant_key))
    });
    found
}

fn recommendation(
    index: &CatalogIndex,
    key: &str,
    currency: &str,
    identity: Identity,
    group: &[&Charge],
    detected: Option<charge_cadence::Detected>,
    amounts: &[(Date, i64)],
) -> Option<Recommendation> {
    let service = index.service(identity.catalog_id)?;
    let pattern = amount_pattern::read(amounts)?;
    let latest = group.last()?;
    // Without a cadence of its own, a charge must look like the service's
    // price: a shop's purchase is not its membership.
    if detected.is_none()
        && !group
            .iter()
            .all(|charge| index.plausible_alone(identity.catalog_id, charge.amount_minor))
    {
        return None;
    }
    let current = pattern.current(latest.amount_minor.abs());
    let (cadence, source) = match detected {
        Some(found) => (found.cadence, CadenceSource::Charges),
        None => (service.typical_cadence, CadenceSource::Catalog),
    };
    let identity_points: u8 = if identity.score == 100 { 40 } else { 35 };
    let cadence_points: u8 = match detected {
        Some(found) if found.charges >= 3 => {
            35 + u8::try_from((found.charges - 3).min(5) * 2).unwrap_or(10)
        }
        Some(_) => 25,
        None => 10,
    };
    let amount_points: u8 = match pattern {
        AmountPattern::Stable { .. } => 15,
        AmountPattern::Changed { .. } => 12,
        AmountPattern::Range { .. } => 5,
    };
    let doubt: u8 = if identity.ambiguous { 15 } else { 0 };
    let confidence = (identity_points + cadence_points + amount_points)
        .saturating_sub(doubt)
        .min(100);
    Some(Recommendation {
        catalog_id: identity.catalog_id,
        service_name: service.name.clone(),
        merchant_key: key.to_owned(),
        currency: currency.to_owned(),
        identity,
        amount_minor: current,
        monthly_minor: cadence.monthly_cost(current),
        yearly_minor: cadence.yearly_cost(current),
        cadence,
        cadence_source: source,
        charges: group.len(),
        skipped: detected.map_or(0, |found| found.skipped),
        confidence,
        amounts: pattern,
        transaction_ids: group.iter().map(|charge| charge.id).collect(),
        last_charged: latest.day,
    })
}

/// Whether the person has not already tracked or (recently, at this
/// price) declined it.
fn offered(recommendation: &Recommendation, known: &Known<'_>) -> bool {
    if known.tracked.contains(&recommendation.catalog_id) {
        return false;
    }
    !known.declined.iter().any(|declined| {
        declined.catalog_id == recommendation.catalog_id
            && known.today.days_since_epoch() - declined.on.days_since_epoch() < DECLINE_DAYS
            && declined
                .amount_minor
                .is_none_or(|amount| !clearly_new_amount(amount, recommendation))
    })
}

/// Whether the amount now is clearly not the one declined: any other price
/// for a service that charges a set price, but for one whose amounts vary
/// (usage, taxes, currency) only a move of more than [`VARYING_PERCENT`],
/// or every next charge would undo the decline.
fn clearly_new_amount(declined_minor: i64, now: &Recommendation) -> bool {
    match now.amounts {
        AmountPattern::Range { .. } => {
            (now.amount_minor - declined_minor).abs() * 100 > declined_minor.abs() * VARYING_PERCENT
        }
        _ => now.amount_minor != declined_minor,
    }
}

#[cfg(test)]
mod tests {
    use super::super::catalog_index::tests::catalog;
    use super::*;

    fn charge(id: i64, day: &str, amount: i64, description: &str) -> Charge {
        Charge {
            id,
            day: Date::parse(day).unwrap(),
            amount_minor: amount,
            description: description.into(),
            currency: "USD".into(),
        }
    }

    fn monthly(first_id: i64, description: &str, amount: i64, months: &[&str]) -> Vec<Charge> {
        months
            .iter()
            .enumerate()
            .map(|(i, day)| charge(first_id + i as i64, day, amount, description))
            .collect()
    }

    fn run(charges: &[Charge]) -> Found {
        run_with(charges, &HashSet::new(), &[])
    }

    fn run_with(charges: &[Charge], tracked: &HashSet<i64>, declined: &[Declined]) -> Found {
        recommend(
            &catalog(),
            charges,
            &Known {
                today: Date::parse("2026-11-23").unwrap(),
                tracked,
                declined,
            },
        )
    }

    /// A realistic history: descriptor variants, a price rise, a skipped
    /// month, an annual renewal, two services behind one descriptor, a
    /// biweekly gym, a weekly dog walker, Saturday groceries, transfers,
    /// refunds, payroll and a marketplace order at the Prime price.
    fn history() -> Vec<Charge> {
        // Netflix under three descriptor variants, up from 15.49 to 17.99.
        let mut all = vec![
            charge(1, "2026-07-05", -1549, "NETFLIX.COM 866-579-7172 CA"),
            charge(2, "2026-08-05", -1549, "NETFLIX.COM LOS GATOS CA"),
            charge(3, "2026-09-05", -1799, "NETFLIX.COM"),
            charge(4, "2026-10-05", -1799, "NETFLIX.COM 866-579-7172 CA"),
        ];
        // Spotify with September skipped.
        all.extend(monthly(
            10,
            "SPOTIFY USA",
            -1199,
            &["2026-07-09", "2026-08-09", "2026-10-09", "2026-11-09"],
        ));
        // Amazon Prime renewed yearly.
        all.push(charge(20, "2025-11-02", -13900, "AMAZON PRIME*2K4RT6"));
        all.push(charge(21, "2026-11-02", -13900, "AMAZON PRIME*9ZZ1Q0"));
        // Apple TV+ and iCloud+ behind APPLE.COM/BILL.
        all.extend(monthly(
            30,
            "APPLE.COM/BILL",
            -1299,
            &["2026-09-14", "2026-10-14", "2026-11-14"],
        ));
        all.extend(monthly(
            40,
            "APPLE.COM/BILL 866-712-7753 CA",
            -99,
            &["2026-09-20", "2026-10-20", "2026-11-20"],
        ));
        // A biweekly gym.
        all.extend(monthly(
            50,
            "PLANET FITNESS",
            -1500,
            &[
                "2026-09-04",
                "2026-09-18",
                "2026-10-02",
                "2026-10-16",
                "2026-10-30",
            ],
        ));
        // A weekly dog walker nobody catalogued.
        all.extend(monthly(
            60,
            "HAPPY PAWS DOG WALKING",
            -2500,
            &[
                "2026-10-06",
                "2026-10-13",
                "2026-10-20",
                "2026-10-27",
                "2026-11-03",
            ],
        ));
        // Saturday groceries, never the same.
        for (i, (day, amount)) in [
            ("2026-10-03", -6233),
            ("2026-10-10", -8812),
            ("2026-10-17", -4410),
            ("2026-10-24", -7120),
        ]
        .iter()
        .enumerate()
        {
            all.push(charge(70 + i as i64, day, *amount, "FRESHMART #0412"));
        }
        // Never subscriptions.
        all.extend(monthly(
            80,
            "ONLINE TRANSFER TO SAVINGS",
            -50000,
            &["2026-09-01", "2026-10-01", "2026-11-01"],
        ));
        all.push(charge(85, "2026-10-12", 1549, "NETFLIX.COM REFUND"));
        all.extend(monthly(
            86,
            "PAYROLL ACME CORP DIRECT DEP",
            250000,
            &["2026-09-15", "2026-10-15", "2026-11-15"],
        ));
        all.extend(monthly(
            90,
            "ZELLE TO ROOMMATE",
            -60000,
            &["2026-09-01", "2026-10-01", "2026-11-01"],
        ));
        all.extend(monthly(
            95,
            "ATM WITHDRAWAL 0412",
            -10000,
            &["2026-09-03", "2026-10-03", "2026-11-03"],
        ));
        all.push(charge(99, "2026-10-21", -13900, "AMZN MKTP US*2K4RT6"));
        // Steady and monthly, and still never subscriptions: paying a
        // friend, paying a card off, a payroll service's debit.
        all.extend(monthly(
            100,
            "VENMO PAYMENT 1023948812",
            -5000,
            &["2026-09-02", "2026-10-02", "2026-11-02"],
        ));
        all.extend(monthly(
            110,
            "CHASE CREDIT CRD AUTOPAY",
            -45000,
            &["2026-09-25", "2026-10-25", "2026-11-25"],
        ));
        all.extend(monthly(
            120,
            "ADP PAYROLL FEES",
            -4500,
            &["2026-09-10", "2026-10-10", "2026-11-10"],
        ));
        all
    }

    fn named<'a>(found: &'a Found, name: &str) -> Option<&'a Recommendation> {
        found
            .recommendations
            .iter()
            .find(|r| r.service_name == name)
    }

    #[test]
    fn a_realistic_history_gives_known_services_with_their_evidence() {
        let found = run(&history());
        let names: Vec<&str> = found
            .recommendations
            .iter()
            .map(|r| r.service_name.as_str())
            .collect();
        assert_eq!(names.len(), 6, "{names:?}");
        for name in [
            "Netflix",
            "Spotify",
            "Amazon Prime",
            "Apple TV+",
            "iCloud+",
            "Planet Fitness",
        ] {
            assert!(names.contains(&name), "{name} missing from {names:?}");
        }
        let netflix = named(&found, "Netflix").unwrap();
        assert_eq!(netflix.transaction_ids.len(), 4, "every descriptor variant");
        assert_eq!(
            netflix.amounts,
            AmountPattern::Changed {
                from_minor: 1549,
                to_minor: 1799,
                on: Date::parse("2026-09-05").unwrap()
            }
        );
        assert_eq!(
            (netflix.amount_minor, netflix.cadence),
            (1799, Cadence::Monthly)
        );
        assert_eq!(netflix.yearly_minor, 1799 * 12);
        let spotify = named(&found, "Spotify").unwrap();
        assert_eq!((spotify.cadence, spotify.skipped), (Cadence::Monthly, 1));
        let prime = named(&found, "Amazon Prime").unwrap();
        assert_eq!(
            (prime.cadence, prime.monthly_minor),
            (Cadence::Yearly, 1158)
        );
        let tv = named(&found, "Apple TV+").unwrap();
        let storage = named(&found, "iCloud+").unwrap();
        assert!(!tv.identity.ambiguous && !storage.identity.ambiguous);
        assert_eq!(
            (tv.charges, storage.charges),
            (3, 3),
            "one descriptor, two services, kept apart"
        );
    }

    #[test]
    fn unknown_recurring_is_apart_and_groceries_transfers_and_one_offs_are_nothing() {
        let found = run(&history());
        let unknown: Vec<&str> = found
            .unknown_recurring
            .iter()
            .map(|u| u.merchant_key.as_str())
            .collect();
        assert!(unknown.contains(&"HAPPY PAWS DOG WALKING"), "{unknown:?}");
        let walker = found
            .unknown_recurring
            .iter()
            .find(|u| u.merchant_key == "HAPPY PAWS DOG WALKING")
            .unwrap();
        assert_eq!(
            (walker.cadence, walker.amount_minor),
            (Cadence::Weekly, 2500)
        );
        for never in [
            "FRESHMART",
            "ONLINE TRANSFER TO SAVINGS",
            "ZELLE TO ROOMMATE",
            "ATM WITHDRAWAL",
            "AMZN MKTP US",
            "VENMO",
            "CHASE CREDIT CRD",
            "ADP PAYROLL",
        ] {
            assert!(
                !unknown.iter().any(|u| u.starts_with(never)),
                "{never} in {unknown:?}"
            );
            assert!(
                !found
                    .recommendations
                    .iter()
                    .any(|r| r.merchant_key.starts_with(never)),
                "{never}"
            );
        }
        assert!(found
            .recommendations
            .iter()
            .all(|r| !r.merchant_key.contains("REFUND")));
    }

    #[test]
    fn a_biweekly_gym_is_known_by_its_descriptor() {
        let found = run(&history());
        let gym = named(&found, "Planet Fitness").unwrap();
        assert_eq!(
            (gym.cadence, gym.cadence_source, gym.charges),
            (Cadence::Biweekly, CadenceSource::Charges, 5)
        );
    }

    #[test]
    fn confidence_grows_from_one_charge_to_two_to_a_history() {
        let one = run(&[charge(1, "2026-11-05", -1549, "NETFLIX.COM")]);
        let first = &one.recommendations[0];
        assert_eq!(
            (first.cadence, first.cadence_source),
            (Cadence::Monthly, CadenceSource::Catalog)
        );
        let two = run(&monthly(
            1,
            "NETFLIX.COM",
            -1549,
            &["2026-10-05", "2026-11-05"],
        ));
        let four = run(&monthly(
            1,
            "NETFLIX.COM",
            -1549,
            &["2026-08-05", "2026-09-05", "2026-10-05", "2026-11-05"],
        ));
        let (a, b, c) = (
            first.confidence,
            two.recommendations[0].confidence,
            four.recommendations[0].confidence,
        );
        assert!(a < b && b < c, "{a} {b} {c}");
        assert!(
            a < 70 && b >= 75,
            "one charge is a weaker candidate: {a} {b}"
        );
        let yearly_once = run(&[charge(1, "2026-11-02", -13900, "AMAZON PRIME*2K4RT6")]);
        let prime = &yearly_once.recommendations[0];
        assert_eq!(
            (prime.cadence, prime.cadence_source),
            (Cadence::Yearly, CadenceSource::Catalog)
        );
    }

    #[test]
    fn a_decline_of_varying_amounts_holds_until_they_move_clearly() {
        // A metered service: never the same twice.
        let charges = vec![
            charge(1, "2026-08-05", -1210, "NETFLIX.COM"),
            charge(2, "2026-09-05", -1480, "NETFLIX.COM"),
            charge(3, "2026-10-05", -1330, "NETFLIX.COM"),
            charge(4, "2026-11-05", -1390, "NETFLIX.COM"),
        ];
        let card = run(&charges).recommendations.remove(0);
        assert!(
            matches!(card.amounts, AmountPattern::Range { .. }),
            "{:?}",
            card.amounts
        );
        let declined = |amount| Declined {
            catalog_id: 1,
            amount_minor: Some(amount),
            on: Date::parse("2026-10-06").unwrap(),
        };
        // Declined at 13.30; 13.90 now is the same service's usual wobble.
        assert!(run_with(&charges, &HashSet::new(), &[declined(1330)])
            .recommendations
            .is_empty());
        // Declined at 9.00: 13.90 is clearly more.
        assert_eq!(
            run_with(&charges, &HashSet::new(), &[declined(900)])
                .recommendations
                .len(),
            1
        );
    }

    #[test]
    fn tracked_and_declined_services_are_not_offered_until_the_decline_expires_or_the_price_moves()
    {
        let charges = monthly(1, "NETFLIX.COM", -1549, &["2026-10-05", "2026-11-05"]);
        assert!(run_with(&charges, &HashSet::from([1]), &[])
            .recommendations
            .is_empty());
        let recent = Declined {
            catalog_id: 1,
            amount_minor: Some(1549),
            on: Date::parse("2026-10-06").unwrap(),
        };
        assert!(
            run_with(&charges, &HashSet::new(), std::slice::from_ref(&recent))
                .recommendations
                .is_empty()
        );
        let old = Declined {
            on: Date::parse("2026-01-06").unwrap(),
            ..recent.clone()
        };
        assert_eq!(
            run_with(&charges, &HashSet::new(), &[old])
                .recommendations
                .len(),
            1,
            "expired"
        );
        let other_price = Declined {
            amount_minor: Some(1299),
            ..recent
        };
        assert_eq!(
            run_with(&charges, &HashSet::new(), &[other_price])
                .recommendations
                .len(),
            1,
            "new amount"
        );
    }

    #[test]
    fn an_ambiguous_descriptor_is_marked_and_costs_confidence() {
        let found = run(&monthly(
            1,
            "APPLE.COM/BILL",
            -299,
            &["2026-09-14", "2026-10-14", "2026-11-14"],
        ));
        let card = &found.recommendations[0];
        assert!(card.identity.ambiguous);
        assert!(!card.identity.alternatives.is_empty());
        // The same three charges at a price that does tell: more confident.
        let told = run(&monthly(
            1,
            "APPLE.COM/BILL",
            -1299,
            &["2026-09-14", "2026-10-14", "2026-11-14"],
        ));
        assert!(!told.recommendations[0].identity.ambiguous);
        assert!(
            card.confidence < told.recommendations[0].confidence,
            "{} vs {}",
            card.confidence,
            told.recommendations[0].confidence
        );
    }

    #[test]
    fn charges_the_amount_cannot_tell_apart_are_never_merged_into_a_resolved_service() {
        // Apple TV+ every month at its price, and one 2.99 charge through
        // the same descriptor that could be any Apple service.
        let mut charges = monthly(
            1,
            "APPLE.COM/BILL",
            -1299,
            &["2026-09-14", "2026-10-14", "2026-11-14"],
        );
        charges.push(charge(9, "2026-10-02", -299, "APPLE.COM/BILL"));
        let found = run(&charges);
        let tv = named(&found, "Apple TV+").unwrap();
        assert!(!tv.identity.ambiguous);
        assert_eq!(tv.transaction_ids, vec![1, 2, 3], "{found:?}");
        let review: Vec<&Recommendation> = found
            .recommendations
            .iter()
            .filter(|r| r.identity.ambiguous)
            .collect();
        assert_eq!(review.len(), 1, "{found:?}");
        assert_eq!(review[0].transaction_ids, vec![9]);
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn unrelated() -> impl Strategy<Value = Vec<Charge>> {
            prop::collection::vec((0u32..300, 100i64..20_000, 0usize..4), 0..30).prop_map(|rows| {
                let names = [
                    "CORNER CAFE",
                    "BOOKS AND MORE",
                    "CITY PARKING",
                    "HARDWARE DEPOT",
                ];
                rows.into_iter()
                    .enumerate()
                    .map(|(i, (day, amount, name))| Charge {
                        id: 1_000 + i as i64,
                        day: Date::parse("2026-01-01")
                            .unwrap()
                            .add_days(i64::from(day))
                            .unwrap(),
                        amount_minor: -amount,
                        description: names[name].into(),
                        currency: "USD".into(),
                    })
                    .collect()
            })
        }

        proptest! {
            #[test]
            fn unrelated_charges_never_remove_a_recommendation(extra in unrelated()) {
                let base = history();
                let before = run(&base);
                let mut more = base.clone();
                more.extend(extra);
                let after = run(&more);
                for recommendation in &before.recommendations {
                    prop_assert!(after.recommendations.contains(recommendation), "{} lost", recommendation.service_name);
                }
            }

            #[test]
            fn the_order_of_the_input_never_changes_the_output(seed in any::<u64>()) {
                let mut shuffled = history();
                // A deterministic shuffle from the seed.
                let mut state = seed | 1;
                for i in (1..shuffled.len()).rev() {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let j = (state % (i as u64 + 1)) as usize;
                    shuffled.swap(i, j);
                }
                prop_assert_eq!(run(&shuffled), run(&history()));
            }
        }
    }
}
