//! Profile's security keys, over the same services as
//! `/api/auth/security-keys…`: the list (GET, rendered with the page), and
//! registering (two steps around the key's own ceremony) and removing one,
//! which need a browser session and carry the CSRF token.

use leptos::prelude::*;
use leptos::server_fn::codec::{GetUrl, Json};

use super::CsrfClient;
use crate::contract::error::ErrorBody;
use crate::contract::security_keys::{KeyInfo, RegisterKey, RegistrationStarted, RemoveKey};

/// The user's keys.
#[server(prefix = "/api/fn", endpoint = "security-keys", input = GetUrl)]
pub async fn get_security_keys() -> Result<Vec<KeyInfo>, ErrorBody> {
    let me = super::signed_in::as_declared::<GetSecurityKeys>().await?;
    Ok(crate::backend::auth::security_keys::list(me.pool(), me.current.user.id).await?)
}

/// Starts registering a key: the options for `navigator.credentials.create`.
#[server(prefix = "/api/fn", endpoint = "security-keys/start", input = Json, client = CsrfClient)]
pub async fn start_key_registration() -> Result<RegistrationStarted, ErrorBody> {
    let me = super::signed_in::as_declared::<StartKeyRegistration>().await?;
    let session = me.current.clone().browser_session()?;
    let (ceremony, options) = me
        .services
        .auth
        .security_keys
        .begin_registration(me.pool(), &session.user)
        .await?;
    Ok(RegistrationStarted {
        ceremony,
        options: crate::contract::security_keys::WebAuthnJson(options),
    })
}

/// Finishes registering, with the key's credential and a name.
#[server(prefix = "/api/fn", endpoint = "security-keys/finish", input = Json, client = CsrfClient)]
pub async fn finish_key_registration(request: RegisterKey) -> Result<KeyInfo, ErrorBody> {
    let me = super::signed_in::as_declared::<FinishKeyRegistration>().await?;
    let session = me.current.clone().browser_session()?;
    Ok(me
        .services
        .auth
        .security_keys
        .finish_registration(
            me.pool(),
            &session.user,
            &request.ceremony,
            &request.name,
            request.credential.0,
        )
        .await?)
}

/// Removes a key, after the current password.
#[server(prefix = "/api/fn", endpoint = "security-keys/remove", input = Json, client = CsrfClient)]
pub async fn remove_security_key(id: i64, request: RemoveKey) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<RemoveSecurityKey>().await?;
    let ip = me.client_ip()?;
    Ok(crate::backend::auth::account::remove_security_key(
        &me.services.auth,
        ip,
        &me.current,
        id,
        request,
    )
    .await?)
}
