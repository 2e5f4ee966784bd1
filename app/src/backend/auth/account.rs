//! Changes people make to their own account that need a browser session
//! and, where a borrowed session must not be enough, the current password:
//! name and email, the password, turning TOTP off; and signing out. REST
//! and the Profile page's server functions both call these.

use super::Auth;
use super::AuthError;
use std::net::IpAddr;

use secrecy::SecretString;

use super::current::Credential;
use super::extractors::CurrentUser;
use super::{api_tokens, security_keys, sessions, totp, users};
use crate::contract::account::{Me, SignedOut, UpdateProfile};
use crate::contract::security_keys::RemoveKey;
use crate::contract::two_factor::{ChangePassword, CurrentPassword};

/// Name and email. A new email needs the current password, so a borrowed
/// session cannot take over the account.
pub async fn update_profile(
    auth: &Auth,
    ip: IpAddr,
    current: &CurrentUser,
    request: UpdateProfile,
) -> Result<Me, AuthError> {
    let session = current.clone().browser_session()?;
    if !request
        .email
        .trim()
        .eq_ignore_ascii_case(&session.user.email)
    {
        let password = request.current_password.unwrap_or_default();
        auth.confirm_password(ip, &session.user, password).await?;
    }
    let user =
        users::update_profile(&auth.pool, session.user.id, &request.name, &request.email).await?;
    Ok(Me { user })
}

/// A new password, after the current one; ends every other session of the
/// user and revokes every API token, so whoever knew the old password or
/// copied a token is out.
pub async fn change_password(
    auth: &Auth,
    ip: IpAddr,
    current: &CurrentUser,
    request: ChangePassword,
) -> Result<(), AuthError> {
    let session = current.clone().browser_session()?;
    auth.confirm_password(ip, &session.user, request.current_password)
        .await?;
    users::set_password(
        &auth.pool,
        &session.user,
        SecretString::from(request.new_password),
    )
    .await?;
    sessions::end_all(&auth.pool, session.user.id, Some(&session.session_id)).await?;
    api_tokens::revoke_all(&auth.pool, session.user.id).await?;
    Ok(())
}

/// Turns TOTP off, after the current password.
pub async fn turn_off_totp(
    auth: &Auth,
    ip: IpAddr,
    current: &CurrentUser,
    request: CurrentPassword,
) -> Result<(), AuthError> {
    let session = current.clone().browser_session()?;
    auth.confirm_password(ip, &session.user, request.current_password)
        .await?;
    totp::turn_off(&auth.pool, session.user.id).await?;
    Ok(())
}

/// Removes one of the user's security keys: the account gets weaker, so it
/// takes the current password, from a browser session. Someone else's key
/// is 404 before any password is asked for.
pub async fn remove_security_key(
    auth: &Auth,
    ip: IpAddr,
    current: &CurrentUser,
    id: i64,
    request: RemoveKey,
) -> Result<(), AuthError> {
    let session = current.clone().browser_session()?;
    let not_found = || AuthError::NotFound(format!("no security key {id}"));
    if !security_keys::owns(&auth.pool, session.user.id, id).await? {
        return Err(not_found());
    }
    let password = request
        .current_password
        .filter(|password| !password.is_empty())
        .ok_or_else(|| {
            AuthError::field(
                "currentPassword",
                "give your current password to remove a key",
            )
        })?;
    auth.confirm_password(ip, &session.user, password).await?;
    if security_keys::remove(&auth.pool, session.user.id, id).await? {
        Ok(())
    } else {
        Err(not_found())
    }
}

/// Ends this session (nothing for an API token); `everywhere` ends every
/// session of the user and revokes every API token, since a copied token is
/// a way in as well. A session that came from the identity provider answers
/// where to sign out at the provider too (RP-initiated logout), so the next
/// visit does not silently sign back in.
pub async fn sign_out(
    auth: &Auth,
    current: &CurrentUser,
    everywhere: bool,
) -> Result<SignedOut, AuthError> {
    let redirect = match &current.credential {
        Credential::Session { session_id } => {
            crate::backend::sso::service::end_session_url(&auth.sso, session_id).await
        }
        Credential::ApiToken { .. } => None,
    };
    if everywhere {
        sessions::end_all(&auth.pool, current.user.id, None).await?;
        api_tokens::revoke_all(&auth.pool, current.user.id).await?;
    } else if let Credential::Session { session_id } = &current.credential {
        sessions::end(&auth.pool, session_id).await?;
    }
    Ok(SignedOut { redirect })
}
