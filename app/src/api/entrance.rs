//! Signing in and joining, for the sign-in and registration pages, over
//! the same services as `/api/auth/login…` and `/api/auth/register…`. Each
//! write carries the CSRF token ([`CsrfClient`]) like every other; a step
//! that starts a session sets its cookie on the answer.

use leptos::prelude::*;
use leptos::server_fn::codec::{GetUrl, Json};

use super::CsrfClient;
use crate::contract::account::{
    AuthMethods, Register, RegistrationStatus, SecondFactorCode, SignIn, SignInAnswer,
};
use crate::contract::error::ErrorBody;
use crate::contract::security_keys::{KeySignIn, KeySignInOptions};

/// Email and password: signed in, or the challenge for a second factor.
#[server(prefix = "/api/fn", endpoint = "sign-in", input = Json, client = CsrfClient)]
pub async fn start_sign_in(request: SignIn) -> Result<SignInAnswer, ErrorBody> {
    let (services, visitor) = super::signed_in::visitor().await?;
    let answered =
        crate::backend::auth::entrance::password(&services.auth, visitor, request).await?;
    Ok(super::signed_in::with_session_cookie(&services, answered))
}

/// The second step with a TOTP or recovery code.
#[server(prefix = "/api/fn", endpoint = "sign-in/code", input = Json, client = CsrfClient)]
pub async fn answer_with_code(request: SecondFactorCode) -> Result<SignInAnswer, ErrorBody> {
    let (services, visitor) = super::signed_in::visitor().await?;
    let answered = crate::backend::auth::entrance::code(&services.auth, visitor, request).await?;
    Ok(super::signed_in::with_session_cookie(&services, answered))
}

/// The options for the security key, for a live challenge.
#[server(prefix = "/api/fn", endpoint = "sign-in/key-options", input = Json, client = CsrfClient)]
pub async fn start_key_sign_in(challenge: String) -> Result<KeySignInOptions, ErrorBody> {
    let services = super::signed_in::services()?;
    Ok(crate::backend::auth::entrance::key_options(&services.auth, &challenge).await?)
}

/// The second step with the security key's answer.
#[server(prefix = "/api/fn", endpoint = "sign-in/key", input = Json, client = CsrfClient)]
pub async fn answer_with_key(request: KeySignIn) -> Result<SignInAnswer, ErrorBody> {
    let (services, visitor) = super::signed_in::visitor().await?;
    let answered = crate::backend::auth::entrance::key(&services.auth, visitor, request).await?;
    Ok(super::signed_in::with_session_cookie(&services, answered))
}

/// Whether open registration is on, and what an invitation link opens.
#[server(prefix = "/api/fn", endpoint = "registration", input = GetUrl)]
pub async fn get_registration(invitation: Option<String>) -> Result<RegistrationStatus, ErrorBody> {
    let services = super::signed_in::services()?;
    Ok(crate::backend::auth::entrance::registration(&services.auth, invitation.as_deref()).await?)
}

/// Creates the account and signs it in.
#[server(prefix = "/api/fn", endpoint = "register", input = Json, client = CsrfClient)]
pub async fn create_account(request: Register) -> Result<SignInAnswer, ErrorBody> {
    let (services, visitor) = super::signed_in::visitor().await?;
    let answered =
        crate::backend::auth::entrance::register(&services.auth, visitor, request).await?;
    Ok(super::signed_in::with_session_cookie(&services, answered))
}

/// How people can sign in (the sign-in page's buttons); the same answer as
/// `GET /api/auth/methods`.
#[server(prefix = "/api/fn", endpoint = "sign-in/methods", input = GetUrl)]
pub async fn get_sign_in_methods() -> Result<AuthMethods, ErrorBody> {
    let services = super::signed_in::services()?;
    Ok(crate::backend::sso::service::methods(&services.sso)
        .await
        .map_err(crate::backend::api_error::ApiError::from)?)
}
