//! The plans of catalog services (`migrations/data/catalog_tiers.csv`):
//! `slug,tier,monthly_usd,annual_usd`, cheapest first, the cheapest at the
//! service's starting price.

use std::collections::{HashMap, HashSet};

use super::{cents, records, CatalogError, Service};

const TIERS_CSV: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../migrations/data/catalog_tiers.csv"
));

/// One plan of a service. Prices are US cents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tier {
    pub service_slug: String,
    pub name: String,
    pub monthly_cents: Option<i64>,
    pub annual_cents: Option<i64>,
}

pub fn tiers() -> Result<Vec<Tier>, CatalogError> {
    const FILE: &str = "catalog_tiers.csv";
    records(FILE, TIERS_CSV)
        .map(|row| {
            let (line, record) = row?;
            let field = |index: usize| record.get(index).unwrap_or_default().trim().to_owned();
            Ok(Tier {
                service_slug: field(0),
                name: field(1),
                monthly_cents: cents(FILE, line, &field(2))?,
                annual_cents: cents(FILE, line, &field(3))?,
            })
        })
        .collect()
}

/// The checks the plans must pass before they may ship: each names a known
/// service, has a price, does not repeat; a service's plans are listed
/// together, cheapest first, and its first is at its starting price.
pub fn validate(services: &[Service], tiers: &[Tier]) -> Result<(), String> {
    let by_slug: HashMap<&str, &Service> = services
        .iter()
        .map(|service| (service.slug.as_str(), service))
        .collect();
    let mut seen = HashSet::new();
    let mut finished = HashSet::new();
    let mut previous: Option<&Tier> = None;
    for tier in tiers {
        let Some(service) = by_slug.get(tier.service_slug.as_str()) else {
            return Err(format!(
                "plan {:?} points at unknown service {}",
                tier.name, tier.service_slug
            ));
        };
        if tier.name.is_empty() {
            return Err(format!("a plan of {} without a name", tier.service_slug));
        }
        if tier.monthly_cents.unwrap_or(0) <= 0 && tier.annual_cents.unwrap_or(0) <= 0 {
            return Err(format!("{} {:?}: no price", tier.service_slug, tier.name));
        }
        if !seen.insert((tier.service_slug.as_str(), tier.name.to_lowercase())) {
            return Err(format!("{} {:?} repeats", tier.service_slug, tier.name));
        }
        match previous {
            Some(before) if before.service_slug == tier.service_slug => {
                if cheaper(tier, before) {
                    return Err(format!(
                        "{} {:?} is cheaper than {:?} listed before it",
                        tier.service_slug, tier.name, before.name
                    ));
                }
            }
            _ => {
                if let Some(before) = previous {
                    finished.insert(before.service_slug.as_str());
                }
                if finished.contains(tier.service_slug.as_str()) {
                    return Err(format!(
                        "the plans of {} are not together",
                        tier.service_slug
                    ));
                }
                let starting = match service.starting_monthly_cents {
                    Some(monthly) => tier.monthly_cents == Some(monthly),
                    None => tier.annual_cents == service.starting_annual_cents,
                };
                if !starting {
                    return Err(format!(
                        "{} {:?}: the cheapest plan is not at the starting price",
                        tier.service_slug, tier.name
                    ));
                }
            }
        }
        previous = Some(tier);
    }
    Ok(())
}

/// Whether `tier` costs less than `before`: by their yearly prices when
/// both have one (a yearly plan's twelfth may undercut a monthly price),
/// else by their monthly prices, else a twelfth of the yearly one.
fn cheaper(tier: &Tier, before: &Tier) -> bool {
    match (tier, before) {
        (
            Tier {
                annual_cents: Some(annual),
                ..
            },
            Tier {
                annual_cents: Some(earlier),
                ..
            },
        ) => annual < earlier,
        (
            Tier {
                monthly_cents: Some(monthly),
                ..
            },
            Tier {
                monthly_cents: Some(earlier),
                ..
            },
        ) => monthly < earlier,
        _ => a_month(tier) < a_month(before),
    }
}

fn a_month(tier: &Tier) -> i64 {
    tier.monthly_cents
        .or(tier.annual_cents.map(|annual| (annual + 6) / 12))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::catalog::services;

    #[test]
    fn the_shipped_plans_pass_their_checks() {
        let services = services().unwrap();
        let tiers = tiers().unwrap();
        validate(&services, &tiers).unwrap();
        let netflix: Vec<(&str, Option<i64>)> = tiers
            .iter()
            .filter(|tier| tier.service_slug == "netflix")
            .map(|tier| (tier.name.as_str(), tier.monthly_cents))
            .collect();
        assert_eq!(
            netflix,
            [
                ("Standard with ads", Some(799)),
                ("Standard", Some(1799)),
                ("Premium", Some(2499))
            ]
        );
        let services_with_plans: HashSet<&str> = tiers
            .iter()
            .map(|tier| tier.service_slug.as_str())
            .collect();
        assert!(
            services_with_plans.len() >= 40,
            "{}",
            services_with_plans.len()
        );
    }

    #[test]
    fn validation_catches_each_mistake() {
        let services = services().unwrap();
        let good = tiers().unwrap();
        let check = |change: &dyn Fn(&mut Vec<Tier>)| {
            let mut tiers = good.clone();
            change(&mut tiers);
            validate(&services, &tiers).unwrap_err()
        };
        assert!(
            check(&|t| t[0].service_slug = "no-such-service".into()).contains("unknown service")
        );
        assert!(check(&|t| t[1].name = t[0].name.to_uppercase()).contains("repeats"));
        assert!(check(&|t| {
            t[0].monthly_cents = None;
            t[0].annual_cents = None;
        })
        .contains("no price"));
        assert!(check(&|t| t[0].monthly_cents = Some(1)).contains("starting price"));
        assert!(check(&|t| t.swap(1, 2)).contains("cheaper than"));
        assert!(check(&|t| {
            let second = t.remove(1);
            t.push(second);
        })
        .contains("not together"));
    }
}
