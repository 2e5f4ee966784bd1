//! What Admin does with the submissions: page through them (newest first,
//! searchable), see the CRM's health, and queue failed posts again. The
//! rules shared by `/api/admin/{leads|support-requests|crm}…` and the Admin
//! page's server functions.

use super::{store, Kind};
use super::{Contact, ContactError};
use crate::contract::contact::{CrmStatus, Requeued, SubmissionPage};

/// Rows a page holds when the caller does not say.
pub const DEFAULT_PAGE_SIZE: i64 = 25;

/// One page of `kind`, below the id `before` when given.
pub async fn page(
    contact: &Contact,
    kind: Kind,
    search: Option<&str>,
    page_size: Option<i64>,
    before: Option<i64>,
) -> Result<SubmissionPage, ContactError> {
    let page_size = page_size.unwrap_or(DEFAULT_PAGE_SIZE);
    if !(1..=200).contains(&page_size) {
        return Err(ContactError::PageSize);
    }
    let items = store::list(&contact.pool, kind, search, page_size, before).await?;
    let next_before = (items.len() as i64 == page_size)
        .then(|| items.last().map(|row| row.id))
        .flatten();
    Ok(SubmissionPage { items, next_before })
}

/// Queues one failed CRM post again; 404 when `id` has none.
pub async fn resend(contact: &Contact, kind: Kind, id: i64) -> Result<Requeued, ContactError> {
    let queued = store::resend_failed(&contact.pool, kind, Some(id)).await?;
    if queued == 0 {
        return Err(ContactError::NothingToResend(format!(
            "/api/admin/{}/{id}",
            kind.path_segment()
        )));
    }
    contact.outbox.wake();
    Ok(Requeued { queued })
}

/// Queues every failed CRM post again.
pub async fn resend_all(contact: &Contact) -> Result<Requeued, ContactError> {
    let mut queued = 0;
    for kind in Kind::ALL {
        queued += store::resend_failed(&contact.pool, kind, None).await?;
    }
    contact.outbox.wake();
    Ok(Requeued { queued })
}

/// The CRM's health and how many posts are in each state.
pub async fn crm_status(contact: &Contact) -> Result<CrmStatus, ContactError> {
    let counts = store::crm_counts(&contact.pool)
        .await?
        .into_iter()
        .collect();
    Ok(CrmStatus {
        health: contact.outbox.health(),
        counts,
    })
}
