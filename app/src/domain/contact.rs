//! The public forms: a sales lead (`/contact`) and a support request
//! (`/support`). One set of rules, checked in the browser while the visitor
//! types and again by the server, which decides. Field names are the JSON
//! names (lowerCamelCase).

use serde::{Deserialize, Serialize};

use super::email::check_email;
use super::text::{plain_text_problem, Lines};
use super::validation::FieldViolation;

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

fn violation(field: &str, description: impl Into<String>) -> FieldViolation {
    FieldViolation {
        field: field.to_owned(),
        description: description.into(),
    }
}

/// A sales lead as sent by the contact form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
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
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
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

/// A text field's length and characters; `value` is already trimmed.
fn check_text(
    field: &str,
    value: &str,
    max: usize,
    lines: Lines,
    problems: &mut Vec<FieldViolation>,
) {
    if value.chars().count() > max {
        problems.push(violation(field, format!("use at most {max} characters")));
    } else if let Some(problem) = plain_text_problem(value, lines) {
        problems.push(violation(field, problem));
    }
}

fn required(
    field: &str,
    value: &str,
    (max, lines): (usize, Lines),
    problems: &mut Vec<FieldViolation>,
    what: &str,
) -> String {
    let value = value.trim();
    if value.is_empty() {
        problems.push(violation(field, format!("enter {what}")));
    } else {
        check_text(field, value, max, lines, problems);
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
    check_text(field, value, max, Lines::One, problems);
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
        let name = required(
            "name",
            &self.name,
            (NAME_MAX, Lines::One),
            &mut problems,
            "your name",
        );
        let email = email(&self.email, &mut problems);
        let message = required(
            "message",
            &self.message,
            (MESSAGE_MAX, Lines::Many),
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
        let name = required(
            "name",
            &self.name,
            (NAME_MAX, Lines::One),
            &mut problems,
            "your name",
        );
        let email = email(&self.email, &mut problems);
        let subject = required(
            "subject",
            &self.subject,
            (SUBJECT_MAX, Lines::One),
            &mut problems,
            "a subject",
        );
        let message = required(
            "message",
            &self.message,
            (MESSAGE_MAX, Lines::Many),
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
    fn control_characters_are_named_and_line_breaks_kept_in_messages() {
        let mut form = lead();
        form.name = "a\u{0}b".into();
        form.company = Some("Acme\u{1b}[31m".into());
        form.message = "first line\r\nsecond\n\tindented".into();
        let fields: Vec<String> = form
            .validate()
            .unwrap_err()
            .into_iter()
            .map(|v| v.field)
            .collect();
        assert_eq!(fields, ["name", "company"]);
        form.name = "Ada".into();
        form.company = None;
        assert_eq!(
            form.validate().unwrap().message,
            "first line\r\nsecond\n\tindented"
        );
        let support = SupportForm {
            name: "Ada".into(),
            email: "ada@example.com".into(),
            subject: "two\nlines".into(),
            message: "bell\u{7}".into(),
            ..SupportForm::default()
        };
        let fields: Vec<String> = support
            .validate()
            .unwrap_err()
            .into_iter()
            .map(|v| v.field)
            .collect();
        assert_eq!(fields, ["subject", "message"]);
    }

    #[test]
    fn unknown_json_fields_are_refused() {
        let parsed: Result<LeadForm, _> =
            serde_json::from_str(r#"{"name":"a","email":"a@b.co","message":"m","extra":1}"#);
        assert!(parsed.is_err());
    }
}

#[cfg(test)]
mod proptests {
    use super::*;
    use crate::contract::preferences::UpdatePreferences;
    use crate::domain::bill::BillForm;
    use crate::small_stack::on_small_stack;
    use proptest::prelude::*;

    /// Text as a hostile client sends it: control characters, line breaks,
    /// very long runs, odd Unicode.
    fn hostile_text() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>(),
            "[\\x00-\\x1f\\x7f a=\\-@'\"\\\\]{0,50}",
            (1_usize..20_000).prop_map(|n| "x".repeat(n)),
            Just("\u{202e}\u{200b}\u{feff}".to_owned()),
            Just("a\r\nb\n\rc".to_owned()),
        ]
    }

    /// Whether a validated value is plain text (line breaks where allowed).
    fn plain(text: &str, many: bool) -> bool {
        let lines = if many {
            crate::domain::text::Lines::Many
        } else {
            crate::domain::text::Lines::One
        };
        crate::domain::text::plain_text_problem(text, lines).is_none()
    }

    /// JSON nested `depth` deep, in one of several shapes.
    fn nested_json(depth: usize, shape: u8) -> String {
        match shape % 4 {
            0 => format!("{}{}", "[".repeat(depth), "]".repeat(depth)),
            1 => format!("{}null{}", "{\"a\":".repeat(depth), "}".repeat(depth)),
            2 => format!("{{\"name\":{}1{}}}", "[".repeat(depth), "]".repeat(depth)),
            _ => format!(
                "{{\"unknown\":{}1{}}}",
                "[".repeat(depth),
                "]".repeat(depth)
            ),
        }
    }

    /// A request body type without `deny_unknown_fields`, as the server's
    /// smaller bodies are: serde skips unknown fields, deep ones included.
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Lenient {
        #[serde(default)]
        name: String,
    }

    /// Deserialises `text` as every main request body type.
    fn read_as_bodies(text: &str) {
        let _ = serde_json::from_str::<LeadForm>(text);
        let _ = serde_json::from_str::<SupportForm>(text);
        let _ = serde_json::from_str::<BillForm>(text);
        let _ = serde_json::from_str::<UpdatePreferences>(text);
        let _ = serde_json::from_str::<Lenient>(text);
        let _ = serde_json::from_str::<serde_json::Value>(text);
    }

    proptest! {
        #[test]
        fn forms_never_panic_and_pass_only_plain_text(
            name in hostile_text(),
            email in hostile_text(),
            message in hostile_text(),
            company in proptest::option::of(hostile_text()),
            subject in hostile_text(),
        ) {
            let lead = LeadForm {
                name: name.clone(),
                email: email.clone(),
                message: message.clone(),
                company,
                phone: None,
                captcha_token: None,
            };
            let support = SupportForm {
                name,
                email,
                subject,
                message,
                category: None,
                captcha_token: None,
            };
            let (lead, support) = on_small_stack(move || (lead.validate(), support.validate()));
            if let Ok(lead) = lead {
                prop_assert!(plain(&lead.name, false) && plain(&lead.message, true));
                prop_assert!(lead.company.as_deref().is_none_or(|c| plain(c, false)));
                prop_assert!(plain(&lead.email, false));
            }
            if let Ok(support) = support {
                prop_assert!(plain(&support.name, false) && plain(&support.subject, false));
                prop_assert!(plain(&support.message, true));
            }
        }

        #[test]
        fn bill_forms_never_panic_and_pass_only_plain_text(
            name in hostile_text(),
            category in hostile_text(),
            notes in hostile_text(),
            amount in any::<i64>(),
            due_day in any::<i64>(),
            interval in proptest::option::of(any::<i64>()),
            apr in proptest::option::of(any::<i64>()),
        ) {
            let form = BillForm {
                name,
                amount_minor: amount,
                cadence: "custom_days".into(),
                cadence_interval: interval,
                due_day,
                anchor_date: "2026-01-31".into(),
                category,
                notes,
                debt: apr.is_some(),
                balance_minor: Some(amount),
                apr_basis_points: apr,
                ..BillForm::default()
            };
            if let Ok(bill) = on_small_stack(move || form.validate()) {
                prop_assert!(plain(&bill.name, false) && plain(&bill.category, false));
                prop_assert!(plain(&bill.notes, true));
            }
        }

        /// serde_json stops at 128 levels; that holds on a small stack for
        /// every body type, the deepest and the skipped fields included.
        #[test]
        fn deeply_nested_json_bodies_are_refused_on_a_small_stack(
            depth in 0_usize..20_000,
            shape in any::<u8>(),
        ) {
            let text = nested_json(depth, shape);
            on_small_stack(move || read_as_bodies(&text));
        }

        #[test]
        fn random_json_bodies_never_panic(
            bytes in prop::collection::vec(
                prop_oneof![
                    prop::sample::select(b"{}[]\",:0-9eE.+-tfnul\\ ".to_vec()),
                    any::<u8>(),
                ],
                0..2000,
            ),
        ) {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            on_small_stack(move || read_as_bodies(&text));
        }
    }

    #[test]
    fn json_at_the_recursion_limit_reads_and_drops_on_a_small_stack() {
        on_small_stack(|| {
            let deepest = nested_json(127, 1);
            assert!(serde_json::from_str::<serde_json::Value>(&deepest).is_ok());
            for shape in 0..4 {
                read_as_bodies(&nested_json(127, shape));
                read_as_bodies(&nested_json(129, shape));
            }
            assert!(serde_json::from_str::<serde_json::Value>(&nested_json(129, 1)).is_err());
        });
    }
}
