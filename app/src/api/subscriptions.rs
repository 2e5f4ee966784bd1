//! The Subscriptions and Service Catalog pages' server functions, over the
//! same `backend::subscriptions` services as `/api/subscriptions/…` and
//! `/api/catalog/…`: reads are GET (rendered with the page), writes are
//! the pages' forms, which post without JavaScript too (through
//! [`CsrfClient`] with it).

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use super::CsrfClient;
use crate::contract::bills::BillRecord;
use crate::contract::error::ErrorBody;
use crate::contract::subscriptions::{
    CatalogLink, DeclineRecommendation, LinkRecommendation, NewDescriptor, OwnDescriptor,
    OwnDescriptors, Recommendations, RelinkRecommendation, TrackCatalog, Tracked, TrackedBills,
    TrackedServices,
};

/// The subscriptions Tally recognises in the user's bank charges.
#[server(prefix = "/api/fn", endpoint = "subscriptions/recommendations", input = GetUrl)]
pub async fn get_recommendations() -> Result<Recommendations, ErrorBody> {
    let me = super::signed_in::as_declared::<GetRecommendations>().await?;
    Ok(
        crate::backend::subscriptions::recommendations::recommendations(
            me.pool(),
            me.current.user.id,
        )
        .await?,
    )
}

/// Tracks a recommendation as a new subscription bill.
#[server(prefix = "/api/fn", endpoint = "subscriptions/track", client = CsrfClient)]
pub async fn track_suggested_service(id: String) -> Result<Tracked, ErrorBody> {
    let me = super::signed_in::as_declared::<TrackSuggestedService>().await?;
    Ok(crate::backend::subscriptions::feedback::track(me.pool(), me.current.user.id, &id).await?)
}

/// Links a recommendation to a bill the user already has.
#[server(prefix = "/api/fn", endpoint = "subscriptions/link", client = CsrfClient)]
pub async fn link_suggested_service(
    id: String,
    request: LinkRecommendation,
) -> Result<Tracked, ErrorBody> {
    let me = super::signed_in::as_declared::<LinkSuggestedService>().await?;
    Ok(
        crate::backend::subscriptions::feedback::link(me.pool(), me.current.user.id, &id, &request)
            .await?,
    )
}

/// Declines a recommendation (for 180 days, or until its amount changes):
/// the card's Decline (no `request`) or Not a subscription
/// (`request[reason]=not_a_subscription`).
#[server(prefix = "/api/fn", endpoint = "subscriptions/decline", client = CsrfClient)]
pub async fn decline_suggested_service(
    id: String,
    request: Option<DeclineRecommendation>,
) -> Result<(), ErrorBody> {
    let request = request.unwrap_or_default();
    let me = super::signed_in::as_declared::<DeclineSuggestedService>().await?;
    Ok(crate::backend::subscriptions::feedback::decline(
        me.pool(),
        me.current.user.id,
        &id,
        &request,
    )
    .await?)
}

/// Says a recommendation's charges are another service's.
#[server(prefix = "/api/fn", endpoint = "subscriptions/relink", client = CsrfClient)]
pub async fn relink_suggested_service(
    id: String,
    request: RelinkRecommendation,
) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<RelinkSuggestedService>().await?;
    Ok(crate::backend::subscriptions::feedback::relink(
        me.pool(),
        me.current.user.id,
        &id,
        &request,
    )
    .await?)
}

/// Links a bill to a catalog service, or unlinks it: the Service
/// Catalog's Re-link and Unlink forms as they post (Unlink sends no
/// `request`).
#[server(prefix = "/api/fn", endpoint = "catalog/link", client = CsrfClient)]
pub async fn set_catalog_link(
    bill_id: i64,
    request: Option<CatalogLink>,
) -> Result<BillRecord, ErrorBody> {
    let request = request.unwrap_or(CatalogLink { catalog_id: None });
    let me = super::signed_in::as_declared::<SetCatalogLink>().await?;
    Ok(crate::backend::subscriptions::feedback::catalog_link(
        me.pool(),
        me.current.user.id,
        bill_id,
        &request,
    )
    .await?)
}

/// The user's bills linked to a service, beside the catalog's prices.
#[server(prefix = "/api/fn", endpoint = "catalog/tracked", input = GetUrl)]
pub async fn get_tracked_services() -> Result<TrackedServices, ErrorBody> {
    let me = super::signed_in::as_declared::<GetTrackedServices>().await?;
    Ok(
        crate::backend::subscriptions::catalog_entries::tracked(me.pool(), me.current.user.id)
            .await?,
    )
}

/// Subscription bills for catalog services at their starting prices: a
/// row's Track form, or "Track selected" with the boxes ticked (none
/// ticked sends no `request`, which the service refuses by name).
#[server(prefix = "/api/fn", endpoint = "catalog/track", client = CsrfClient)]
pub async fn track_catalog_services(
    request: Option<TrackCatalog>,
) -> Result<TrackedBills, ErrorBody> {
    let request = request.unwrap_or(TrackCatalog {
        catalog_ids: Vec::new(),
    });
    let me = super::signed_in::as_declared::<TrackCatalogServices>().await?;
    Ok(crate::backend::subscriptions::catalog_entries::track(
        me.pool(),
        me.current.user.id,
        &request,
    )
    .await?)
}

/// The bank descriptors the user taught Tally.
#[server(prefix = "/api/fn", endpoint = "catalog/descriptors", input = GetUrl)]
pub async fn get_own_descriptors() -> Result<OwnDescriptors, ErrorBody> {
    let me = super::signed_in::as_declared::<GetOwnDescriptors>().await?;
    Ok(crate::backend::subscriptions::own_descriptors::list(me.pool(), me.current.user.id).await?)
}

/// Teaches Tally a bank descriptor for a service.
#[server(prefix = "/api/fn", endpoint = "catalog/descriptors/add", client = CsrfClient)]
pub async fn add_own_descriptor(request: NewDescriptor) -> Result<OwnDescriptor, ErrorBody> {
    let me = super::signed_in::as_declared::<AddOwnDescriptor>().await?;
    Ok(
        crate::backend::subscriptions::own_descriptors::add(
            me.pool(),
            me.current.user.id,
            &request,
        )
        .await?,
    )
}

/// Forgets one of the user's descriptors.
#[server(prefix = "/api/fn", endpoint = "catalog/descriptors/delete", client = CsrfClient)]
pub async fn delete_own_descriptor(id: i64) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<DeleteOwnDescriptor>().await?;
    Ok(
        crate::backend::subscriptions::own_descriptors::delete(me.pool(), me.current.user.id, id)
            .await?,
    )
}
