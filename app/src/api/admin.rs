//! Admin's server functions, for administrators only, over the same
//! services as `/api/admin/…`: reads (GET) of the users, the pending
//! invitations and whether anyone may register; writes that change an
//! account, invite, withdraw an invitation and open or close registration
//! (forms that post without JavaScript too, through [`CsrfClient`] with
//! it); and the submissions of the public forms with their CRM state.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use super::CsrfClient;
use crate::contract::admin::{
    AccountChange, Invitation, Invite, Invited, RegistrationSetting, UserSummary,
};
use crate::contract::contact::{CrmStatus, Requeued, SubmissionKind, SubmissionPage};
use crate::contract::error::ErrorBody;
use crate::contract::two_factor::CurrentPassword;

/// Every account, for the users table.
#[server(prefix = "/api/fn", endpoint = "admin/users", input = GetUrl)]
pub async fn list_users() -> Result<Vec<UserSummary>, ErrorBody> {
    let admin = super::signed_in::as_declared::<ListUsers>().await?;
    Ok(crate::backend::auth::admin::list(admin.pool()).await?)
}

/// Invitations not yet used or expired.
#[server(prefix = "/api/fn", endpoint = "admin/invitations", input = GetUrl)]
pub async fn list_invitations() -> Result<Vec<Invitation>, ErrorBody> {
    let admin = super::signed_in::as_declared::<ListInvitations>().await?;
    Ok(crate::backend::auth::invitations::pending(admin.pool()).await?)
}

/// Whether registration is open to anyone.
#[server(prefix = "/api/fn", endpoint = "admin/registration", input = GetUrl)]
pub async fn get_registration() -> Result<RegistrationSetting, ErrorBody> {
    let admin = super::signed_in::as_declared::<GetRegistration>().await?;
    let open = crate::backend::auth::invitations::open_registration(admin.pool()).await?;
    Ok(RegistrationSetting { open })
}

/// Disables, enables or resets the second factor of an account, with the
/// administrator's password asked again: the users table's form as it
/// posts (the pressed button is `change[disable]=<id>` and so on). Answers
/// the table as it now stands.
#[server(prefix = "/api/fn", endpoint = "admin/change-account", client = CsrfClient)]
pub async fn change_account(
    change: Option<AccountChange>,
    confirm: CurrentPassword,
) -> Result<Vec<UserSummary>, ErrorBody> {
    // No button's field at all is a refusal naming it, as two are.
    let chosen = change.unwrap_or_default().chosen();
    let (user, action) = chosen.ok_or_else(|| {
        crate::domain::validation::FieldViolation::new(
            "change",
            "choose one account and what to do with it",
        )
    })?;
    let (services, admin) =
        super::signed_in::confirmed_administrator(&confirm.current_password).await?;
    let pool = &services.auth.pool;
    crate::backend::auth::admin::apply(pool, &admin, user, action).await?;
    Ok(crate::backend::auth::admin::list(pool).await?)
}

/// A one-time invitation and its link (shown once), with the
/// administrator's password asked again: the invitation form as it posts
/// (`request[email]`, `request[role]`, `request[currentPassword]`).
#[server(prefix = "/api/fn", endpoint = "admin/invite", client = CsrfClient)]
pub async fn invite_user(request: Invite) -> Result<Invited, ErrorBody> {
    let (services, admin) =
        super::signed_in::confirmed_administrator(&request.current_password).await?;
    Ok(crate::backend::auth::admin::invite(&services.auth, &admin, &request).await?)
}

/// Withdraws a pending invitation; answers the ones still open.
#[server(prefix = "/api/fn", endpoint = "admin/withdraw-invitation", client = CsrfClient)]
pub async fn withdraw_invitation(id: i64) -> Result<Vec<Invitation>, ErrorBody> {
    let admin = super::signed_in::as_declared::<WithdrawInvitation>().await?;
    crate::backend::auth::admin::withdraw_invitation(admin.pool(), id).await?;
    Ok(crate::backend::auth::invitations::pending(admin.pool()).await?)
}

/// Opens registration to anyone who can reach this Tally, or closes it,
/// with the administrator's password asked again: the registration form
/// as it posts (`open` is the checkbox, present when ticked).
#[server(prefix = "/api/fn", endpoint = "admin/set-registration", client = CsrfClient)]
pub async fn set_registration(
    open: Option<String>,
    confirm: CurrentPassword,
) -> Result<RegistrationSetting, ErrorBody> {
    let open = open.is_some();
    let (services, admin) =
        super::signed_in::confirmed_administrator(&confirm.current_password).await?;
    crate::backend::auth::admin::set_registration(&services.auth.pool, &admin, open).await?;
    Ok(RegistrationSetting { open })
}

/// One page of leads or support requests, newest first, below `before`.
#[server(prefix = "/api/fn", endpoint = "admin/submissions", input = GetUrl)]
pub async fn list_submissions(
    kind: SubmissionKind,
    search: String,
    before: Option<i64>,
) -> Result<SubmissionPage, ErrorBody> {
    let admin = super::signed_in::as_declared::<ListSubmissions>().await?;
    let search = (!search.trim().is_empty()).then_some(search.as_str());
    Ok(
        crate::backend::contact::review::page(&admin.services.contact, kind, search, None, before)
            .await?,
    )
}

/// The CRM's health and how many posts are in each state.
#[server(prefix = "/api/fn", endpoint = "admin/crm", input = GetUrl)]
pub async fn get_crm_status() -> Result<CrmStatus, ErrorBody> {
    let admin = super::signed_in::as_declared::<GetCrmStatus>().await?;
    Ok(crate::backend::contact::review::crm_status(&admin.services.contact).await?)
}

/// Queues one failed CRM post again (`id`), or every failed one (none).
/// Posted as a form: each failed row's Re-send, and "Re-send all failed".
#[server(prefix = "/api/fn", endpoint = "admin/resend", client = CsrfClient)]
pub async fn resend_submissions(
    kind: SubmissionKind,
    id: Option<i64>,
) -> Result<Requeued, ErrorBody> {
    use crate::backend::contact::review;
    let admin = super::signed_in::as_declared::<ResendSubmissions>().await?;
    Ok(match id {
        Some(id) => review::resend(&admin.services.contact, kind, id).await?,
        None => review::resend_all(&admin.services.contact).await?,
    })
}
