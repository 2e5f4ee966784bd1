//! What an administrator does to other accounts: list them, disable and
//! re-enable them, reset a lost second factor, invite people and open
//! registration. The account-level actions (these, and the settings that
//! decide who signs in as whom and where confirmation links are mailed:
//! `sso::authentication::change`, `notifications::service::set_mail`)
//! take a [`ConfirmedAdmin`], which
//! only [`confirm`] makes: a browser session of an administrator who has
//! just typed their password again. So no API token, whatever its scopes,
//! and no session left open on a shared computer can mint an administrator
//! or let a stranger in; the REST routes and the Admin page's server
//! functions both go through it.

use super::Auth;
use std::net::IpAddr;

use sqlx::SqlitePool;

use super::extractors::BrowserSession;
use super::store::admin as stored;
use super::users::User;
use super::{invitations, AuthError};
use crate::contract::admin::{AccountAction, Invite, Invited};
use crate::domain::role::Role;

/// Why a token is refused the account-level actions.
pub const NEEDS_A_PERSON: &str = "an API token cannot do this: invitations, registration, enabling or disabling accounts, resetting second factors, restoring, and the sign-in and mail server settings need a signed-in administrator and their password";

/// An administrator at a browser who has just confirmed their password.
/// Private field: made by [`confirm`] only.
#[derive(Debug)]
pub struct ConfirmedAdmin {
    user: User,
}

impl ConfirmedAdmin {
    pub fn user(&self) -> &User {
        &self.user
    }
}

/// Checks that `session` is an administrator's and that
/// `current_password` is their password (throttled like a sign-in).
pub async fn confirm(
    auth: &Auth,
    session: BrowserSession,
    ip: IpAddr,
    current_password: &str,
) -> Result<ConfirmedAdmin, AuthError> {
    if !session.user.is_admin() {
        return Err(AuthError::Forbidden("administrators only".into()));
    }
    if current_password.is_empty() {
        return Err(AuthError::field(
            "currentPassword",
            "enter your password to confirm this",
        ));
    }
    auth.confirm_password(ip, &session.user, current_password.to_owned())
        .await?;
    Ok(ConfirmedAdmin { user: session.user })
}

pub use crate::contract::admin::UserSummary;

/// Applies `action` to the account `user_id`, as `admin`.
pub async fn apply(
    pool: &SqlitePool,
    admin: &ConfirmedAdmin,
    user_id: i64,
    action: AccountAction,
) -> Result<(), AuthError> {
    let found = match action {
        AccountAction::Disable => set_disabled(pool, admin.user.id, user_id, true).await?,
        AccountAction::Enable => set_disabled(pool, admin.user.id, user_id, false).await?,
        AccountAction::ResetSecondFactor => reset_second_factor(pool, user_id).await?,
    };
    if !found {
        return Err(AuthError::NotFound(format!("no user {user_id}")));
    }
    match action {
        AccountAction::Disable => {
            tracing::info!(user = user_id, by = admin.user.id, "account disabled");
        }
        AccountAction::ResetSecondFactor => {
            tracing::info!(user = user_id, by = admin.user.id, "second factor reset");
        }
        AccountAction::Enable => {}
    }
    Ok(())
}

/// A one-time invitation (a plain user unless `role` says otherwise) and
/// its link, shown once.
pub async fn invite(
    auth: &Auth,
    admin: &ConfirmedAdmin,
    request: &Invite,
) -> Result<Invited, AuthError> {
    let made = invitations::create(
        &auth.pool,
        Some(admin.user.id),
        request.email.as_deref(),
        request.role.unwrap_or(Role::User),
    )
    .await?;
    Ok(Invited {
        link: auth.invitation_link(&made.token),
        invitation: made.invitation,
    })
}

/// Opens registration to anyone who can reach this Tally, or closes it.
pub async fn set_registration(
    pool: &SqlitePool,
    admin: &ConfirmedAdmin,
    open: bool,
) -> Result<(), AuthError> {
    invitations::set_open_registration(pool, open).await?;
    tracing::info!(open, by = admin.user.id, "registration changed");
    Ok(())
}

/// Withdraws a pending invitation.
pub async fn withdraw_invitation(pool: &SqlitePool, id: i64) -> Result<(), AuthError> {
    if invitations::revoke(pool, id).await? {
        Ok(())
    } else {
        Err(AuthError::NotFound(format!("no invitation {id}")))
    }
}

pub async fn list(pool: &SqlitePool) -> Result<Vec<UserSummary>, AuthError> {
    Ok(stored::users(pool).await?)
}

/// Disables or re-enables `user_id`. Disabling ends the user's sessions and
/// pending sign-ins at once (their API tokens stop working with it). An
/// administrator cannot disable their own account. False when no such user.
pub async fn set_disabled(
    pool: &SqlitePool,
    acting_admin: i64,
    user_id: i64,
    disabled: bool,
) -> Result<bool, AuthError> {
    if disabled && user_id == acting_admin {
        return Err(AuthError::field(
            "disabled",
            "you cannot disable your own account",
        ));
    }
    let mut tx = crate::backend::db::write(pool).await?;
    let found = stored::set_disabled(&mut tx, user_id, disabled).await?;
    tx.commit().await?;
    Ok(found)
}

/// Removes every second factor of `user_id` (TOTP, its recovery codes,
/// security keys), so they can sign in with their password and enrol again.
/// False when no such user.
pub async fn reset_second_factor(pool: &SqlitePool, user_id: i64) -> Result<bool, AuthError> {
    let mut tx = crate::backend::db::write(pool).await?;
    let found = stored::reset_second_factor(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(found)
}
