//! The CRM: Salesforce-style form posts. A lead goes to the Web-to-Lead
//! endpoint; a support request goes there too (so the person is in the CRM)
//! and, with cases enabled, to the Web-to-Case endpoint as well. The answer
//! is sorted into sent, credits exhausted (configurable status codes and/or
//! a marker in the body) or failed.

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};

/// How long one post may take.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// The CRM's settings (`CRM_*`). The org id is a credential of sorts: the
/// `Debug` below leaves it out.
#[derive(Clone)]
pub struct CrmConfig {
    pub lead_url: String,
    pub case_url: Option<String>,
    pub org_id: SecretString,
    pub cases_enabled: bool,
    /// Status codes that mean "credits exhausted".
    pub exhausted_statuses: Vec<u16>,
    /// Text in a response body that means "credits exhausted".
    pub exhausted_marker: Option<String>,
}

impl std::fmt::Debug for CrmConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrmConfig")
            .field("lead_url", &self.lead_url)
            .field("case_url", &self.case_url)
            .field("cases_enabled", &self.cases_enabled)
            .finish_non_exhaustive()
    }
}

/// What one post came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Posted {
    Sent,
    /// The CRM is out of credits: pause posting for a while.
    Exhausted(String),
    /// Anything else that went wrong: retry later.
    Failed(String),
}

/// A stored submission, as the CRM gets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub id: i64,
    pub name: String,
    pub email: String,
    /// Company (lead) or subject (support request).
    pub headline: Option<String>,
    pub phone: Option<String>,
    pub category: Option<String>,
    pub message: String,
    pub crm_attempts: i64,
}

pub struct Crm {
    config: CrmConfig,
    client: reqwest::Client,
}

/// "Ada Lovelace" → ("Ada", "Lovelace"); a single word is the last name,
/// which Web-to-Lead requires.
fn split_name(name: &str) -> (&str, &str) {
    match name.trim().rsplit_once(' ') {
        Some((first, last)) => (first.trim(), last.trim()),
        None => ("", name.trim()),
    }
}

impl Crm {
    pub fn new(config: CrmConfig) -> Self {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .build()
            .unwrap_or_default();
        Self { config, client }
    }

    /// Posts a lead (Web-to-Lead).
    pub async fn post_lead(&self, lead: &Outgoing) -> Posted {
        let (first, last) = split_name(&lead.name);
        let fields = [
            ("oid", self.config.org_id.expose_secret()),
            ("first_name", first),
            ("last_name", last),
            ("email", &lead.email),
            ("company", lead.headline.as_deref().unwrap_or("")),
            ("phone", lead.phone.as_deref().unwrap_or("")),
            ("description", &lead.message),
            ("lead_source", "Web"),
        ];
        self.post(&self.config.lead_url, &fields).await
    }

    /// Posts a support request: as a lead, then (when enabled) as a case.
    pub async fn post_support(&self, request: &Outgoing) -> Posted {
        let (first, last) = split_name(&request.name);
        let lead = [
            ("oid", self.config.org_id.expose_secret()),
            ("first_name", first),
            ("last_name", last),
            ("email", &request.email),
            ("description", &request.message),
            ("lead_source", "Support"),
        ];
        let posted = self.post(&self.config.lead_url, &lead).await;
        if posted != Posted::Sent || !self.config.cases_enabled {
            return posted;
        }
        let Some(case_url) = &self.config.case_url else {
            return Posted::Sent;
        };
        let case = [
            ("orgid", self.config.org_id.expose_secret()),
            ("name", request.name.as_str()),
            ("email", &request.email),
            ("subject", request.headline.as_deref().unwrap_or("")),
            ("type", request.category.as_deref().unwrap_or("")),
            ("description", &request.message),
            ("origin", "Web"),
        ];
        self.post(case_url, &case).await
    }

    async fn post(&self, url: &str, fields: &[(&str, &str)]) -> Posted {
        let answer = match self.client.post(url).form(fields).send().await {
            Ok(answer) => answer,
            Err(error) => return Posted::Failed(format!("CRM unreachable: {error}")),
        };
        let status = answer.status().as_u16();
        let body = answer.text().await.unwrap_or_default();
        self.classify(status, &body)
    }

    fn classify(&self, status: u16, body: &str) -> Posted {
        let marked = self
            .config
            .exhausted_marker
            .as_deref()
            .is_some_and(|marker| body.contains(marker));
        if marked || self.config.exhausted_statuses.contains(&status) {
            return Posted::Exhausted(format!("CRM credits exhausted (HTTP {status})"));
        }
        if (200..300).contains(&status) {
            Posted::Sent
        } else {
            let snippet: String = body.chars().take(200).collect();
            Posted::Failed(format!("CRM answered HTTP {status}: {snippet}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crm(marker: Option<&str>) -> Crm {
        Crm::new(CrmConfig {
            lead_url: "http://127.0.0.1:9/lead".into(),
            case_url: None,
            org_id: SecretString::from("00D"),
            cases_enabled: false,
            exhausted_statuses: vec![402],
            exhausted_marker: marker.map(str::to_owned),
        })
    }

    #[test]
    fn answers_are_sorted_into_sent_exhausted_and_failed() {
        let crm = crm(Some("REQUEST_LIMIT_EXCEEDED"));
        assert_eq!(crm.classify(200, "ok"), Posted::Sent);
        assert!(matches!(crm.classify(402, ""), Posted::Exhausted(_)));
        assert!(matches!(
            crm.classify(200, "error REQUEST_LIMIT_EXCEEDED"),
            Posted::Exhausted(_)
        ));
        assert!(
            matches!(crm.classify(500, "boom"), Posted::Failed(message) if message.contains("500"))
        );
    }

    #[test]
    fn names_split_into_first_and_last() {
        assert_eq!(split_name("Ada King Lovelace"), ("Ada King", "Lovelace"));
        assert_eq!(split_name("Plato"), ("", "Plato"));
    }
}
