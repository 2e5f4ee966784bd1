//! The subscription catalog's reviewed data files (`migrations/data/`):
//! real services, their bank-statement descriptors and the slang people use.

use std::collections::HashSet;

pub mod tiers;

const SERVICES_CSV: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../migrations/data/catalog_services.csv"
));
const DESCRIPTORS_CSV: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../migrations/data/catalog_descriptors.csv"
));

/// One catalog service. Prices are US cents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Service {
    pub slug: String,
    pub name: String,
    pub category: String,
    pub subcategory: String,
    pub website: String,
    pub typical_cadence: String,
    pub starting_monthly_cents: Option<i64>,
    pub starting_annual_cents: Option<i64>,
    pub price_notes: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DescriptorKind {
    Bank,
    Slang,
}

impl DescriptorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Bank => "bank",
            Self::Slang => "slang",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Descriptor {
    pub service_slug: String,
    pub kind: DescriptorKind,
    pub text: String,
}

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("catalog data, {file} line {line}: {problem}")]
    Row {
        file: &'static str,
        line: u64,
        problem: String,
    },
    #[error("catalog data, {file}: {source}")]
    Csv {
        file: &'static str,
        #[source]
        source: csv::Error,
    },
}

/// How descriptors are compared: case and runs of spaces do not matter.
pub fn normalize(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_uppercase()
}

/// A looser key for matching a bill's name to a service: letters and digits
/// only, so "Disney Plus", "disney+" and "DisneyPlus" meet where they can.
pub fn name_key(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn cents(file: &'static str, line: u64, raw: &str) -> Result<Option<i64>, CatalogError> {
    if raw.is_empty() {
        return Ok(None);
    }
    crate::domain::amount::Amount::parse(raw)
        .map(|amount| Some(amount.minor()))
        .map_err(|error| CatalogError::Row {
            file,
            line,
            problem: format!("price {raw:?}: {error}"),
        })
}

fn records(
    file: &'static str,
    text: &'static str,
) -> impl Iterator<Item = Result<(u64, csv::StringRecord), CatalogError>> {
    csv::Reader::from_reader(text.as_bytes())
        .into_records()
        .map(move |record| {
            let record = record.map_err(|source| CatalogError::Csv { file, source })?;
            let line = record.position().map(|p| p.line()).unwrap_or_default();
            Ok((line, record))
        })
}

pub fn services() -> Result<Vec<Service>, CatalogError> {
    const FILE: &str = "catalog_services.csv";
    records(FILE, SERVICES_CSV)
        .map(|row| {
            let (line, record) = row?;
            let field = |index: usize| record.get(index).unwrap_or_default().trim().to_owned();
            Ok(Service {
                slug: field(0),
                name: field(1),
                category: field(2),
                subcategory: field(3),
                website: field(4),
                typical_cadence: field(5),
                starting_monthly_cents: cents(FILE, line, &field(6))?,
                starting_annual_cents: cents(FILE, line, &field(7))?,
                price_notes: field(8),
            })
        })
        .collect()
}

pub fn descriptors() -> Result<Vec<Descriptor>, CatalogError> {
    const FILE: &str = "catalog_descriptors.csv";
    records(FILE, DESCRIPTORS_CSV)
        .map(|row| {
            let (line, record) = row?;
            let field = |index: usize| record.get(index).unwrap_or_default().trim().to_owned();
            let kind = match field(1).as_str() {
                "bank" => DescriptorKind::Bank,
                "slang" => DescriptorKind::Slang,
                other => {
                    return Err(CatalogError::Row {
                        file: FILE,
                        line,
                        problem: format!("kind {other:?} is neither bank nor slang"),
                    })
                }
            };
            Ok(Descriptor {
                service_slug: field(0),
                kind,
                text: field(2),
            })
        })
        .collect()
}

/// The checks the data must pass before it may ship; the seeding steps run
/// them too, so a bad file fails the migration instead of seeding half.
pub fn validate(services: &[Service], descriptors: &[Descriptor]) -> Result<(), String> {
    let mut slugs = HashSet::new();
    let mut names = HashSet::new();
    for service in services {
        if service.slug.is_empty() || service.name.is_empty() {
            return Err(format!("a service without slug or name: {service:?}"));
        }
        if !slugs.insert(service.slug.as_str()) {
            return Err(format!("service slug {} repeats", service.slug));
        }
        if !names.insert(normalize(&service.name)) {
            return Err(format!("service name {} repeats", service.name));
        }
        if !["weekly", "monthly", "quarterly", "yearly"].contains(&service.typical_cadence.as_str())
        {
            return Err(format!(
                "{}: cadence {:?}",
                service.slug, service.typical_cadence
            ));
        }
    }
    let mut seen = HashSet::new();
    for descriptor in descriptors {
        if !slugs.contains(descriptor.service_slug.as_str()) {
            return Err(format!(
                "descriptor {:?} points at unknown service {}",
                descriptor.text, descriptor.service_slug
            ));
        }
        if descriptor.text.is_empty() {
            return Err(format!(
                "an empty descriptor for {}",
                descriptor.service_slug
            ));
        }
        if !seen.insert(normalize(&descriptor.text)) {
            return Err(format!("descriptor {:?} repeats", descriptor.text));
        }
    }
    Ok(())
}

/// [`index`] of the catalog files alone, built once: they are part of
/// the binary, so the index cannot change while the server runs (`None`
/// when they do not index, which their own tests rule out).
pub fn seeded_index() -> Option<&'static crate::domain::subscriptions::catalog_index::CatalogIndex>
{
    static SEEDED: std::sync::OnceLock<
        Option<crate::domain::subscriptions::catalog_index::CatalogIndex>,
    > = std::sync::OnceLock::new();
    SEEDED.get_or_init(|| index(&[]).ok()).as_ref()
}

/// The matching index of the catalog files, each service's id its line
/// order from 1 (as the seed inserts them), with `own` descriptors of the
/// person added.
pub fn index(
    own: &[crate::domain::subscriptions::catalog_index::Descriptor],
) -> Result<crate::domain::subscriptions::catalog_index::CatalogIndex, CatalogError> {
    use crate::domain::cadence::Cadence;
    use crate::domain::subscriptions::catalog_index::{self as index, Kind};
    let services = services()?;
    let ids: std::collections::HashMap<String, i64> = services
        .iter()
        .zip(1..)
        .map(|(service, id)| (service.slug.clone(), id))
        .collect();
    let mut all: Vec<index::Descriptor> = own.to_vec();
    for descriptor in descriptors()? {
        if let Some(&catalog_id) = ids.get(&descriptor.service_slug) {
            all.push(index::Descriptor {
                catalog_id,
                kind: match descriptor.kind {
                    DescriptorKind::Bank => Kind::Bank,
                    DescriptorKind::Slang => Kind::Slang,
                },
                text: descriptor.text,
            });
        }
    }
    let services = services
        .into_iter()
        .zip(1..)
        .map(|(service, id)| index::Service {
            id,
            typical_cadence: Cadence::parse(&service.typical_cadence, 1)
                .unwrap_or(Cadence::Monthly),
            name: service.name,
            website: service.website,
            monthly_minor: service.starting_monthly_cents,
            annual_minor: service.starting_annual_cents,
        })
        .collect();
    index::CatalogIndex::new(services, &all).map_err(|error| CatalogError::Row {
        file: "catalog_descriptors.csv",
        line: 0,
        problem: error.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bank_descriptor_resolves_to_its_own_service_or_its_family() {
        let services = services().unwrap();
        let index = index(&[]).unwrap();
        let mut wrong = Vec::new();
        for descriptor in descriptors().unwrap() {
            if descriptor.kind != DescriptorKind::Bank {
                continue;
            }
            let position = services
                .iter()
                .position(|s| s.slug == descriptor.service_slug)
                .unwrap();
            let service = &services[position];
            let id = position as i64 + 1;
            let price = service
                .starting_monthly_cents
                .or(service.starting_annual_cents)
                .unwrap_or(1_000);
            match index.identify(&descriptor.text, -price) {
                Some(found)
                    if found.resolved()
                        && (found.catalog_id == id || found.alternatives.contains(&id)) => {}
                other => wrong.push(format!(
                    "{} {:?}: {other:?}",
                    descriptor.service_slug, descriptor.text
                )),
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of 1,069:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    /// One-off purchases through a processor that also bills catalogued
    /// subscriptions (Google, Apple, Amazon Digital) are not those
    /// subscriptions: the name after the processor's `*` tells them apart.
    #[test]
    fn a_processors_other_purchases_do_not_resolve_to_its_subscriptions() {
        let index = index(&[]).unwrap();
        for (description, amount) in [
            ("GOOGLE *Google Play Apps", -1399),
            ("GOOGLE *TEMPORARY HOLD", -100),
            ("APL*ITUNES MOVIE RENTAL", -599),
            ("AMZN DIGITAL*KINDLE EBOOK 2K4RT6", -1499),
            ("DISNEY*STORE ORDER", -2999),
        ] {
            let found = index.identify(description, amount);
            assert!(
                found.as_ref().is_none_or(|found| !found.resolved()),
                "{description}: {found:?}"
            );
        }
        // While the subscriptions behind the same processors still do.
        let services = services().unwrap();
        for (description, slug) in [
            ("GOOGLE *YOUTUBE TV 650-253-0000 CA", "youtube-tv"),
            ("GOOGLE *YOUTUBEPREMIUM", "youtube-premium"),
            ("AMZN DIGITAL*AUDIBLE", "audible"),
            ("HLU*HULU 877-8244858 CA", "hulu"),
        ] {
            let id = services.iter().position(|s| s.slug == slug).unwrap() as i64 + 1;
            let found = index.identify(description, -1_000).unwrap();
            assert!(found.resolved(), "{description}: {found:?}");
            assert!(
                found.catalog_id == id || found.alternatives.contains(&id),
                "{description}: {found:?}"
            );
        }
    }

    #[test]
    fn the_catalog_has_exactly_the_released_descriptor_counts() {
        let descriptors = descriptors().unwrap();
        let bank = descriptors
            .iter()
            .filter(|d| d.kind == DescriptorKind::Bank)
            .count();
        let slang = descriptors
            .iter()
            .filter(|d| d.kind == DescriptorKind::Slang)
            .count();
        assert_eq!(descriptors.len(), 1_501);
        assert_eq!(bank, 1_069);
        assert_eq!(slang, 432);
    }

    #[test]
    fn no_descriptor_repeats_and_each_points_at_a_service() {
        let services = services().unwrap();
        let descriptors = descriptors().unwrap();
        validate(&services, &descriptors).unwrap();
        for service in &services {
            assert!(
                descriptors
                    .iter()
                    .any(|d| d.service_slug == service.slug && d.kind == DescriptorKind::Bank),
                "{} has no bank descriptor",
                service.slug
            );
        }
    }

    #[test]
    fn the_catalog_knows_well_known_services() {
        let services = services().unwrap();
        for name in ["Netflix", "Spotify", "Disney+", "YouTube Premium"] {
            assert!(services.iter().any(|s| s.name == name), "{name}");
        }
        let netflix = services.iter().find(|s| s.slug == "netflix").unwrap();
        assert_eq!(netflix.starting_monthly_cents, Some(799));
    }

    #[test]
    fn validation_catches_repeats_and_dangling_services() {
        let services = services().unwrap();
        let mut descriptors = descriptors().unwrap();
        let mut repeated = descriptors[0].clone();
        repeated.text = format!("  {}  ", descriptors[0].text.to_lowercase());
        descriptors.push(repeated);
        assert!(validate(&services, &descriptors)
            .unwrap_err()
            .contains("repeats"));

        let dangling = vec![Descriptor {
            service_slug: "no-such-service".into(),
            kind: DescriptorKind::Slang,
            text: "whatever".into(),
        }];
        assert!(validate(&services, &dangling)
            .unwrap_err()
            .contains("unknown service"));
    }

    #[test]
    fn normalizing_ignores_case_and_spacing() {
        assert_eq!(
            normalize("  Netflix.com   Los Gatos "),
            "NETFLIX.COM LOS GATOS"
        );
        assert_eq!(name_key("Disney+ "), "disney");
        assert_eq!(name_key("YouTube Premium"), "youtubepremium");
    }

    /// Issue 53, rule 5: a purchase at a shop that also sells a membership
    /// is a purchase, not the membership (and never a yearly subscription).
    #[test]
    fn a_single_purchase_at_a_shop_is_never_recommended() {
        use crate::domain::date::Date;
        use crate::domain::subscriptions::recommend::{recommend, Charge, Known};
        let index = seeded_index().unwrap();
        let purchases = [
            ("TARGET 00028134 MINNEAPOLIS MN", -5_423),
            ("TARGET T-1234 BROOKLYN NY", -14_312),
            ("TARGET.COM * 800-591-3869 MN", -3_199),
            ("COSTCO WHSE #0123 ISSAQUAH WA", -21_467),
            ("WAL-MART #1234 BENTONVILLE AR", -6_301),
            ("WALMART.COM 8009256278 AR", -4_250),
            ("AMAZON.COM*2K4AB12C3 AMZN.COM/BILL WA", -2_599),
            ("AMZN MKTP US*2K4AB12C3 AMZN.COM/BILL WA", -1_899),
            ("APPLE.COM/US 800-676-2775 CA", -129_900),
            ("BEST BUY 00012345 RICHFIELD MN", -49_999),
            ("STARBUCKS STORE 12345 SEATTLE WA", -675),
        ];
        let tracked = std::collections::HashSet::new();
        let known = Known {
            today: Date::parse("2026-12-03").unwrap(),
            tracked: &tracked,
            declined: &[],
        };
        let mut offered = Vec::new();
        for (id, (description, amount_minor)) in (1..).zip(purchases) {
            let charges = [Charge {
                id,
                day: Date::parse("2026-11-21").unwrap(),
                amount_minor,
                description: description.to_owned(),
                currency: "USD".into(),
            }];
            let found = recommend(index, &charges, &known);
            offered.extend(found.recommendations.iter().map(|r| {
                format!(
                    "{description} -> {} {:?} ({}, {:?})",
                    r.service_name, r.cadence, r.confidence, r.identity.matched
                )
            }));
        }
        assert!(offered.is_empty(), "{offered:#?}");
        // The memberships themselves, charged once, still are.
        for (description, amount_minor, service) in [
            ("COSTCO *MEMBERSHIP 800-774-2678 WA", -6_500, "Costco"),
            (
                "TARGET CIRCLE 360 MINNEAPOLIS MN",
                -9_900,
                "Target Circle 360",
            ),
            ("NETFLIX.COM 866-579-7172 CA", -2_499, "Netflix"),
        ] {
            let charges = [Charge {
                id: 1,
                day: Date::parse("2026-11-21").unwrap(),
                amount_minor,
                description: description.to_owned(),
                currency: "USD".into(),
            }];
            let found = recommend(index, &charges, &known);
            let names: Vec<&str> = found
                .recommendations
                .iter()
                .map(|r| r.service_name.as_str())
                .collect();
            assert_eq!(names, [service], "{description}");
        }
    }
}
