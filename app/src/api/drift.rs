//! Price drift on the Tracker: the drifting bills, over the same
//! `backend::drift` service as `/api/bills/drift`. Its writes are
//! [`super::tracker_act`]'s.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::contract::drift::Drifts;
use crate::contract::error::ErrorBody;

#[server(prefix = "/api/fn", endpoint = "drift", input = GetUrl)]
pub async fn get_drift() -> Result<Drifts, ErrorBody> {
    let me = super::signed_in::as_declared::<GetDrift>().await?;
    Ok(crate::backend::drift::service::list(me.pool(), me.current.user.id).await?)
}
