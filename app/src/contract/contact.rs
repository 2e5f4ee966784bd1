//! The public forms (`/api/leads`, `/api/support`, `/api/contact/config`)
//! and what Admin sees of their submissions (`/api/admin/leads`,
//! `/api/admin/support-requests`, `/api/admin/crm…`). The form bodies
//! themselves are `domain::contact::{Lead, SupportRequest}`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `GET /api/contact/config`: whether the forms need the bot check, and the
/// provider's widget when they do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContactConfig {
    pub bot_check: bool,
    pub captcha_site_key: Option<String>,
    pub captcha_script_url: Option<String>,
}

/// The answer to a stored lead or support request (201).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Created {
    pub id: i64,
}

/// Where a submission stands with the CRM.
/// Which public form a submission came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SubmissionKind {
    Lead,
    Support,
}

impl SubmissionKind {
    /// As the wire spells it (`lead`, `support`), as a form posts it too.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Lead => "lead",
            Self::Support => "support",
        }
    }

    /// Its segment in `/api/admin/{leads|support-requests}`.
    pub fn path_segment(self) -> &'static str {
        match self {
            Self::Lead => "leads",
            Self::Support => "support-requests",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "ssr", derive(sqlx::Type))]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ssr", sqlx(rename_all = "lowercase"))]
pub enum CrmState {
    /// Waiting for (another) post.
    Pending,
    Sent,
    /// Gave up after the last attempt; Admin can send it again.
    Failed,
    /// No CRM was configured when it arrived.
    Skipped,
}

impl CrmState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Sent => "sent",
            Self::Failed => "failed",
            Self::Skipped => "skipped",
        }
    }
}

/// One submission as Admin lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Submission {
    pub id: i64,
    pub name: String,
    pub email: String,
    /// Company (leads) or subject (support requests).
    pub headline: Option<String>,
    pub message: String,
    pub crm_state: CrmState,
    pub crm_attempts: i64,
    pub crm_last_error: Option<String>,
    pub created_at: String,
}

/// A page of submissions, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SubmissionPage {
    pub items: Vec<Submission>,
    /// The `before` of the next page; `null` on the last.
    pub next_before: Option<i64>,
}

/// What Admin shows about the CRM.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CrmHealth {
    pub configured: bool,
    /// Set while posting is paused after "credits exhausted" (RFC 3339).
    pub paused_until: Option<String>,
    pub last_error: Option<String>,
    pub last_sent_at: Option<String>,
}

/// `GET /api/admin/crm`: the CRM's health and how many submissions are in
/// each state (states with none are left out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct CrmStatus {
    pub health: CrmHealth,
    pub counts: BTreeMap<CrmState, i64>,
}

/// The answer to re-sending failed posts: how many were queued again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Requeued {
    pub queued: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submission_kind_is_spelled_as_the_wire_spells_it() {
        for kind in [SubmissionKind::Lead, SubmissionKind::Support] {
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                serde_json::Value::from(kind.as_str())
            );
        }
    }
}
