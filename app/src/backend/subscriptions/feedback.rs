//! What the person does with a recommendation, each recorded in
//! `subscription_recommendation_feedback`, and how it changes what is
//! offered later (docs/decisions.md, "Recommendation feedback"):
//! - **accept** (track) and **link_existing** make a bill that carries the
//!   service, so it is tracked and never offered again while the bill is
//!   active; the charges become the bill's payments and its merchant a rule,
//!   so later syncs match new charges by themselves;
//! - **decline** keeps the service out for 180 days, or until it charges
//!   another amount;
//! - **relink_catalog** on a recommendation teaches Tally the merchant as
//!   another service (an own descriptor, which outranks the catalog's); on
//!   a bill it changes the service the bill tracks;
//! - **unlink** takes a bill off its service and counts as a decline of it.

use sqlx::SqlitePool;

use super::recommendations::{facts, find};
use super::store;
use super::store::feedback::Feedback;
use super::SubscriptionError;
use crate::backend::bank::matching;
use crate::backend::bills;
use crate::contract::bank::MatchTransaction;
use crate::contract::subscriptions::{
    CatalogLink, DeclineRecommendation, LinkRecommendation, RelinkRecommendation, Tracked,
};
use crate::domain::bank::merchant;
use crate::domain::bill::BillForm;
use crate::domain::subscriptions::recommend;
use crate::domain::text::{plain_text_problem, Lines};

/// The longest decline reason.
pub const REASON_MAX: usize = 200;

async fn record_alone(
    pool: &SqlitePool,
    user_id: i64,
    feedback: Feedback<'_>,
) -> Result<(), sqlx::Error> {
    let mut tx = crate::backend::db::write(pool).await?;
    store::feedback::record(&mut tx, user_id, feedback).await?;
    tx.commit().await
}

/// Matches the recommendation's unmatched charges to `bill_id` as its
/// payments, teaching the merchant as a rule when it is telling enough;
/// answers how many were matched.
async fn adopt_charges(
    pool: &SqlitePool,
    user_id: i64,
    found: &recommend::Recommendation,
    bill_id: i64,
) -> Result<u32, SubscriptionError> {
    let mut remember = merchant::rule_problem(&found.merchant_key).is_none();
    let mut matched = 0;
    for id in found.transaction_ids.iter().rev() {
        let transaction = matching::transaction(pool, user_id, *id).await?;
        if transaction.bill_id.is_some() {
            continue;
        }
        matching::match_by_hand(pool, user_id, *id, MatchTransaction { bill_id, remember }).await?;
        // One rule is enough: the newest charge's merchant.
        remember = false;
        matched += 1;
    }
    Ok(matched)
}

/// `POST /api/subscriptions/recommendations/{id}/track`: a subscription
/// bill for the service at the amount and cadence found, due on the day of
/// the latest charge, with the charges as its payments.
pub async fn track(
    pool: &SqlitePool,
    user_id: i64,
    id: &str,
) -> Result<Tracked, SubscriptionError> {
    let facts = facts(pool, user_id).await?;
    let found = find(&facts, id)?;
    let category = facts
        .entries
        .get(&found.catalog_id)
        .map(|entry| entry.category.clone())
        .unwrap_or_default();
    let (cadence, interval) = found.cadence.to_stored();
    let bill = BillForm {
        name: found.service_name.clone(),
        amount_minor: found.amount_minor,
        currency: found.currency.clone(),
        cadence: cadence.into(),
        cadence_interval: Some(interval),
        due_day: i64::from(found.last_charged.day()),
        anchor_date: found.last_charged.to_string(),
        category,
        subscription: true,
        autopay: true,
        catalog_id: Some(found.catalog_id),
        ..BillForm::default()
    }
    .validate()
    .map_err(SubscriptionError::Fields)?;
    let today = bills::today_for(pool, user_id).await?;
    let mut tx = crate::backend::db::write(pool).await?;
    let bill_id = bills::create_in(&mut tx, user_id, &bill, today).await?;
    store::feedback::record(
        &mut tx,
        user_id,
        Feedback {
            action: "accept",
            catalog_id: Some(found.catalog_id),
            bill_id: Some(bill_id),
            merchant_key: &found.merchant_key,
            amount_minor: Some(found.amount_minor),
            currency: Some(&found.currency),
            reason: None,
        },
    )
    .await?;
    tx.commit().await?;
    let matched = adopt_charges(pool, user_id, found, bill_id).await?;
    Ok(Tracked {
        bill: bills::get(pool, user_id, bill_id).await?,
        matched,
    })
}

/// `POST /api/subscriptions/recommendations/{id}/link`: an existing bill
/// becomes this service's (and a subscription), with the charges as its
/// payments.
pub async fn link(
    pool: &SqlitePool,
    user_id: i64,
    id: &str,
    request: &LinkRecommendation,
) -> Result<Tracked, SubscriptionError> {
    let facts = facts(pool, user_id).await?;
    let found = find(&facts, id)?;
    let bill = bills::get(pool, user_id, request.bill_id)
        .await
        .map_err(|_| {
            SubscriptionError::field("billId", format!("you have no bill {}", request.bill_id))
        })?;
    if !bill.active {
        return Err(SubscriptionError::field(
            "billId",
            "that bill is inactive; reactivate it first",
        ));
    }
    if bill.currency != found.currency {
        return Err(SubscriptionError::field(
            "billId",
            format!(
                "that bill is in {}, the charges in {}",
                bill.currency, found.currency
            ),
        ));
    }
    let mut tx = crate::backend::db::write(pool).await?;
    store::feedback::link_bill(&mut tx, user_id, bill.id, found.catalog_id).await?;
    store::feedback::record(
        &mut tx,
        user_id,
        Feedback {
            action: "link_existing",
            catalog_id: Some(found.catalog_id),
            bill_id: Some(bill.id),
            merchant_key: &found.merchant_key,
            amount_minor: Some(found.amount_minor),
            currency: Some(&found.currency),
            reason: None,
        },
    )
    .await?;
    tx.commit().await?;
    let matched = adopt_charges(pool, user_id, found, bill.id).await?;
    Ok(Tracked {
        bill: bills::get(pool, user_id, bill.id).await?,
        matched,
    })
}

/// `POST /api/subscriptions/recommendations/{id}/decline`.
pub async fn decline(
    pool: &SqlitePool,
    user_id: i64,
    id: &str,
    request: &DeclineRecommendation,
) -> Result<(), SubscriptionError> {
    let reason = request
        .reason
        .as_deref()
        .map(str::trim)
        .filter(|reason| !reason.is_empty());
    if let Some(reason) = reason {
        if reason.chars().count() > REASON_MAX {
            return Err(SubscriptionError::field(
                "reason",
                format!("at most {REASON_MAX} characters"),
            ));
        }
        if let Some(problem) = plain_text_problem(reason, Lines::One) {
            return Err(SubscriptionError::field("reason", problem));
        }
    }
    let facts = facts(pool, user_id).await?;
    let found = find(&facts, id)?;
    record_alone(
        pool,
        user_id,
        Feedback {
            action: "decline",
            catalog_id: Some(found.catalog_id),
            bill_id: None,
            merchant_key: &found.merchant_key,
            amount_minor: Some(found.amount_minor),
            currency: Some(&found.currency),
            reason,
        },
    )
    .await?;
    Ok(())
}

/// `POST /api/subscriptions/recommendations/{id}/relink`: the charges are
/// `catalogId`'s; the merchant becomes the person's own descriptor of it.
pub async fn relink(
    pool: &SqlitePool,
    user_id: i64,
    id: &str,
    request: &RelinkRecommendation,
) -> Result<(), SubscriptionError> {
    let facts = facts(pool, user_id).await?;
    let found = find(&facts, id)?;
    if !facts.entries.contains_key(&request.catalog_id) {
        return Err(SubscriptionError::field(
            "catalogId",
            format!("there is no service {}", request.catalog_id),
        ));
    }
    if request.catalog_id == found.catalog_id {
        return Err(SubscriptionError::field(
            "catalogId",
            format!("these charges are already read as {}", found.service_name),
        ));
    }
    let mut tx = crate::backend::db::write(pool).await?;
    store::own_descriptors::upsert(&mut tx, user_id, request.catalog_id, &found.merchant_key)
        .await?;
    store::feedback::record(
        &mut tx,
        user_id,
        Feedback {
            action: "relink_catalog",
            catalog_id: Some(request.catalog_id),
            bill_id: None,
            merchant_key: &found.merchant_key,
            amount_minor: Some(found.amount_minor),
            currency: Some(&found.currency),
            reason: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// `PUT /api/bills/{id}/catalog-link`: links the bill to a service (a
/// relink when it had another) or, with `null`, unlinks it.
pub async fn catalog_link(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
    request: &CatalogLink,
) -> Result<bills::Bill, SubscriptionError> {
    let bill = bills::get(pool, user_id, bill_id).await?;
    bills::check_catalog(pool, request.catalog_id).await?;
    if bill.catalog_id == request.catalog_id {
        return Ok(bill);
    }
    // The merchant the bill's latest bank charge came from, else its name.
    let latest = store::feedback::latest_charge_description(pool, user_id, bill.id).await?;
    let key = merchant::normalize(latest.as_deref().unwrap_or(&bill.name));
    let mut tx = crate::backend::db::write(pool).await?;
    store::feedback::set_bill_catalog(&mut tx, user_id, bill.id, request.catalog_id).await?;
    store::feedback::record(
        &mut tx,
        user_id,
        Feedback {
            action: if request.catalog_id.is_some() {
                "relink_catalog"
            } else {
                "unlink"
            },
            // An unlink names the service the bill is not.
            catalog_id: request.catalog_id.or(bill.catalog_id),
            bill_id: Some(bill.id),
            merchant_key: &key,
            amount_minor: None,
            currency: Some(&bill.currency),
            reason: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(bills::get(pool, user_id, bill.id).await?)
}
