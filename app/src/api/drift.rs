//! Price drift on the Tracker: the drifting bills, over the same
//! `ssr::drift` service as `/api/bills/drift`. Its writes are
//! [`super::tracker_act`]'s.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::contract::drift::Drifts;
use crate::contract::error::ErrorBody;
#[cfg(feature = "ssr")]
use crate::ssr::api_error::ApiError;

#[server(prefix = "/api/fn", endpoint = "drift", input = GetUrl)]
pub async fn get_drift() -> Result<Drifts, ErrorBody> {
    let me = super::signed_in::signed_in().await?;
    Ok(
        crate::ssr::drift::service::list(me.pool(), me.current.user.id)
            .await
            .map_err(ApiError::from)?,
    )
}
