//! The signed-in user's own account, for the Profile page: a server
//! function (GET) over the same lookup as `GET /api/auth/me`.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::contract::account::Me;
use crate::contract::error::ErrorBody;

/// The signed-in user; 401 when nobody is.
#[server(prefix = "/api/fn", endpoint = "me", input = GetUrl)]
pub async fn get_me() -> Result<Me, ErrorBody> {
    let me = super::signed_in::signed_in().await?;
    Ok(Me { user: me.user })
}
