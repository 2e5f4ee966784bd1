//! The person's recommendations: their bank charges of the last 400 days
//! read against the catalog (seeded descriptors and their own), with what
//! they track and declined, through the pure engine in
//! `domain::subscriptions`, and put into words for the page.

use std::collections::{HashMap, HashSet};

use sqlx::SqlitePool;

use super::store;
use super::SubscriptionError;
use crate::backend::bills;
use crate::backend::catalog::name_key;
use crate::contract::bank::BankTransaction;
use crate::contract::bills::CatalogService;
use crate::contract::subscriptions::{
    AmountEvidence, CadenceEvidence, Evidence, IdentityEvidence, Recommendation, Recommendations,
    UnknownRecurring,
};
use crate::domain::cadence::Cadence;
use crate::domain::date::Date;
use crate::domain::money::{Currency, Locale, Money};
use crate::domain::subscriptions::amount_pattern::AmountPattern;
use crate::domain::subscriptions::catalog_index::{self as index, CatalogIndex, Kind};
use crate::domain::subscriptions::recommend::{self, CadenceSource, Charge, Declined, Known};

/// How far back charges are read: a yearly renewal and a bit.
const HISTORY_DAYS: i64 = 400;
/// The most charges one answer reads (newest first).
const MAX_CHARGES: i64 = 20_000;

/// Everything one computation needs, read once.
pub(super) struct Facts {
    pub entries: HashMap<i64, CatalogService>,
    pub found: recommend::Found,
    pub transactions: HashMap<i64, BankTransaction>,
    pub bills: Vec<bills::Bill>,
}

/// The catalog as a matching index, with the person's own descriptors.
pub(super) async fn catalog_index(
    pool: &SqlitePool,
    user_id: i64,
) -> Result<(CatalogIndex, HashMap<i64, CatalogService>), SubscriptionError> {
    let entries: Vec<CatalogService> = store::catalog_entries::all_services(pool).await?;
    let descriptors: Vec<index::Descriptor> = store::recommendations::descriptors(pool, user_id)
        .await?
        .into_iter()
        .map(|row| index::Descriptor {
            catalog_id: row.catalog_id,
            kind: match row.kind.as_str() {
                "own" => Kind::Own,
                "bank" => Kind::Bank,
                _ => Kind::Slang,
            },
            text: row.text,
        })
        .collect();
    let services = entries
        .iter()
        .map(|entry| index::Service {
            id: entry.id,
            name: entry.name.clone(),
            website: entry.website.clone().unwrap_or_default(),
            typical_cadence: Cadence::parse(&entry.typical_cadence, 1).unwrap_or(Cadence::Monthly),
            monthly_minor: entry.starting_monthly_minor,
            annual_minor: entry.starting_annual_minor,
        })
        .collect();
    let index = CatalogIndex::new(services, &descriptors).map_err(|error| {
        SubscriptionError::Internal(format!("the catalog cannot be indexed: {error}"))
    })?;
    let entries = entries.into_iter().map(|entry| (entry.id, entry)).collect();
    Ok((index, entries))
}

/// Reads everything and runs the engine.
pub(super) async fn facts(pool: &SqlitePool, user_id: i64) -> Result<Facts, SubscriptionError> {
    let (index, entries) = catalog_index(pool, user_id).await?;
    let history = format!("-{HISTORY_DAYS} days");
    let read: Vec<BankTransaction> =
        store::recommendations::charges(pool, user_id, &history, MAX_CHARGES).await?;
    let charges: Vec<Charge> = read
        .iter()
        .filter_map(|transaction| {
            Some(Charge {
                id: transaction.id,
                day: Date::parse(transaction.posted_at.get(..10)?).ok()?,
                amount_minor: transaction.amount_minor,
                description: transaction.description.clone(),
                currency: transaction.currency.clone(),
            })
        })
        .collect();
    let bills = bills::list(pool, user_id).await?;
    let tracked: HashSet<i64> = bills
        .iter()
        .filter(|bill| bill.active)
        .filter_map(|bill| bill.catalog_id)
        .collect();
    let declined = declined(pool, user_id).await?;
    let today = bills::today_for(pool, user_id).await?;
    let found = recommend::recommend(
        &index,
        &charges,
        &Known {
            today,
            tracked: &tracked,
            declined: &declined,
        },
    );
    let transactions = read
        .into_iter()
        .map(|transaction| (transaction.id, transaction))
        .collect();
    Ok(Facts {
        entries,
        found,
        transactions,
        bills,
    })
}

/// Declines, and unlinks (a bill that is not that service), as the engine
/// reads them.
async fn declined(pool: &SqlitePool, user_id: i64) -> Result<Vec<Declined>, SubscriptionError> {
    let days = recommend::DECLINE_DAYS;
    let rows = store::recommendations::declines(pool, user_id, days).await?;
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            Some(Declined {
                catalog_id: row.catalog_id,
                amount_minor: row.amount_minor,
                on: Date::parse(row.created_at.get(..10)?).ok()?,
            })
        })
        .collect())
}

/// A recommendation's id: stable for its service and currency.
pub fn id_of(catalog_id: i64, currency: &str) -> String {
    format!("{catalog_id}-{currency}")
}

/// `GET /api/subscriptions/recommendations`.
pub async fn recommendations(
    pool: &SqlitePool,
    user_id: i64,
) -> Result<Recommendations, SubscriptionError> {
    let facts = facts(pool, user_id).await?;
    let bank_connected = store::recommendations::bank_connected(pool, user_id).await?;
    let recommendations = facts
        .found
        .recommendations
        .iter()
        .map(|found| shown(&facts, found))
        .collect();
    let unknown_recurring = facts
        .found
        .unknown_recurring
        .iter()
        .filter(|found| !tracked_already(&facts, found))
        .map(|found| UnknownRecurring {
            merchant_key: found.merchant_key.clone(),
            description: found.description.clone(),
            currency: found.currency.clone(),
            cadence_label: found.cadence.to_string(),
            amount_minor: found.amount_minor,
            charges: u32::try_from(found.charges).unwrap_or(u32::MAX),
            transaction_ids: found.transaction_ids.clone(),
        })
        .collect();
    Ok(Recommendations {
        recommendations,
        unknown_recurring,
        bank_connected,
    })
}

/// Whether a recurring charge the catalog does not know is one the person
/// already tracks (issue 53, rule 5): one of its charges is matched to a
/// bill, or an active bill in its currency is named like its payee and
/// costs about as much.
fn tracked_already(facts: &Facts, found: &recommend::UnknownRecurring) -> bool {
    let matched = found.transaction_ids.iter().any(|id| {
        facts
            .transactions
            .get(id)
            .is_some_and(|charge| charge.bill_id.is_some())
    });
    matched
        || facts.bills.iter().any(|bill| {
            bill.active
                && bill.currency == found.currency
                && named_like(&bill.name, &found.merchant_key)
                && about(bill.amount_minor, found.amount_minor)
        })
}

/// Whether every word of a bill's name (as a payee key) is a word of the
/// payee: "City Power" for `CITY POWER & LIGHT`.
fn named_like(bill_name: &str, merchant_key: &str) -> bool {
    let name = crate::domain::bank::merchant::normalize(bill_name);
    let words: HashSet<&str> = merchant_key.split_whitespace().collect();
    !name.is_empty() && name.split_whitespace().all(|word| words.contains(word))
}

/// Within [`recommend::STEADY_PERCENT`] of each other.
fn about(expected: i64, charged: i64) -> bool {
    (expected - charged).abs() * 100 <= expected.abs() * recommend::STEADY_PERCENT
}

/// The engine's recommendation with its evidence in words.
pub(super) fn shown(facts: &Facts, found: &recommend::Recommendation) -> Recommendation {
    let entry = facts.entries.get(&found.catalog_id);
    let money = |minor: i64| match Currency::parse(&found.currency) {
        Ok(currency) => Money::new(minor, currency).format(Locale::parse("en-US")),
        Err(_) => format!("{minor} {}", found.currency),
    };
    let identity = &found.identity;
    let names = |ids: &[i64]| -> Vec<String> {
        ids.iter()
            .filter_map(|id| facts.entries.get(id).map(|entry| entry.name.clone()))
            .collect()
    };
    let identity_summary = if identity.ambiguous {
        format!(
            "“{}” is what {} all charge as; the amount did not tell which this is.",
            identity.matched,
            names(&identity.alternatives).join(", ")
        )
    } else {
        match identity.kind {
            Kind::Own => format!(
                "You told Tally that “{}” is {}.",
                identity.matched, found.service_name
            ),
            Kind::Bank => format!(
                "“{}” is {}'s name on bank statements (a {} % match).",
                identity.matched, found.service_name, identity.score
            ),
            Kind::Slang | Kind::Domain | Kind::Name => format!(
                "“{}” points at {} (a {} % match).",
                identity.matched, found.service_name, identity.score
            ),
        }
    };
    let amount = match found.amounts {
        AmountPattern::Stable { amount_minor } => AmountEvidence {
            pattern: "stable".into(),
            low_minor: amount_minor,
            high_minor: amount_minor,
            from_minor: None,
            to_minor: None,
            changed_on: None,
            price_rise: false,
            summary: if found.charges == 1 {
                format!("One charge of {}.", money(amount_minor))
            } else {
                format!("The same {} every time.", money(amount_minor))
            },
        },
        AmountPattern::Changed {
            from_minor,
            to_minor,
            on,
        } => AmountEvidence {
            pattern: "changed".into(),
            low_minor: from_minor.min(to_minor),
            high_minor: from_minor.max(to_minor),
            from_minor: Some(from_minor),
            to_minor: Some(to_minor),
            changed_on: Some(on.to_string()),
            price_rise: to_minor > from_minor,
            summary: format!(
                "The price {} from {} to {} on {on}.",
                if to_minor > from_minor {
                    "rose"
                } else {
                    "fell"
                },
                money(from_minor),
                money(to_minor)
            ),
        },
        AmountPattern::Range {
            low_minor,
            high_minor,
        } => AmountEvidence {
            pattern: "range".into(),
            low_minor,
            high_minor,
            from_minor: None,
            to_minor: None,
            changed_on: None,
            price_rise: false,
            summary: format!(
                "Amounts vary from {} to {}.",
                money(low_minor),
                money(high_minor)
            ),
        },
    };
    let cadence_word = found.cadence.to_string().to_lowercase();
    let cadence_summary = match found.cadence_source {
        CadenceSource::Catalog if found.charges == 1 => format!(
            "Only one charge so far, so not yet confirmed: {} usually charges {cadence_word}.",
            found.service_name
        ),
        CadenceSource::Catalog => format!(
            "{} charges without a steady interval yet, so not confirmed: {} usually charges {cadence_word}.",
            found.charges, found.service_name
        ),
        CadenceSource::Charges => {
            let skipped = match found.skipped {
                0 => String::new(),
                1 => " (one skipped)".to_owned(),
                n => format!(" ({n} skipped)"),
            };
            format!("{} charges, {cadence_word}{skipped}.", found.charges)
        }
    };
    let (cadence, cadence_interval) = found.cadence.to_stored();
    let suggested = suggested_bill(facts, found);
    Recommendation {
        id: id_of(found.catalog_id, &found.currency),
        catalog_id: found.catalog_id,
        service_name: found.service_name.clone(),
        category: entry.map(|e| e.category.clone()).unwrap_or_default(),
        cadence: cadence.to_owned(),
        cadence_interval,
        cadence_label: found.cadence.to_string(),
        amount_minor: found.amount_minor,
        currency: found.currency.clone(),
        monthly_minor: found.monthly_minor,
        yearly_minor: found.yearly_minor,
        confidence: found.confidence,
        evidence: Evidence {
            identity: IdentityEvidence {
                kind: match identity.kind {
                    Kind::Own => "own",
                    Kind::Bank => "bank",
                    Kind::Slang => "slang",
                    Kind::Domain => "domain",
                    Kind::Name => "name",
                }
                .into(),
                matched: identity.matched.to_string(),
                score: identity.score,
                summary: identity_summary,
            },
            amount,
            cadence: CadenceEvidence {
                source: match found.cadence_source {
                    CadenceSource::Charges => "charges",
                    CadenceSource::Catalog => "catalog",
                }
                .into(),
                charges: u32::try_from(found.charges).unwrap_or(u32::MAX),
                skipped: u32::try_from(found.skipped).unwrap_or(u32::MAX),
                summary: cadence_summary,
            },
        },
        ambiguous: identity.ambiguous,
        alternatives: identity
            .alternatives
            .iter()
            .filter(|id| **id != found.catalog_id)
            .filter_map(|id| facts.entries.get(id).cloned())
            .collect(),
        transaction_ids: found.transaction_ids.clone(),
        transactions: found
            .transaction_ids
            .iter()
            .filter_map(|id| facts.transactions.get(id).cloned())
            .collect(),
        suggested_bill_id: suggested.map(|bill| bill.id),
        suggested_bill_name: suggested.map(|bill| bill.name.clone()),
        last_charged: found.last_charged.to_string(),
    }
}

/// An active bill of the person's that is likely this service: one its
/// charges are matched to, else one named like it, in the same currency
/// and not linked to another service.
fn suggested_bill<'f>(
    facts: &'f Facts,
    found: &recommend::Recommendation,
) -> Option<&'f bills::Bill> {
    let free = |bill: &&bills::Bill| {
        bill.active
            && bill.currency == found.currency
            && bill.catalog_id.is_none_or(|id| id == found.catalog_id)
    };
    let matched: HashSet<i64> = found
        .transaction_ids
        .iter()
        .filter_map(|id| facts.transactions.get(id)?.bill_id)
        .collect();
    if let Some(bill) = facts
        .bills
        .iter()
        .filter(free)
        .find(|bill| matched.contains(&bill.id))
    {
        return Some(bill);
    }
    let service = name_key(&found.service_name);
    if service.len() < 3 {
        return None;
    }
    facts.bills.iter().filter(free).find(|bill| {
        let name = name_key(&bill.name);
        name.len() >= 3 && (name.contains(&service) || service.contains(&name))
    })
}

/// The recommendation `id` as it stands, or a 404 that says why it may be
/// gone.
pub(super) fn find<'f>(
    facts: &'f Facts,
    id: &str,
) -> Result<&'f recommend::Recommendation, SubscriptionError> {
    facts
        .found
        .recommendations
        .iter()
        .find(|found| id_of(found.catalog_id, &found.currency) == id)
        .ok_or_else(|| {
            SubscriptionError::NotFound(format!(
                "no recommendation {id}: it may have been tracked, linked or declined already"
            ))
        })
}

#[cfg(test)]
mod tracked_tests {
    use super::*;
    use crate::domain::bank::merchant::normalize;

    #[test]
    fn a_bill_named_like_the_payee_at_about_its_amount_is_the_same_charge() {
        let key = normalize("CITY POWER & LIGHT AUTOPAY 0412");
        assert!(named_like("City Power", &key));
        assert!(named_like("city power & light", &key));
        assert!(!named_like("Water", &key));
        assert!(!named_like("", &key));
        assert!(about(8_420, 8_610));
        assert!(!about(8_420, 9_500));
    }
}
