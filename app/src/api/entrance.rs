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
/// Posted by the sign-in page's form (`request[email]`,
/// `request[password]`, `next`), which works without JavaScript: signed
/// in, the browser opens `next` (a page of this site); an account with a
/// second factor comes back to the page, which says that step needs
/// JavaScript; a refusal comes back with its message.
#[server(prefix = "/api/fn", endpoint = "sign-in", client = CsrfClient)]
pub async fn start_sign_in(
    request: SignIn,
    #[server(default)] next: Option<String>,
) -> Result<SignInAnswer, ErrorBody> {
    use crate::domain::{operation::query_value, redirect};

    if request.email.trim().is_empty() || request.password.is_empty() {
        return Err(crate::domain::validation::FieldViolation::new(
            "email",
            "enter your email address and your password",
        )
        .into());
    }
    let request = SignIn {
        email: request.email.trim().to_owned(),
        password: request.password,
    };
    let (services, visitor) = super::signed_in::visitor().await?;
    let answered =
        crate::backend::auth::entrance::password(&services.auth, visitor, request).await?;
    let next = redirect::next_or_default(next.as_deref());
    match &answered.answer {
        SignInAnswer::SignedIn(_) => super::form_post::then_open(&next),
        SignInAnswer::SecondFactor(_) => super::form_post::then_open(&format!(
            "/login?error=second-factor&next={}",
            query_value(&next)
        )),
    }
    Ok(super::signed_in::with_session_cookie(&services, answered))
}

/// The second step with a TOTP or recovery code. The sign-in page's
/// second form posts it (`request[challenge]`, `request[code]`); the page
/// shows that form only once its script has the challenge.
#[server(prefix = "/api/fn", endpoint = "sign-in/code", client = CsrfClient)]
pub async fn answer_with_code(request: SecondFactorCode) -> Result<SignInAnswer, ErrorBody> {
    if request.code.trim().is_empty() {
        return Err(crate::domain::validation::FieldViolation::new(
            "code",
            "enter the code from your authenticator app",
        )
        .into());
    }
    let request = SecondFactorCode {
        code: request.code.trim().to_owned(),
        ..request
    };
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

/// Creates the account and signs it in. Posted by the registration page's
/// form (`request[invitation]`, `request[email]`, `request[name]`,
/// `request[password]`, `request[timeZone]`), which works without
/// JavaScript: the browser opens the Tracker signed in, or comes back to
/// the form with the refusal. A form sends an empty invitation or time
/// zone for none.
#[server(prefix = "/api/fn", endpoint = "register", client = CsrfClient)]
pub async fn create_account(request: Register) -> Result<SignInAnswer, ErrorBody> {
    let given = |value: Option<String>| {
        value
            .map(|value| value.trim().to_owned())
            .filter(|value| !value.is_empty())
    };
    let request = Register {
        invitation: given(request.invitation),
        email: request.email.trim().to_owned(),
        name: request.name.trim().to_owned(),
        password: request.password,
        time_zone: given(request.time_zone),
    };
    let (services, visitor) = super::signed_in::visitor().await?;
    let answered =
        crate::backend::auth::entrance::register(&services.auth, visitor, request).await?;
    super::form_post::then_open(crate::domain::redirect::AFTER_SIGN_IN);
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
