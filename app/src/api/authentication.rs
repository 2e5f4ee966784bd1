//! Admin → Authentication's and Profile's identities' server functions,
//! over the same services as `/api/admin/authentication` and
//! `/api/profile/identities`.
// The settings form posts its fields as one server function's arguments,
// and `#[server]` puts them on functions an attribute cannot reach.
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use super::CsrfClient;
use crate::contract::authentication::{AuthenticationSettings, Discovery, LinkedIdentities};
use crate::contract::error::ErrorBody;
use crate::contract::two_factor::CurrentPassword;

/// The settings in force, and which fields the environment fixed.
#[server(prefix = "/api/fn", endpoint = "admin/authentication", input = GetUrl)]
pub async fn get_authentication() -> Result<AuthenticationSettings, ErrorBody> {
    let me = super::signed_in::as_declared::<GetAuthentication>().await?;
    Ok(crate::backend::sso::authentication::read(&me.services.sso).await?)
}

/// Saves the form: what it changes of the settings in force (the rules
/// are `backend::sso::settings_form`'s), with the administrator's
/// password asked again (`confirm[currentPassword]`).
#[server(prefix = "/api/fn", endpoint = "admin/authentication/save", client = CsrfClient)]
pub async fn save_authentication(
    issuer_url: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
    forget_client_secret: Option<String>,
    scopes: Option<String>,
    groups_claim: Option<String>,
    admin_group: Option<String>,
    auto_provision: Option<String>,
    link_by_email: Option<String>,
    button_label: Option<String>,
    local_login_enabled: Option<String>,
    confirm: CurrentPassword,
) -> Result<AuthenticationSettings, ErrorBody> {
    use crate::backend::sso::{authentication, settings_form::AuthenticationForm};
    let (services, admin) =
        super::signed_in::confirmed_administrator(&confirm.current_password).await?;
    let form = AuthenticationForm {
        issuer_url,
        client_id,
        client_secret,
        forget_client_secret,
        scopes,
        groups_claim,
        admin_group,
        auto_provision,
        link_by_email,
        button_label,
        local_login_enabled,
    };
    let change = form.change(&authentication::read(&services.sso).await?);
    Ok(authentication::change(&services.sso, &services.notifier, &admin, change).await?)
}

/// Fetches the provider's discovery document now.
#[server(prefix = "/api/fn", endpoint = "admin/authentication/discovery", client = CsrfClient)]
pub async fn test_discovery(issuer_url: Option<String>) -> Result<Discovery, ErrorBody> {
    use crate::contract::authentication::DiscoveryRequest;
    let me = super::signed_in::as_declared::<TestDiscovery>().await?;
    Ok(crate::backend::sso::authentication::test_discovery(
        &me.services.sso,
        DiscoveryRequest { issuer_url },
    )
    .await?)
}

/// The identities at the provider linked to the account signed in.
#[server(prefix = "/api/fn", endpoint = "profile/identities", input = GetUrl)]
pub async fn get_identities() -> Result<LinkedIdentities, ErrorBody> {
    let me = super::signed_in::as_declared::<GetIdentities>().await?;
    Ok(crate::backend::sso::identities::list(&me.services.sso, me.current.user.id).await?)
}

/// Unlinks one (refused while the account has no password).
#[server(prefix = "/api/fn", endpoint = "profile/unlink-identity", client = CsrfClient)]
pub async fn unlink_identity(id: i64) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<UnlinkIdentity>().await?;
    Ok(crate::backend::sso::identities::unlink(&me.services.sso, me.current.user.id, id).await?)
}
