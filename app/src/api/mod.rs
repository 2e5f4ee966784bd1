//! The pages' server functions, one module per part of the app: thin
//! adapters onto the services in `backend`, returning contract types. Reads are
//! GET; writes are JSON through [`CsrfClient`], which attaches the CSRF
//! token (fetched once from `/api/auth/csrf-token` and kept in memory,
//! never in storage). Beside them, the browser's own side of a few things
//! (the bot-check widget, security-key ceremonies), which on the
//! server answer [`ApiFailure::Unavailable`].

use crate::contract::error::ErrorBody;
use crate::domain::validation::FieldViolation;

#[cfg(feature = "hydrate")]
mod csrf_token;

#[cfg(feature = "hydrate")]
mod browser_script;

#[cfg(feature = "hydrate")]
pub mod captcha;
#[cfg(not(feature = "hydrate"))]
#[path = "captcha_unavailable.rs"]
pub mod captcha;

#[cfg(feature = "hydrate")]
pub mod security_key;
#[cfg(not(feature = "hydrate"))]
#[path = "security_key_unavailable.rs"]
pub mod security_key;

#[cfg(feature = "ssr")]
pub mod page_csrf;
#[cfg(feature = "hydrate")]
#[path = "page_csrf_browser.rs"]
pub mod page_csrf;
#[cfg(not(any(feature = "ssr", feature = "hydrate")))]
#[path = "page_csrf_unavailable.rs"]
pub mod page_csrf;

#[cfg(feature = "ssr")]
pub mod signed_in_as;
#[cfg(feature = "hydrate")]
#[path = "signed_in_as_browser.rs"]
pub mod signed_in_as;
#[cfg(not(any(feature = "ssr", feature = "hydrate")))]
#[path = "signed_in_as_unavailable.rs"]
pub mod signed_in_as;

#[cfg(feature = "hydrate")]
pub mod time_zone;
#[cfg(not(feature = "hydrate"))]
#[path = "time_zone_unavailable.rs"]
pub mod time_zone;

#[cfg(feature = "hydrate")]
mod csrf_client;
#[cfg(not(feature = "hydrate"))]
#[path = "csrf_client_unavailable.rs"]
mod csrf_client;
pub use csrf_client::CsrfClient;

#[cfg(feature = "ssr")]
pub mod form_parts;
#[cfg(feature = "ssr")]
pub mod form_post;

pub mod account;
mod action_answers;
pub use action_answers::{each_answer, each_local_answer, refusal_in_address};
mod browser_resource;
mod page_resource;
pub use browser_resource::BrowserResource;
pub use page_resource::{page_resource, PageJson, PageResource};
pub mod admin;
pub mod admin_backups;
pub mod authentication;
pub mod bank;
pub mod bills;
pub mod contact;
pub mod data;
pub mod drift;
pub mod entrance;
pub mod history;
pub mod notifications;
pub mod operations;
pub mod personal_data;
pub mod profile;
pub mod security_keys;
pub mod session;
#[cfg(feature = "ssr")]
pub mod signed_in;
pub mod statements;
pub mod subscriptions;
pub mod tracker_act;

/// A page's data from a server function that takes no arguments, as a
/// blocking resource: the server waits for it and sends it with the page,
/// and a failure arrives as an [`ApiFailure`].
pub fn page_data<T, F, Fut>(load: F) -> PageResource<Result<T, ApiFailure>>
where
    T: serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<T, ErrorBody>> + Send + 'static,
{
    page_resource(
        || (),
        move |_| {
            let loading = load();
            async move { loading.await.map_err(ApiFailure::from) }
        },
    )
}

/// What went wrong with a call, in words for the person using the page.
/// Serializable, because a server-rendered resource sends its value (a
/// failure included) to the browser with the page.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ApiFailure {
    /// The server answered with an error; `field` names the input at fault.
    Answered {
        status: u16,
        message: String,
        field: Option<String>,
        /// Every field the server named, with what is wrong with it.
        violations: Vec<FieldViolation>,
    },
    /// The server could not be reached.
    Network(String),
    /// The browser or the security key refused a ceremony.
    Key(String),
    /// Not in a browser.
    Unavailable,
}

impl ApiFailure {
    /// The failure in words for the page: a field the server blamed goes
    /// by its label ("Amount: …"), never by its wire name.
    pub fn message(&self) -> String {
        match self {
            Self::Answered { violations, .. } if !violations.is_empty() => violations
                .iter()
                .map(
                    |violation| match crate::domain::field_label::label(&violation.field) {
                        Some(label) => format!("{label}: {}", violation.description),
                        None => violation.description.clone(),
                    },
                )
                .collect::<Vec<_>>()
                .join("; "),
            Self::Answered { message, .. } => message.clone(),
            Self::Network(message) => format!("cannot reach Tally: {message}"),
            Self::Key(message) => message.clone(),
            Self::Unavailable => "this needs JavaScript".to_owned(),
        }
    }

    /// The request field the server blamed, if any.
    pub fn field(&self) -> Option<String> {
        match self {
            Self::Answered { field, .. } => field.clone(),
            _ => None,
        }
    }

    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Answered { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// Reads an error response body into an [`ApiFailure`].
pub fn failure_from(status: u16, body: &str) -> ApiFailure {
    match serde_json::from_str::<ErrorBody>(body) {
        Ok(parsed) => {
            let violations = parsed.field_violations();
            ApiFailure::Answered {
                status,
                field: violations.first().map(|violation| violation.field.clone()),
                violations,
                message: parsed.error.message,
            }
        }
        Err(_) => ApiFailure::Answered {
            status,
            message: format!("the server answered {status}"),
            field: None,
            violations: Vec::new(),
        },
    }
}

/// A server function's failure: the same error body as REST's.
impl From<ErrorBody> for ApiFailure {
    fn from(body: ErrorBody) -> Self {
        let violations = body.field_violations();
        Self::Answered {
            status: body.error.code,
            field: violations.first().map(|violation| violation.field.clone()),
            violations,
            message: body.error.message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_error_reads_with_the_fields_label_not_its_wire_name() {
        let body = r#"{"error":{"code":400,"message":"amountMinor: use at most two digits","status":"INVALID_ARGUMENT",
            "details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"amountMinor","description":"use at most two digits"},{"field":"zzz","description":"no"}]}]}}"#;
        assert_eq!(
            failure_from(400, body).message(),
            "Amount: use at most two digits; no"
        );
    }

    #[test]
    fn field_errors_are_read_from_the_details() {
        let body = r#"{"error":{"code":400,"message":"email: enter an address","status":"INVALID_ARGUMENT",
            "details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"email","description":"enter an address"}]}]}}"#;
        let failure = failure_from(400, body);
        assert_eq!(
            failure,
            ApiFailure::Answered {
                status: 400,
                message: "email: enter an address".into(),
                field: Some("email".into()),
                violations: vec![FieldViolation {
                    field: "email".into(),
                    description: "enter an address".into()
                }],
            }
        );
        assert_eq!(
            failure_from(502, "<html>").message(),
            "the server answered 502"
        );
    }
}
