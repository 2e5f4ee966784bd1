//! The bill tracker's server functions for its pages, over the same
//! `backend::bills` services as `/api/bills…` and `/api/tracker`. Reads are GET
//! (no CSRF token): the pages call them while the server renders them, so
//! the data is in the HTML, and over HTTP after a change. Writes are POSTs
//! through [`CsrfClient`], which sends the CSRF token, of each form's
//! fields as the page's form posts them.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use super::CsrfClient;
#[cfg(feature = "ssr")]
use crate::backend::api_error::ApiError;
use crate::contract::bills::{
    AutopayTrust, BillList, BillRecord, Catalog, OrderShift, Payment, PaymentInput, Payments,
    Spending, Tracker, TrackerPageData,
};
use crate::contract::error::ErrorBody;
use crate::domain::bill_input::BillInput;

/// A month or a pay period (`period`: `month` or `pay`; none: the pay
/// period when the user has a pay schedule): today's, or the month `year`
/// and `month`, or the pay period holding `from`.
#[server(prefix = "/api/fn", endpoint = "tracker", input = GetUrl)]
pub async fn get_tracker(
    period: Option<String>,
    year: Option<String>,
    month: Option<String>,
    from: Option<String>,
) -> Result<Tracker, ErrorBody> {
    let me = super::signed_in::as_declared::<GetTracker>().await?;
    Ok(tracker_shown(&me, period, year, month, from).await?)
}

/// The period the address asks for, as both Tracker reads answer it.
#[cfg(feature = "ssr")]
async fn tracker_shown(
    me: &super::signed_in::SignedIn,
    period: Option<String>,
    year: Option<String>,
    month: Option<String>,
    from: Option<String>,
) -> Result<Tracker, ApiError> {
    use crate::backend::bills::views::{self, Shown};
    let shown = Shown::parse(
        period.as_deref(),
        year.as_deref(),
        month.as_deref(),
        from.as_deref(),
    )?;
    Ok(views::tracker(me.pool(), me.current.user.id, shown).await?)
}

/// The Tracker page's one read: the period as [`get_tracker`] answers it,
/// with the drifting bills, the bank accounts and the spending chart, so a
/// page load or a write asks once instead of four times.
#[server(prefix = "/api/fn", endpoint = "tracker/page", input = GetUrl)]
pub async fn get_tracker_page(
    period: Option<String>,
    year: Option<String>,
    month: Option<String>,
    from: Option<String>,
) -> Result<TrackerPageData, ErrorBody> {
    use crate::backend::bills::views;
    let me = super::signed_in::as_declared::<GetTrackerPage>().await?;
    let user = me.current.user.id;
    let tracker = tracker_shown(&me, period, year, month, from).await?;
    Ok(TrackerPageData {
        tracker,
        drifts: crate::backend::drift::service::list(me.pool(), user)
            .await
            .ok(),
        bank: crate::backend::bank::service::overview(&me.services.bank, user)
            .await
            .ok(),
        spending: views::spending(me.pool(), user).await.ok(),
    })
}

/// Payments per category per month, for the last six months.
#[server(prefix = "/api/fn", endpoint = "spending", input = GetUrl)]
pub async fn get_spending() -> Result<Spending, ErrorBody> {
    let me = super::signed_in::as_declared::<GetSpending>().await?;
    Ok(crate::backend::bills::views::spending(me.pool(), me.current.user.id).await?)
}

/// The known subscription services a bill can link to; `q` narrows them
/// to those with every word in the name, category or web address.
#[server(prefix = "/api/fn", endpoint = "catalog", input = GetUrl)]
pub async fn get_catalog(q: Option<String>) -> Result<Catalog, ErrorBody> {
    use crate::contract::subscriptions::CatalogQuery;
    let me = super::signed_in::as_declared::<GetCatalog>().await?;
    Ok(
        crate::backend::subscriptions::catalog_entries::search(me.pool(), &CatalogQuery { q })
            .await?,
    )
}

/// Every bill of the signed-in user, with the locale and today's date.
#[server(prefix = "/api/fn", endpoint = "bills", input = GetUrl)]
pub async fn get_bills() -> Result<BillList, ErrorBody> {
    let me = super::signed_in::as_declared::<GetBills>().await?;
    Ok(crate::backend::bills::views::bill_list(me.pool(), me.current.user.id).await?)
}

/// One bill of the signed-in user; anyone else's answers 404.
#[server(prefix = "/api/fn", endpoint = "bill", input = GetUrl)]
pub async fn get_bill(id: i64) -> Result<BillRecord, ErrorBody> {
    use crate::backend::bills::{self, views};
    let me = super::signed_in::as_declared::<GetBill>().await?;
    let bill = bills::get(me.pool(), me.current.user.id, id).await?;
    Ok(views::shown_for(me.pool(), me.current.user.id, &bill).await?)
}

/// The payments of one bill, newest first.
#[server(prefix = "/api/fn", endpoint = "payments", input = GetUrl)]
pub async fn get_payments(id: i64) -> Result<Payments, ErrorBody> {
    let me = super::signed_in::as_declared::<GetPayments>().await?;
    let payments = crate::backend::bills::list_payments(me.pool(), me.current.user.id, id).await?;
    Ok(Payments { payments })
}

/// Records a payment of one of the signed-in user's bills, as typed into
/// the bill page's form (`payment[…]` fields, posted with or without
/// JavaScript; a post without it comes back to the bill's page): no
/// amount is the bill's amount, no date is today ("mark paid").
#[server(prefix = "/api/fn", endpoint = "pay-bill", client = CsrfClient)]
pub async fn pay_bill(
    bill: i64,
    #[server(default)] payment: PaymentInput,
) -> Result<Payment, ErrorBody> {
    let me = super::signed_in::as_declared::<PayBill>().await?;
    Ok(crate::backend::bills::record_typed(me.pool(), me.current.user.id, bill, &payment).await?)
}

/// How an autopay bill has fared against the bank (`✓ 12/12`).
#[server(prefix = "/api/fn", endpoint = "autopay-trust", input = GetUrl)]
pub async fn get_autopay_trust(bill: i64) -> Result<AutopayTrust, ErrorBody> {
    let me = super::signed_in::as_declared::<GetAutopayTrust>().await?;
    Ok(crate::backend::bank::autopay::trust(me.pool(), me.current.user.id, bill).await?)
}

/// Adds a bill (`id: None`) or replaces bill `id`, as typed into the form
/// (`bill[…]` fields, posted by the page's `ActionForm` with or without
/// JavaScript); every field at fault is named in the error's details. A
/// post without JavaScript then opens the bill's page.
#[server(prefix = "/api/fn", endpoint = "save-bill", client = CsrfClient)]
pub async fn save_bill(id: Option<i64>, bill: BillInput) -> Result<BillRecord, ErrorBody> {
    use crate::backend::subscriptions::catalog_entries;
    use crate::contract::subscriptions::CatalogQuery;
    let me = super::signed_in::as_declared::<SaveBill>().await?;
    let catalog = if bill.is_subscription() && !bill.catalog.trim().is_empty() {
        Some(catalog_entries::search(me.pool(), &CatalogQuery { q: None }).await?)
    } else {
        None
    };
    let form = bill
        .to_form(|text| catalog.as_ref().and_then(|catalog| catalog.find(text)))
        .map_err(ApiError::InvalidFields)?;
    let saved =
        crate::backend::bills::forms::save(me.pool(), me.current.user.id, id, &form).await?;
    super::form_post::then_open(&format!("/bills/{}", saved.id));
    Ok(saved)
}

/// Every write of a bill's page but recording a payment, as one server
/// function (one form decoder in the bundle, as the Tracker's
/// `tracker/act`): `undo-payment`, `autopay-failed` and `autopay-ok` (of
/// `payment`), `end` (with `reason`), `restart` and `delete`, which then
/// opens the bill list. Each is a form that posts without JavaScript too.
/// Answers whether the bill is gone.
#[server(prefix = "/api/fn", endpoint = "bill/act", client = CsrfClient)]
pub async fn bill_act(
    act: String,
    bill: i64,
    payment: Option<i64>,
    reason: Option<String>,
) -> Result<bool, ErrorBody> {
    use crate::backend::bills;
    use crate::domain::bill_write::BillWrite;
    let me = super::signed_in::as_declared::<BillAct>().await?;
    let (pool, user) = (me.pool(), me.current.user.id);
    match BillWrite::read(&act, payment, reason)? {
        BillWrite::UndoPayment { payment } => bills::undo_payment(pool, user, payment).await?,
        BillWrite::FlagAutopay { payment, failed } => {
            bills::flag_autopay_failure(pool, user, payment, failed).await?;
        }
        BillWrite::End { reason } => {
            bills::deactivate(pool, user, bill, &reason).await?;
        }
        BillWrite::Restart => {
            bills::reactivate(pool, user, bill).await?;
        }
        BillWrite::Delete => {
            bills::delete(pool, user, bill).await?;
            super::form_post::then_open("/bills");
            return Ok(true);
        }
    }
    Ok(false)
}

/// The Custom order of the user's bills: every id once, as the
/// Subscriptions page's form posts it (`ids[0]`, `ids[1]`…), with the
/// button pressed (`shift[up]` or `shift[down]`) applied to it. Answers the
/// order kept.
#[server(prefix = "/api/fn", endpoint = "reorder-bills", client = CsrfClient)]
pub async fn reorder_bills(
    ids: Vec<i64>,
    shift: Option<OrderShift>,
) -> Result<Vec<i64>, ErrorBody> {
    let me = super::signed_in::as_declared::<ReorderBills>().await?;
    let ids = match shift {
        None => ids,
        Some(shift) => shift.applied(ids).ok_or_else(|| {
            crate::domain::validation::FieldViolation::new(
                "shift",
                "move one listed bill up or down",
            )
        })?,
    };
    crate::backend::bills::reorder(me.pool(), me.current.user.id, &ids).await?;
    Ok(ids)
}
