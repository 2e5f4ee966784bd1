//! The contact and support pages' server functions, over the same intake
//! service as `POST /api/leads` and `/api/support` (which stay the public
//! API for other clients): the bot check's settings (GET), and sending a
//! form as the page's `ActionForm` posts it (`form[…]` fields), with or
//! without JavaScript. Like `/api/leads`, they act for no account and
//! need no CSRF token; the rate limit and the bot check guard them.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use super::CsrfClient;
use crate::contract::contact::{ContactConfig, Created};
use crate::contract::error::ErrorBody;
use crate::domain::contact::{LeadForm, SupportForm};

/// Whether the bot check is on, and its site key and script.
#[server(prefix = "/api/fn", endpoint = "contact/config", input = GetUrl)]
pub async fn get_contact_config() -> Result<ContactConfig, ErrorBody> {
    let services = super::signed_in::services()?;
    Ok(crate::backend::contact::intake::config(&services.contact))
}

/// Sends the contact form: a sales lead. A post without JavaScript then
/// opens `/contact?sent=<id>`.
#[server(prefix = "/api/fn", endpoint = "contact/lead", client = CsrfClient)]
pub async fn send_lead(form: LeadForm) -> Result<Created, ErrorBody> {
    let (services, visitor) = super::signed_in::visitor().await?;
    crate::backend::contact::intake::admit(&services.contact, visitor.ip)?;
    let created =
        crate::backend::contact::intake::lead(&services.contact, visitor.ip, form).await?;
    super::form_post::then_open(&format!("/contact?sent={}", created.id));
    Ok(created)
}

/// Sends the support form. A post without JavaScript then opens
/// `/support?sent=<id>`.
#[server(prefix = "/api/fn", endpoint = "contact/support", client = CsrfClient)]
pub async fn send_support(form: SupportForm) -> Result<Created, ErrorBody> {
    let (services, visitor) = super::signed_in::visitor().await?;
    crate::backend::contact::intake::admit(&services.contact, visitor.ip)?;
    let created =
        crate::backend::contact::intake::support(&services.contact, visitor.ip, form).await?;
    super::form_post::then_open(&format!("/support?sent={}", created.id));
    Ok(created)
}
