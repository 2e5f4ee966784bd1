//! Taking a submission in, as both doors call it (`POST /api/leads` and
//! `/api/support`, and the contact and support pages' server functions):
//! the per-address rate limit, validation (every bad field named), the bot
//! check, one insert (committed with whatever else is waiting:
//! `group_commit`), and a nudge to the outbox, which posts it to the CRM in
//! the background after the visitor has their answer.

use std::net::IpAddr;

use super::bot_check::BotCheckError;
use super::group_commit::Submission;
use super::{Contact, ContactError};
use crate::contract::contact::{ContactConfig, Created};
use crate::domain::contact::{LeadForm, SupportForm};
use crate::domain::validation::FieldViolation;

/// What the forms need to know: whether the bot check is on, its site key
/// and the provider's script.
pub fn config(contact: &Contact) -> ContactConfig {
    ContactConfig {
        bot_check: contact.bot_check.site_key().is_some(),
        captcha_site_key: contact.bot_check.site_key().map(str::to_owned),
        captcha_script_url: contact.bot_check.script_url().map(str::to_owned),
    }
}

/// Refuses a client over its submission rate (leads and support together).
/// The REST door asks before it reads the body; the server functions, once
/// the body is decoded.
pub fn admit(contact: &Contact, ip: IpAddr) -> Result<(), ContactError> {
    contact
        .rate_limit
        .check(&crate::backend::limiter::ClientKey::of(ip))
        .map_err(|wait| ContactError::TooMany { retry_after: wait })
}

/// Stores a sales lead from an admitted client.
pub async fn lead(contact: &Contact, ip: IpAddr, form: LeadForm) -> Result<Created, ContactError> {
    let lead = form.validate().map_err(ContactError::Invalid)?;
    verify_bot(contact, form.captcha_token.as_deref(), ip).await?;
    let id = contact
        .submissions
        .store(Submission::Lead(lead), ip.to_string())
        .await?;
    contact.outbox.wake();
    tracing::info!(lead = id, "lead stored");
    Ok(Created { id })
}

/// Stores a support request from an admitted client.
pub async fn support(
    contact: &Contact,
    ip: IpAddr,
    form: SupportForm,
) -> Result<Created, ContactError> {
    let support = form.validate().map_err(ContactError::Invalid)?;
    verify_bot(contact, form.captcha_token.as_deref(), ip).await?;
    let id = contact
        .submissions
        .store(Submission::Support(support), ip.to_string())
        .await?;
    contact.outbox.wake();
    tracing::info!(support_request = id, "support request stored");
    Ok(Created { id })
}

async fn verify_bot(
    contact: &Contact,
    token: Option<&str>,
    ip: IpAddr,
) -> Result<(), ContactError> {
    contact
        .bot_check
        .verify(token, &ip.to_string())
        .await
        .map_err(|error| match error {
            BotCheckError::Missing | BotCheckError::Failed => {
                ContactError::Invalid(vec![FieldViolation::new("captchaToken", &error)])
            }
            BotCheckError::Unavailable => ContactError::BotCheckUnavailable(error.to_string()),
        })
}
