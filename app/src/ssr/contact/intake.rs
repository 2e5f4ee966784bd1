//! Taking a submission in, as both doors call it (`POST /api/leads` and
//! `/api/support`, and the contact and support pages' server functions):
//! the per-address rate limit, validation (every bad field named), the bot
//! check, one insert (committed with whatever else is waiting:
//! `group_commit`), and a nudge to the outbox, which posts it to the CRM in
//! the background after the visitor has their answer.

use std::net::IpAddr;

use super::bot_check::BotCheckError;
use super::group_commit::Submission;
use super::ContactError;
use crate::contract::contact::{ContactConfig, Created};
use crate::domain::contact::{LeadForm, SupportForm};
use crate::domain::validation::FieldViolation;
use crate::ssr::services::Services;

/// What the forms need to know: whether the bot check is on, its site key
/// and the provider's script.
pub fn config(services: &Services) -> ContactConfig {
    ContactConfig {
        bot_check: services.bot_check.site_key().is_some(),
        captcha_site_key: services.bot_check.site_key().map(str::to_owned),
        captcha_script_url: services.bot_check.script_url().map(str::to_owned),
    }
}

/// Refuses a client over its submission rate (leads and support together).
/// The REST door asks before it reads the body; the server functions, once
/// the body is decoded.
pub fn admit(services: &Services, ip: IpAddr) -> Result<(), ContactError> {
    services
        .form_rate_limit
        .check(&crate::ssr::limiter::ClientKey::of(ip))
        .map_err(|wait| ContactError::TooMany { retry_after: wait })
}

/// Stores a sales lead from an admitted client.
pub async fn lead(
    services: &Services,
    ip: IpAddr,
    form: LeadForm,
) -> Result<Created, ContactError> {
    let lead = form.validate().map_err(ContactError::Invalid)?;
    verify_bot(services, form.captcha_token.as_deref(), ip).await?;
    let id = services
        .submissions
        .store(Submission::Lead(lead), ip.to_string())
        .await?;
    services.outbox.wake();
    tracing::info!(lead = id, "lead stored");
    Ok(Created { id })
}

/// Stores a support request from an admitted client.
pub async fn support(
    services: &Services,
    ip: IpAddr,
    form: SupportForm,
) -> Result<Created, ContactError> {
    let support = form.validate().map_err(ContactError::Invalid)?;
    verify_bot(services, form.captcha_token.as_deref(), ip).await?;
    let id = services
        .submissions
        .store(Submission::Support(support), ip.to_string())
        .await?;
    services.outbox.wake();
    tracing::info!(support_request = id, "support request stored");
    Ok(Created { id })
}

async fn verify_bot(
    services: &Services,
    token: Option<&str>,
    ip: IpAddr,
) -> Result<(), ContactError> {
    services
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
