//! Which catalog service a bank transaction paid. The description is read
//! as a merchant key (`bank::merchant::normalize`: store and phone
//! numbers, a trailing city and state, `*` order codes and processor
//! prefixes taken away), then looked up: the person's own descriptors and
//! the seeded bank descriptors first, then slang terms, then the service's
//! web address and name, all in one Aho-Corasick pass over whole words. A
//! bank (or own) descriptor scores 90 or more and resolves the service;
//! the rest only suggest one. A descriptor several services of one
//! provider share (`APPLE.COM/BILL`) is told apart by the amount against
//! their starting prices, or marked ambiguous, never merged.

use std::collections::HashMap;
use std::sync::Arc;

use aho_corasick::{AhoCorasick, MatchKind};

use crate::domain::bank::merchant;
use crate::domain::cadence::Cadence;

/// A match at or above this resolves to the catalog entry.
pub const RESOLVES: u8 = 90;
/// How far (in percent) an amount may be from a starting price and still
/// point at that service.
pub const PRICE_TOLERANCE: i64 = 15;
/// How many times its starting monthly price one charge of a service may
/// be (a premium plan, a family plan) and still be taken for it alone.
pub const ALONE_TIMES_PRICE: i64 = 4;

/// How a transaction was matched, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A descriptor the person taught Tally.
    Own,
    /// A bank-statement descriptor from the catalog.
    Bank,
    /// A word people use for the service.
    Slang,
    /// The service's web address.
    Domain,
    /// The service's name.
    Name,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Own => "your descriptor",
            Self::Bank => "bank descriptor",
            Self::Slang => "slang term",
            Self::Domain => "web address",
            Self::Name => "service name",
        }
    }
}

/// A catalog service as matching needs it. Prices are minor units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Service {
    pub id: i64,
    pub name: String,
    pub website: String,
    pub typical_cadence: Cadence,
    pub monthly_minor: Option<i64>,
    pub annual_minor: Option<i64>,
}

/// A descriptor of a service: `Own`, `Bank` or `Slang`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Descriptor {
    pub catalog_id: i64,
    pub kind: Kind,
    pub text: String,
}

/// What a transaction was matched to, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub catalog_id: i64,
    pub kind: Kind,
    /// The descriptor (or slang term, address, name) that matched, as a
    /// merchant key.
    pub matched: Arc<str>,
    /// Out of 100; [`RESOLVES`] or more resolves the service.
    pub score: u8,
    /// Other services the same descriptor can mean.
    pub alternatives: Vec<i64>,
    /// The amount did not tell the services apart: for the person to review.
    pub ambiguous: bool,
}

impl Identity {
    pub fn resolved(&self) -> bool {
        self.score >= RESOLVES
    }
}

struct Pattern {
    key: Arc<str>,
    catalog_id: i64,
    kind: Kind,
    /// For a bank or own descriptor that several services can mean: them
    /// all (sorted, its own among them).
    family: Option<Arc<[i64]>>,
}

pub struct CatalogIndex {
    services: HashMap<i64, Service>,
    patterns: Vec<Pattern>,
    matcher: AhoCorasick,
    /// Every whole-word beginning of a bank or own descriptor, to the
    /// descriptors that start with it (a provider's family).
    beginnings: HashMap<String, Vec<usize>>,
}

/// `https://www.netflix.com/…` → `NETFLIX.COM`.
fn host(website: &str) -> String {
    let rest = website.split_once("://").map_or(website, |(_, rest)| rest);
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    host.trim_start_matches("www.").to_uppercase()
}

fn slang_key(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_uppercase()
}

fn whole_words(text: &str, start: usize, end: usize) -> bool {
    let bytes = text.as_bytes();
    (start == 0 || bytes[start - 1] == b' ') && (end == bytes.len() || bytes[end] == b' ')
}

impl CatalogIndex {
    /// Fails only when the patterns are too many for the matcher.
    pub fn new(
        services: Vec<Service>,
        descriptors: &[Descriptor],
    ) -> Result<Self, aho_corasick::BuildError> {
        let mut patterns = Vec::new();
        for descriptor in descriptors {
            let key = match descriptor.kind {
                Kind::Own | Kind::Bank => merchant::normalize(&descriptor.text),
                _ => slang_key(&descriptor.text),
            };
            if !key.is_empty() {
                patterns.push(Pattern {
                    key: key.into(),
                    catalog_id: descriptor.catalog_id,
                    kind: descriptor.kind,
                    family: None,
                });
            }
        }
        for service in &services {
            let domain = host(&service.website);
            if domain.contains('.') {
                patterns.push(Pattern {
                    key: domain.into(),
                    catalog_id: service.id,
                    kind: Kind::Domain,
                    family: None,
                });
            }
            let name = slang_key(&service.name);
            if merchant::rule_problem(&name).is_none() {
                patterns.push(Pattern {
                    key: name.into(),
                    catalog_id: service.id,
                    kind: Kind::Name,
                    family: None,
                });
            }
        }
        // Strongest kind first, so equal keys keep their best reading.
        patterns.sort_by(|a, b| a.kind.cmp(&b.kind).then(a.key.cmp(&b.key)));
        let mut beginnings: HashMap<String, Vec<usize>> = HashMap::new();
        for (index, pattern) in patterns.iter().enumerate() {
            if !matches!(pattern.kind, Kind::Own | Kind::Bank) {
                continue;
            }
            let words: Vec<&str> = pattern.key.split(' ').collect();
            for count in 1..=words.len() {
                beginnings
                    .entry(words[..count].join(" "))
                    .or_default()
                    .push(index);
            }
        }
        // Each descriptor's family, worked out once rather than per lookup.
        // The person's own descriptors have none: they settled what it is.
        for index in 0..patterns.len() {
            if patterns[index].kind != Kind::Bank {
                continue;
            }
            let own = patterns[index].catalog_id;
            let mut ids: Vec<i64> = beginnings
                .get(&*patterns[index].key)
                .into_iter()
                .flatten()
                .map(|&other| patterns[other].catalog_id)
                .chain([own])
                .collect();
            ids.sort_unstable();
            ids.dedup();
            if ids.len() > 1 {
                patterns[index].family = Some(ids.into());
            }
        }
        let matcher = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(patterns.iter().map(|pattern| &*pattern.key))?;
        Ok(Self {
            services: services.into_iter().map(|s| (s.id, s)).collect(),
            patterns,
            matcher,
            beginnings,
        })
    }

    pub fn service(&self, id: i64) -> Option<&Service> {
        self.services.get(&id)
    }

    /// The service a transaction (its description and amount, minor units,
    /// either sign) most likely paid, if any pattern matches.
    pub fn identify(&self, description: &str, amount_minor: i64) -> Option<Identity> {
        self.identify_key(&merchant::normalize(description), amount_minor)
    }

    /// [`CatalogIndex::identify`] for a description already read as a
    /// merchant key.
    pub fn identify_key(&self, key: &str, amount_minor: i64) -> Option<Identity> {
        if key.is_empty() {
            return None;
        }
        let mut best: Option<(u8, Kind, usize)> = None;
        let consider = |score: u8, index: usize, best: &mut Option<(u8, Kind, usize)>| {
            let kind = self.patterns[index].kind;
            let better = match best {
                None => true,
                Some((s, k, _)) => (score, std::cmp::Reverse(kind)) > (*s, std::cmp::Reverse(*k)),
            };
            if better {
                *best = Some((score, kind, index));
            }
        };
        for found in self.matcher.find_overlapping_iter(key) {
            if !whole_words(key, found.start(), found.end()) {
                continue;
            }
            let index = found.pattern().as_usize();
            let pattern = &self.patterns[index];
            let score = match pattern.kind {
                Kind::Own | Kind::Bank if pattern.key.len() == key.len() => 100,
                Kind::Own | Kind::Bank => {
                    let share = 10 * pattern.key.len() / key.len().max(1);
                    RESOLVES + u8::try_from(share.min(9)).unwrap_or(9)
                }
                Kind::Domain => 88,
                Kind::Slang => 84,
                Kind::Name => 80,
            };
            consider(score, index, &mut best);
        }
        // The key is the beginning of a longer descriptor (`NETFLIX` for
        // `NETFLIX INC`): a hint, not a resolution.
        if best.is_none() {
            if let Some(&index) = self.beginnings.get(key).and_then(|found| found.first()) {
                consider(85, index, &mut best);
            }
        }
        let (score, kind, index) = best?;
        let pattern = &self.patterns[index];
        // The services this descriptor can mean: its own, and those whose
        // descriptors begin with it (one provider's family).
        let candidates: &[i64] = pattern.family.as_deref().unwrap_or_default();
        let (catalog_id, ambiguous) = if candidates.is_empty() {
            (pattern.catalog_id, false)
        } else {
            let fitting: Vec<i64> = candidates
                .iter()
                .copied()
                .filter(|id| self.priced_near(*id, amount_minor.abs()))
                .collect();
            match fitting.as_slice() {
                [only] => (*only, false),
                _ => (pattern.catalog_id, true),
            }
        };
        Some(Identity {
            catalog_id,
            kind,
            matched: Arc::clone(&pattern.key),
            score,
            alternatives: candidates
                .iter()
                .copied()
                .filter(|id| *id != catalog_id)
                .collect(),
            ambiguous,
        })
    }

    /// Whether one charge of `amount`, with no history to show a cadence,
    /// can be the service (issue 53, rule 5: a purchase at a shop that
    /// sells a membership is a purchase). A yearly membership must be
    /// charged about its price; anything else at most
    /// [`ALONE_TIMES_PRICE`] times its starting monthly price, or about its
    /// yearly one. A service the catalog has no price for is taken on the
    /// descriptor's word.
    pub fn plausible_alone(&self, id: i64, amount: i64) -> bool {
        let Some(service) = self.services.get(&id) else {
            return false;
        };
        let amount = amount.abs();
        if service.monthly_minor.is_none() && service.annual_minor.is_none() {
            return true;
        }
        if service.typical_cadence == Cadence::Yearly {
            return self.priced_near(id, amount);
        }
        service
            .monthly_minor
            .is_some_and(|monthly| amount <= monthly * ALONE_TIMES_PRICE)
            || self.priced_near(id, amount)
    }

    /// Whether `amount` is within the tolerance of a starting price.
    fn priced_near(&self, id: i64, amount: i64) -> bool {
        let Some(service) = self.services.get(&id) else {
            return false;
        };
        [service.monthly_minor, service.annual_minor]
            .into_iter()
            .flatten()
            .any(|price| (amount - price).abs() * 100 <= PRICE_TOLERANCE * price)
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;

    pub fn service(
        id: i64,
        name: &str,
        website: &str,
        cadence: Cadence,
        monthly: Option<i64>,
        annual: Option<i64>,
    ) -> Service {
        Service {
            id,
            name: name.into(),
            website: website.into(),
            typical_cadence: cadence,
            monthly_minor: monthly,
            annual_minor: annual,
        }
    }

    fn bank(catalog_id: i64, text: &str) -> Descriptor {
        Descriptor {
            catalog_id,
            kind: Kind::Bank,
            text: text.into(),
        }
    }

    /// A small catalog in the shape of the real one.
    pub fn catalog() -> CatalogIndex {
        CatalogIndex::new(
            vec![
                service(
                    1,
                    "Netflix",
                    "https://www.netflix.com",
                    Cadence::Monthly,
                    Some(799),
                    None,
                ),
                service(
                    2,
                    "iCloud+",
                    "https://www.icloud.com",
                    Cadence::Monthly,
                    Some(99),
                    None,
                ),
                service(
                    3,
                    "Apple TV+",
                    "https://tv.apple.com",
                    Cadence::Monthly,
                    Some(1299),
                    None,
                ),
                service(
                    4,
                    "Amazon Prime",
                    "https://www.amazon.com/prime",
                    Cadence::Yearly,
                    Some(1499),
                    Some(13900),
                ),
                service(
                    5,
                    "Spotify",
                    "https://www.spotify.com",
                    Cadence::Monthly,
                    Some(1199),
                    None,
                ),
                service(
                    6,
                    "Planet Fitness",
                    "https://www.planetfitness.com",
                    Cadence::Monthly,
                    Some(1500),
                    None,
                ),
            ],
            &[
                bank(1, "NETFLIX.COM"),
                bank(1, "NETFLIX.COM 866-579-7172 CA"),
                bank(1, "PAYPAL *NETFLIX COM"),
                bank(2, "APPLE.COM/BILL"),
                bank(2, "APPLE.COM/BILL ICLOUD"),
                bank(3, "APPLE.COM/BILL APPLE TV"),
                bank(4, "AMAZON PRIME*2K4RT6"),
                bank(5, "SPOTIFY USA"),
                bank(6, "PLANET FITNESS"),
                Descriptor {
                    catalog_id: 1,
                    kind: Kind::Slang,
                    text: "nflx".into(),
                },
            ],
        )
        .unwrap()
    }

    #[test]
    fn bank_descriptors_resolve_through_the_noise() {
        let index = catalog();
        for description in [
            "NETFLIX.COM",
            "NETFLIX.COM 866-579-7172 CA",
            "NETFLIX.COM LOS GATOS CA",
            "PAYPAL *NETFLIX COM",
            "SQ *NETFLIX.COM 0412",
        ] {
            let found = index.identify(description, -1549).unwrap();
            assert_eq!(found.catalog_id, 1, "{description}");
            assert!(found.resolved(), "{description}: {found:?}");
            assert_eq!(found.kind, Kind::Bank);
        }
        let prime = index.identify("AMAZON PRIME*9ZZ1Q0", -13900).unwrap();
        assert_eq!((prime.catalog_id, prime.score), (4, 100));
    }

    #[test]
    fn slang_names_and_addresses_only_hint() {
        let index = catalog();
        let slang = index.identify("NFLX DIGITAL", -1549).unwrap();
        assert_eq!((slang.catalog_id, slang.kind), (1, Kind::Slang));
        assert!(!slang.resolved());
        let named = index.identify("SPOTIFY", -1199).unwrap();
        assert!(!named.resolved(), "{named:?}");
        assert_eq!(index.identify("FRESHMART #0412", -6233), None);
        assert_eq!(
            index.identify("AMZN MKTP US*2K4RT6", -13900),
            None,
            "a marketplace order"
        );
    }

    #[test]
    fn one_descriptor_for_two_services_is_told_apart_by_amount_or_marked() {
        let index = catalog();
        let tv = index.identify("APPLE.COM/BILL", -1299).unwrap();
        assert_eq!((tv.catalog_id, tv.ambiguous), (3, false));
        assert_eq!(tv.alternatives, vec![2]);
        let storage = index
            .identify("APPLE.COM/BILL 866-712-7753 CA", -99)
            .unwrap();
        assert_eq!((storage.catalog_id, storage.ambiguous), (2, false));
        let unclear = index.identify("APPLE.COM/BILL", -299).unwrap();
        assert!(unclear.ambiguous, "{unclear:?}");
        assert!(unclear.resolved());
        let named = index.identify("APPLE.COM/BILL APPLE TV", -999).unwrap();
        assert_eq!(
            (named.catalog_id, named.ambiguous),
            (3, false),
            "its own descriptor"
        );
    }

    #[test]
    fn the_persons_own_descriptor_wins() {
        let index = CatalogIndex::new(
            vec![service(
                6,
                "Planet Fitness",
                "https://www.planetfitness.com",
                Cadence::Monthly,
                Some(1500),
                None,
            )],
            &[Descriptor {
                catalog_id: 6,
                kind: Kind::Own,
                text: "PF CLUB FEES 0412".into(),
            }],
        )
        .unwrap();
        let found = index.identify("PF CLUB FEES 9931", -2500).unwrap();
        assert_eq!(
            (found.catalog_id, found.kind, found.score),
            (6, Kind::Own, 100)
        );
    }

    #[test]
    fn an_own_descriptor_settles_a_shared_one() {
        let services = vec![
            service(
                2,
                "iCloud+",
                "https://www.icloud.com",
                Cadence::Monthly,
                Some(99),
                None,
            ),
            service(
                3,
                "Apple TV+",
                "https://tv.apple.com",
                Cadence::Monthly,
                Some(1299),
                None,
            ),
        ];
        let shared = [
            bank(2, "APPLE.COM/BILL"),
            bank(3, "APPLE.COM/BILL APPLE TV"),
        ];
        let unclear = CatalogIndex::new(services.clone(), &shared)
            .unwrap()
            .identify("APPLE.COM/BILL", -299)
            .unwrap();
        assert!(unclear.ambiguous);
        let mut taught = shared.to_vec();
        taught.push(Descriptor {
            catalog_id: 3,
            kind: Kind::Own,
            text: "APPLE.COM/BILL".into(),
        });
        let found = CatalogIndex::new(services, &taught)
            .unwrap()
            .identify("APPLE.COM/BILL", -299)
            .unwrap();
        assert_eq!(
            (found.catalog_id, found.kind, found.ambiguous),
            (3, Kind::Own, false)
        );
    }
}
