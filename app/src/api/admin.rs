//! Admin's reads: the users, the pending invitations and whether anyone
//! may register. Server functions (GET) for administrators only, over the
//! same services as `/api/admin/…`.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::contract::admin::{Invitation, RegistrationSetting, UserSummary};
use crate::contract::error::ErrorBody;
#[cfg(feature = "ssr")]
use crate::ssr::api_error::ApiError;

/// Every account, for the users table.
#[server(prefix = "/api/fn", endpoint = "admin/users", input = GetUrl)]
pub async fn list_users() -> Result<Vec<UserSummary>, ErrorBody> {
    let admin = super::signed_in::administrator().await?;
    Ok(crate::ssr::auth::admin::list(&admin.pool)
        .await
        .map_err(ApiError::from)?)
}

/// Invitations not yet used or expired.
#[server(prefix = "/api/fn", endpoint = "admin/invitations", input = GetUrl)]
pub async fn list_invitations() -> Result<Vec<Invitation>, ErrorBody> {
    let admin = super::signed_in::administrator().await?;
    Ok(crate::ssr::auth::invitations::pending(&admin.pool)
        .await
        .map_err(ApiError::from)?)
}

/// Whether registration is open to anyone.
#[server(prefix = "/api/fn", endpoint = "admin/registration", input = GetUrl)]
pub async fn get_registration() -> Result<RegistrationSetting, ErrorBody> {
    let admin = super::signed_in::administrator().await?;
    let open = crate::ssr::auth::invitations::open_registration(&admin.pool)
        .await
        .map_err(ApiError::from)?;
    Ok(RegistrationSetting { open })
}
