//! The signed-in user's own account, for the Profile page, over the same
//! services as `/api/auth/me`, `PUT /api/profile`, `/api/auth/password`
//! and `/api/auth/totp…`: who they are (GET), and the changes that need a
//! browser session (JSON through [`CsrfClient`]): name and email, the
//! password, TOTP; and signing out.

use leptos::prelude::*;
use leptos::server_fn::codec::{GetUrl, Json};

use super::CsrfClient;
use crate::contract::account::{Me, UpdateProfile};
use crate::contract::error::ErrorBody;
use crate::contract::two_factor::{
    ChangePassword, CurrentPassword, RecoveryCodes, TotpEnrolment, TotpStatus,
};

/// The signed-in user; 401 when nobody is.
#[server(prefix = "/api/fn", endpoint = "me", input = GetUrl)]
pub async fn get_me() -> Result<Me, ErrorBody> {
    let me = super::signed_in::as_declared::<GetMe>().await?;
    Ok(Me {
        user: me.current.user,
    })
}

/// Saves name and email (a new email needs the current password). Posted
/// by Profile's Account form (`request[name]`, `request[email]`,
/// `request[currentPassword]`), which works without JavaScript.
#[server(prefix = "/api/fn", endpoint = "account/save", client = CsrfClient)]
pub async fn save_account(request: UpdateProfile) -> Result<Me, ErrorBody> {
    let me = super::signed_in::as_declared::<SaveAccount>().await?;
    let ip = me.client_ip()?;
    Ok(
        crate::backend::auth::account::update_profile(&me.services.auth, ip, &me.current, request)
            .await?,
    )
}

/// A new password; the user's other sessions and API tokens end. Posted
/// by Profile's Password form (`request[currentPassword]`,
/// `request[newPassword]`), which works without JavaScript: the browser
/// comes back to Profile, which says the password changed.
#[server(prefix = "/api/fn", endpoint = "account/password", client = CsrfClient)]
pub async fn set_password(request: ChangePassword) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<SetPassword>().await?;
    let ip = me.client_ip()?;
    crate::backend::auth::account::change_password(&me.services.auth, ip, &me.current, request)
        .await?;
    super::form_post::then_open(
        &crate::domain::form_outcome::FormOutcome::PasswordChanged.address("/profile"),
    );
    Ok(())
}

/// Whether TOTP is on, and how many recovery codes are left.
#[server(prefix = "/api/fn", endpoint = "totp", input = GetUrl)]
pub async fn get_totp_status() -> Result<TotpStatus, ErrorBody> {
    let me = super::signed_in::as_declared::<GetTotpStatus>().await?;
    Ok(crate::backend::auth::totp::status(me.pool(), me.current.user.id).await?)
}

/// Starts setting TOTP up: a new secret with its QR code.
#[server(prefix = "/api/fn", endpoint = "totp/start", input = Json, client = CsrfClient)]
pub async fn start_totp() -> Result<TotpEnrolment, ErrorBody> {
    let me = super::signed_in::as_declared::<StartTotp>().await?;
    let session = me.current.clone().browser_session()?;
    Ok(
        crate::backend::auth::totp::begin_enrolment(me.pool(), &me.services.keyring, &session.user)
            .await?,
    )
}

/// Turns TOTP on with a first code; the recovery codes, once.
#[server(prefix = "/api/fn", endpoint = "totp/confirm", input = Json, client = CsrfClient)]
pub async fn confirm_totp(code: String) -> Result<RecoveryCodes, ErrorBody> {
    let me = super::signed_in::as_declared::<ConfirmTotp>().await?;
    let session = me.current.clone().browser_session()?;
    let recovery_codes = crate::backend::auth::totp::confirm_enrolment(
        me.pool(),
        &me.services.keyring,
        &session.user,
        &code,
    )
    .await?;
    Ok(RecoveryCodes { recovery_codes })
}

/// Turns TOTP off, after the current password. Posted by Profile's form
/// (`request[currentPassword]`), which works without JavaScript: the
/// browser comes back to Profile, which says it is off.
#[server(prefix = "/api/fn", endpoint = "totp/stop", client = CsrfClient)]
pub async fn stop_totp(request: CurrentPassword) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<StopTotp>().await?;
    let ip = me.client_ip()?;
    crate::backend::auth::account::turn_off_totp(&me.services.auth, ip, &me.current, request)
        .await?;
    super::form_post::then_open(
        &crate::domain::form_outcome::FormOutcome::TwoFactorOff.address("/profile"),
    );
    Ok(())
}

/// Signs out here, or everywhere (every session and API token); the
/// session cookie is cleared either way. A session from the identity
/// provider answers where to sign out there too.
#[server(prefix = "/api/fn", endpoint = "sign-out", input = Json, client = CsrfClient)]
pub async fn sign_out(everywhere: bool) -> Result<crate::contract::account::SignedOut, ErrorBody> {
    let me = super::signed_in::as_declared::<SignOut>().await?;
    let signed_out =
        crate::backend::auth::account::sign_out(&me.services.auth, &me.current, everywhere).await?;
    super::signed_in::set_session_cookie(&me.services, "", 0);
    Ok(signed_out)
}
