//! Suggestions for unmatched debits: each recent unmatched, posted, not
//! ignored debit on a monitored account scored against every active bill
//! (`domain::bank::suggestion`), the best three above the threshold kept.
//! Nothing is applied; the user matches (or not).

use std::collections::HashSet;

use sqlx::SqlitePool;

use super::store;
use super::BankError;
use crate::backend::bills;
use crate::contract::bank::{
    BankTransaction, Suggestion, SuggestionQuery, Suggestions, TransactionSuggestions,
};
use crate::domain::bank::merchant;
use crate::domain::bank::suggestion::{self, BillFacts, Service, PER_TRANSACTION, THRESHOLD};
use crate::domain::date::Date;
use crate::domain::subscriptions::catalog_index::CatalogIndex;

/// How many transactions one answer looks at.
const MAX_TRANSACTIONS: i64 = 50;
/// A due date further than this from the transaction says nothing.
const NEAR_DAYS: i64 = 7;

/// The suggestions for one transaction, or for the recent unmatched ones.
pub async fn suggestions(
    pool: &SqlitePool,
    user_id: i64,
    query: &SuggestionQuery,
) -> Result<Suggestions, BankError> {
    let transactions: Vec<BankTransaction> = match query.transaction_id {
        Some(id) => {
            let found = super::matching::transaction(pool, user_id, id).await?;
            vec![found]
        }
        None => store::transactions::recent_unmatched(pool, user_id, MAX_TRANSACTIONS).await?,
    };
    let bills: Vec<bills::Bill> = bills::list(pool, user_id)
        .await?
        .into_iter()
        .filter(|bill| bill.active)
        .collect();
    let before = matched_before(pool, user_id).await?;
    // The catalog's seeded descriptors tell who a payee is; a bill is the
    // service it is linked to, else the one its name resolves to.
    let index = crate::backend::catalog::seeded_index();
    let bill_services: Vec<Option<i64>> = bills
        .iter()
        .map(|bill| {
            bill.catalog_id.or_else(|| {
                let ids = known(index?, &bill.name, bill.amount_minor)?;
                // A name that could be several services says none.
                (ids.len() == 1).then(|| ids[0])
            })
        })
        .collect();
    let mut answer = Vec::new();
    for transaction in transactions {
        let open = transaction.bill_id.is_none() && !transaction.pending && !transaction.ignored;
        if !open || merchant::never_a_bill(&transaction.description, transaction.amount_minor) {
            continue;
        }
        let Some(day) = transaction
            .posted_at
            .get(..10)
            .and_then(|day| Date::parse(day).ok())
        else {
            continue;
        };
        let key = merchant::normalize(&transaction.description);
        let payee = index
            .and_then(|index| known(index, &transaction.description, transaction.amount_minor));
        let mut scored: Vec<Suggestion> = bills
            .iter()
            .zip(&bill_services)
            .filter(|(bill, _)| bill.currency == transaction.currency)
            .filter_map(|(bill, is)| {
                let service = match (&payee, *is) {
                    (Some(payee), Some(is)) if payee.contains(&is) => Service::Same(
                        index
                            .and_then(|index| index.service(is))
                            .map_or(bill.name.as_str(), |service| service.name.as_str()),
                    ),
                    (Some(_), Some(_)) => Service::Other,
                    _ => Service::Unknown,
                };
                let facts = BillFacts {
                    name: &bill.name,
                    amount_minor: bill.amount_minor,
                    days_from_due: days_from_due(bill, day),
                    matched_before: before.contains(&(key.clone(), bill.id)),
                    service,
                };
                let found =
                    suggestion::score(&transaction.description, transaction.amount_minor, &facts);
                (found.points >= THRESHOLD).then(|| Suggestion {
                    bill_id: bill.id,
                    bill_name: bill.name.clone(),
                    score: found.points,
                    reasons: found.reasons,
                })
            })
            .collect();
        if scored.is_empty() {
            continue;
        }
        scored.sort_by(|a, b| b.score.cmp(&a.score).then(a.bill_id.cmp(&b.bill_id)));
        scored.truncate(PER_TRANSACTION);
        answer.push(TransactionSuggestions {
            transaction,
            bills: scored,
        });
    }
    Ok(Suggestions {
        suggestions: answer,
    })
}

/// A match this strong (a service's name, or better) says who a payee is.
const SURE: u8 = 80;

/// The catalog services `text` (a payee, or a bill's name) is: the one
/// the index finds, and those its descriptor can also mean.
fn known(index: &CatalogIndex, text: &str, amount_minor: i64) -> Option<Vec<i64>> {
    let found = index.identify(text, amount_minor)?;
    (found.score >= SURE).then(|| {
        let mut ids = found.alternatives;
        ids.push(found.catalog_id);
        ids
    })
}

/// Days from `day` to the bill's nearest due date, when within a week.
fn days_from_due(bill: &bills::Bill, day: Date) -> Option<i64> {
    let due = bill.due_on_or_after(day.add_days(-NEAR_DAYS)?)?;
    let days = (due.days_since_epoch() - day.days_since_epoch()).abs();
    (days <= NEAR_DAYS).then_some(days)
}

/// (merchant key, bill) pairs the user confirmed: their rules and the
/// payees of their matched transactions.
async fn matched_before(
    pool: &SqlitePool,
    user_id: i64,
) -> Result<HashSet<(String, i64)>, sqlx::Error> {
    let rules = super::store::matching::all_rules(pool, user_id).await?;
    let matched = super::store::matching::matched_descriptions(pool, user_id).await?;
    Ok(rules
        .into_iter()
        .chain(
            matched
                .into_iter()
                .map(|(description, bill)| (merchant::normalize(&description), bill)),
        )
        .collect())
}
