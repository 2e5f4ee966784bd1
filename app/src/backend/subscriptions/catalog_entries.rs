//! The catalog as the Service Catalog page shows it: searchable entries,
//! bills for them at their starting price, and the person's tracked
//! services beside the catalog's prices.

use std::collections::HashMap;

use sqlx::SqlitePool;

use super::store;
use super::SubscriptionError;
use crate::backend::bills;
use crate::contract::bills::{BillRecord, Catalog, CatalogService};
use crate::contract::subscriptions::{
    CatalogQuery, TrackCatalog, TrackedBills, TrackedService, TrackedServices,
};
use crate::domain::bill::BillForm;
use crate::domain::cadence::Cadence;
use crate::domain::subscriptions::catalog_tier::{self, Tier};
use crate::domain::text::{plain_text_problem, Lines};

/// The longest search text.
pub const MAX_QUERY: usize = 100;
/// The most services one bulk track takes.
pub const MAX_TRACK: usize = 50;

/// `GET /api/catalog?q=`: every word of `q` in the name, category
/// or web address (any case); all entries when empty.
pub async fn search(pool: &SqlitePool, query: &CatalogQuery) -> Result<Catalog, SubscriptionError> {
    let text = query.q.as_deref().unwrap_or_default().trim();
    if text.chars().count() > MAX_QUERY {
        return Err(SubscriptionError::field(
            "q",
            format!("at most {MAX_QUERY} characters"),
        ));
    }
    if let Some(problem) = plain_text_problem(text, Lines::One) {
        return Err(SubscriptionError::field("q", problem));
    }
    let words: Vec<String> = text
        .split_whitespace()
        .map(|word| word.to_lowercase())
        .collect();
    let entries: Vec<CatalogService> = store::catalog_entries::all_services(pool).await?;
    let entries = entries
        .into_iter()
        .filter(|entry| {
            let haystack = format!(
                "{} {} {}",
                entry.name,
                entry.category,
                entry.website.as_deref().unwrap_or_default()
            )
            .to_lowercase();
            words.iter().all(|word| haystack.contains(word.as_str()))
        })
        .collect();
    Ok(Catalog { services: entries })
}

/// `POST /api/catalog/track`: a subscription bill for each service, at its
/// starting price (monthly, else yearly) and usual cadence, due from today;
/// all or none.
pub async fn track(
    pool: &SqlitePool,
    user_id: i64,
    request: &TrackCatalog,
) -> Result<TrackedBills, SubscriptionError> {
    if request.catalog_ids.is_empty() || request.catalog_ids.len() > MAX_TRACK {
        return Err(SubscriptionError::field(
            "catalogIds",
            format!("choose 1 to {MAX_TRACK} services"),
        ));
    }
    let all: Vec<CatalogService> = store::catalog_entries::all_services(pool).await?;
    let today = bills::today_for(pool, user_id).await?;
    let mut forms = Vec::new();
    for id in &request.catalog_ids {
        let entry = all.iter().find(|entry| entry.id == *id).ok_or_else(|| {
            SubscriptionError::field("catalogIds", format!("there is no service {id}"))
        })?;
        let (cadence, amount) = match (entry.starting_monthly_minor, entry.starting_annual_minor) {
            (Some(monthly), _) if entry.typical_cadence != "yearly" => ("monthly", monthly),
            (_, Some(yearly)) => ("yearly", yearly),
            (Some(monthly), None) => ("monthly", monthly),
            (None, None) => (entry.typical_cadence.as_str(), 0),
        };
        let form = BillForm {
            name: entry.name.clone(),
            amount_minor: amount,
            currency: "USD".into(),
            cadence: cadence.into(),
            cadence_interval: Some(1),
            due_day: i64::from(today.day()),
            anchor_date: today.to_string(),
            category: entry.category.clone(),
            subscription: true,
            autopay: true,
            catalog_id: Some(entry.id),
            ..BillForm::default()
        };
        forms.push((
            form.validate().map_err(SubscriptionError::Fields)?,
            entry.name.clone(),
        ));
    }
    let mut tx = crate::backend::db::write(pool).await?;
    let mut ids = Vec::new();
    for (bill, name) in &forms {
        let id = bills::create_in(&mut tx, user_id, bill, today).await?;
        store::feedback::record(
            &mut tx,
            user_id,
            store::feedback::Feedback {
                action: "accept",
                catalog_id: bill.catalog_id,
                bill_id: Some(id),
                merchant_key: &crate::domain::bank::merchant::normalize(name),
                amount_minor: Some(bill.amount_minor),
                currency: Some("USD"),
                reason: None,
            },
        )
        .await?;
        ids.push(id);
    }
    tx.commit().await?;
    let mut tracked: Vec<BillRecord> = Vec::new();
    for id in ids {
        tracked.push(bills::get(pool, user_id, id).await?);
    }
    Ok(TrackedBills { bills: tracked })
}

/// `GET /api/catalog/tracked`: active bills linked to a service, with how
/// their monthly cost compares to the catalog's price of the plan they are
/// on (the plan nearest their price; the starting price when the catalog
/// lists no plans).
pub async fn tracked(
    pool: &SqlitePool,
    user_id: i64,
) -> Result<TrackedServices, SubscriptionError> {
    let bills = bills::list(pool, user_id).await?;
    let all: Vec<CatalogService> = store::catalog_entries::all_services(pool).await?;
    let plans = tiers(pool).await?;
    let services = bills
        .into_iter()
        .filter(|bill| bill.active)
        .filter_map(|bill| {
            let entry = all.iter().find(|entry| Some(entry.id) == bill.catalog_id)?;
            let cadence = Cadence::parse(&bill.cadence, bill.cadence_interval).ok()?;
            let monthly_minor = cadence.monthly_cost(bill.amount_minor);
            let yearly = cadence == Cadence::Yearly;
            let plan = plans
                .get(&entry.id)
                .and_then(|tiers| catalog_tier::matching(tiers, monthly_minor, yearly));
            let (catalog_tier, catalog_monthly_minor) = match plan {
                Some((tier, price)) => (Some(tier.name.clone()), Some(price)),
                None => (
                    None,
                    entry
                        .starting_monthly_minor
                        .or(entry.starting_annual_minor.map(|yearly| (yearly + 6) / 12)),
                ),
            };
            let drift_percent = catalog_monthly_minor
                .filter(|catalog| *catalog > 0 && bill.currency == "USD")
                .map(|catalog| drift(monthly_minor, catalog));
            Some(TrackedService {
                bill_id: bill.id,
                bill_name: bill.name.clone(),
                catalog_id: entry.id,
                service_name: entry.name.clone(),
                amount_minor: bill.amount_minor,
                currency: bill.currency.clone(),
                cadence_label: cadence.to_string(),
                monthly_minor,
                catalog_monthly_minor,
                catalog_tier,
                drift_percent,
            })
        })
        .collect();
    Ok(TrackedServices { services })
}

/// Every service's plans, cheapest first.
async fn tiers(pool: &SqlitePool) -> Result<HashMap<i64, Vec<Tier>>, SubscriptionError> {
    let rows = store::catalog_entries::tiers(pool).await?;
    let mut plans: HashMap<i64, Vec<Tier>> = HashMap::new();
    for row in rows {
        plans.entry(row.catalog_id).or_default().push(Tier {
            name: row.name,
            monthly_minor: row.monthly_minor,
            annual_minor: row.annual_minor,
        });
    }
    Ok(plans)
}

/// `paid` against `catalog` in whole percent, rounded half away from zero.
fn drift(paid: i64, catalog: i64) -> i64 {
    let difference = (paid - catalog) * 100;
    if difference >= 0 {
        (difference + catalog / 2) / catalog
    } else {
        (difference - catalog / 2) / catalog
    }
}

#[cfg(test)]
mod tests {
    use super::drift;

    #[test]
    fn drift_is_whole_percent_either_way() {
        assert_eq!(drift(1799, 1549), 16);
        assert_eq!(drift(1549, 1549), 0);
        assert_eq!(drift(799, 1549), -48);
        assert_eq!(drift(1000, 3), 33_233);
    }
}
