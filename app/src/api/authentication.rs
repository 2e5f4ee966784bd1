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

/// The settings in force, and which fields the environment fixed.
#[server(prefix = "/api/fn", endpoint = "admin/authentication", input = GetUrl)]
pub async fn get_authentication() -> Result<AuthenticationSettings, ErrorBody> {
    let me = super::signed_in::administrator().await?;
    Ok(crate::backend::sso::authentication::read(&me.services.sso).await?)
}

/// Saves the form: only the fields that changed, and none the environment
/// fixed (the page shows those read-only). An empty client secret keeps
/// the stored one; `forget_client_secret` clears it. Checkboxes are
/// present when ticked.
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
) -> Result<AuthenticationSettings, ErrorBody> {
    use crate::backend::sso::authentication;
    use crate::contract::authentication::AuthenticationChange;
    let me = super::signed_in::administrator().await?;
    let now = authentication::read(&me.services.sso).await?;
    let free = |field: &str| !now.fixed_by_environment.iter().any(|fixed| fixed == field);
    let text = |field: &str, given: Option<String>, current: Option<&str>| {
        let given = given.map(|text| text.trim().to_owned()).unwrap_or_default();
        (free(field) && given != current.unwrap_or_default())
            .then(|| (!given.is_empty()).then_some(given))
    };
    let flag = |field: &str, ticked: Option<String>, current: bool| {
        let ticked = ticked.is_some();
        (free(field) && ticked != current).then_some(Some(ticked))
    };
    let secret = match (
        client_secret.filter(|text| !text.trim().is_empty()),
        forget_client_secret.is_some(),
    ) {
        (Some(secret), _) => Some(Some(secret)),
        (None, true) if now.client_secret_set => Some(None),
        (None, _) => None,
    };
    let change = AuthenticationChange {
        issuer_url: text("issuerUrl", issuer_url, now.issuer_url.as_deref()),
        client_id: text("clientId", client_id, now.client_id.as_deref()),
        client_secret: secret.filter(|_| free("clientSecret")),
        scopes: text("scopes", scopes, Some(&now.scopes)),
        groups_claim: text("groupsClaim", groups_claim, Some(&now.groups_claim)),
        admin_group: text("adminGroup", admin_group, now.admin_group.as_deref()),
        auto_provision: flag("autoProvision", auto_provision, now.auto_provision),
        link_by_email: flag("linkByEmail", link_by_email, now.link_by_email),
        button_label: text("buttonLabel", button_label, Some(&now.button_label)),
        local_login_enabled: flag(
            "localLoginEnabled",
            local_login_enabled,
            now.local_login_enabled,
        ),
    };
    Ok(authentication::change(&me.services.sso, change).await?)
}

/// Fetches the provider's discovery document now.
#[server(prefix = "/api/fn", endpoint = "admin/authentication/discovery", client = CsrfClient)]
pub async fn test_discovery(issuer_url: Option<String>) -> Result<Discovery, ErrorBody> {
    use crate::contract::authentication::DiscoveryRequest;
    let me = super::signed_in::administrator().await?;
    Ok(crate::backend::sso::authentication::test_discovery(
        &me.services.sso,
        DiscoveryRequest { issuer_url },
    )
    .await?)
}

/// The identities at the provider linked to the account signed in.
#[server(prefix = "/api/fn", endpoint = "profile/identities", input = GetUrl)]
pub async fn get_identities() -> Result<LinkedIdentities, ErrorBody> {
    let me = super::signed_in::signed_in().await?;
    Ok(crate::backend::sso::identities::list(&me.services.sso, me.current.user.id).await?)
}

/// Unlinks one (refused while the account has no password).
#[server(prefix = "/api/fn", endpoint = "profile/unlink-identity", client = CsrfClient)]
pub async fn unlink_identity(id: i64) -> Result<(), ErrorBody> {
    let me = super::signed_in::signed_in().await?;
    Ok(crate::backend::sso::identities::unlink(&me.services.sso, me.current.user.id, id).await?)
}
