//! The public forms: a sales lead (`/contact`) and a support request
//! (`/support`). One set of rules, checked in the browser while the visitor
//! types and again by the server, which decides. Field names are the JSON
//! names (lowerCamelCase).

use serde::{Deserialize, Serialize};

use super::email::check_email;

pub const NAME_MAX: usize = 200;
pub const COMPANY_MAX: usize = 200;
pub const PHONE_MAX: usize = 40;
pub const SUBJECT_MAX: usize = 200;
pub const MESSAGE_MAX: usize = 5000;
pub const CAPTCHA_TOKEN_MAX: usize = 4096;

/// Support categories, as offered on the form.
pub const CATEGORIES: &[(&str, &str)] = &[
    ("question", "A question"),
    ("problem", "Something does not work"),
    ("billing", "Billing"),
    ("feature", "A feature request"),
    ("other", "Something else"),
];

/// One bad field and what to do about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldViolation {
    pub field: String,
    pub description: String,
}

fn violation(field: &str, description: impl Into<String>) -> FieldViolation {
    FieldViolation {
        field: field.to_owned(),
        description: description.into(),
    }
}

/// A sales lead as sent by the contact form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LeadForm {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub company: Option<String>,
    #[serde(default)]
    pub phone: Option<String>,
    #[serde(default)]
    pub captcha_token: Option<String>,
}

/// A support request as sent by the support form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SupportForm {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub subject: String,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub captcha_token: Option<String>,
}

/// A lead that passed the rules: trimmed, optional parts `None` when blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lead {
    pub name: String,
    pub email: String,
    pub message: String,
    pub company: Option<String>,
    pub phone: Option<String>,
}

/// A support request that passed the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SupportRequest {
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub category: Option<String>,
}

fn required(
    field: &str,
    value: &str,
    max: usize,
    problems: &mut Vec<FieldViolation>,
    what: &str,
) -> String {
    let value = value.trim();
    if value.is_empty() {
        problems.push(violation(field, format!("enter {what}")));
    } else if value.chars().count() > max {
        problems.push(violation(field, format!("use at most {max} characters")));
    }
    value.to_owned()
}

fn optional(
    field: &str,
    value: Option<&str>,
    max: usize,
    problems: &mut Vec<FieldViolation>,
) -> Option<String> {
    let value = value.map(str::trim).filter(|value| !value.is_empty())?;
    if value.chars().count() > max {
        problems.push(violation(field, format!("use at most {max} characters")));
    }
    Some(value.to_owned())
}

fn email(value: &str, problems: &mut Vec<FieldViolation>) -> String {
    match check_email(value) {
        Ok(email) => email,
        Err(problem) => {
            problems.push(violation("email", problem));
            value.trim().to_owned()
        }
    }
}

fn captcha(token: Option<&str>, problems: &mut Vec<FieldViolation>) {
    if token.is_some_and(|token| token.len() > CAPTCHA_TOKEN_MAX) {
        problems.push(violation("captchaToken", "the bot-check token is too long"));
    }
}

impl LeadForm {
    /// Every problem at once, so the form can mark each bad field.
    pub fn validate(&self) -> Result<Lead, Vec<FieldViolation>> {
        let mut problems = Vec::new();
        let name = required("name", &self.name, NAME_MAX, &mut problems, "your name");
        let email = email(&self.email, &mut problems);
        let message = required(
            "message",
            &self.message,
            MESSAGE_MAX,
            &mut problems,
            "a message",
        );
        let company = optional(
            "company",
            self.company.as_deref(),
            COMPANY_MAX,
            &mut problems,
        );
        let phone = optional("phone", self.phone.as_deref(), PHONE_MAX, &mut problems);
        if phone.as_deref().is_some_and(|phone| {
            !phone
                .chars()
                .all(|c| c.is_ascii_digit() || " +-().".contains(c))
                || phone.chars().filter(char::is_ascii_digit).count() < 5
        }) {
            problems.push(violation("phone", "use digits, spaces and + - ( ) only"));
        }
        captcha(self.captcha_token.as_deref(), &mut problems);
        if problems.is_empty() {
            Ok(Lead {
                name,
                email,
                message,
                company,
                phone,
            })
        } else {
            Err(problems)
        }
    }
}

impl SupportForm {
    pub fn validate(&self) -> Result<SupportRequest, Vec<FieldViolation>> {
        let mut problems = Vec::new();
        let name = required("name", &self.name, NAME_MAX, &mut problems, "your name");
        let email = email(&self.email, &mut problems);
        let subject = required(
            "subject",
            &self.subject,
            SUBJECT_MAX,
            &mut problems,
            "a subject",
        );
        let message = required(
            "message",
            &self.message,
            MESSAGE_MAX,
            &mut problems,
            "a message",
        );
        let category = optional("category", self.category.as_deref(), 50, &mut problems);
        if category
            .as_deref()
            .is_some_and(|category| !CATEGORIES.iter().any(|(key, _)| *key == category))
        {
            problems.push(violation("category", "choose one of the listed categories"));
        }
        captcha(self.captcha_token.as_deref(), &mut problems);
        if problems.is_empty() {
            Ok(SupportRequest {
                name,
                email,
                subject,
                message,
                category,
            })
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lead() -> LeadForm {
        LeadForm {
            name: " Ada ".into(),
            email: "ada@example.com".into(),
            message: "We track 40 bills a month.".into(),
            company: Some("  ".into()),
            phone: Some("+1 (555) 010-2000".into()),
            captcha_token: None,
        }
    }

    #[test]
    fn a_good_lead_is_trimmed_and_blank_optionals_dropped() {
        let valid = lead().validate().unwrap();
        assert_eq!(valid.name, "Ada");
        assert_eq!(valid.company, None);
        assert_eq!(valid.phone.as_deref(), Some("+1 (555) 010-2000"));
    }

    #[test]
    fn every_bad_field_is_named() {
        let bad = LeadForm {
            name: String::new(),
            email: "nope".into(),
            message: "x".repeat(MESSAGE_MAX + 1),
            company: None,
            phone: Some("call me".into()),
            captcha_token: None,
        };
        let fields: Vec<String> = bad
            .validate()
            .unwrap_err()
            .into_iter()
            .map(|v| v.field)
            .collect();
        assert_eq!(fields, ["name", "email", "message", "phone"]);
    }

    #[test]
    fn support_categories_are_the_listed_ones() {
        let mut form = SupportForm {
            name: "Ada".into(),
            email: "ada@example.com".into(),
            subject: "Export".into(),
            message: "CSV export has no header".into(),
            category: Some("problem".into()),
            captcha_token: None,
        };
        assert!(form.validate().is_ok());
        form.category = Some("urgent!!".into());
        let problems = form.validate().unwrap_err();
        assert_eq!(problems[0].field, "category");
    }

    #[test]
    fn unknown_json_fields_are_refused() {
        let parsed: Result<LeadForm, _> =
            serde_json::from_str(r#"{"name":"a","email":"a@b.co","message":"m","extra":1}"#);
        assert!(parsed.is_err());
    }
}
