//! A bill as a person typed it into the form: every field text, as the
//! browser posts it (with or without JavaScript). [`BillInput::to_form`]
//! turns it into the [`BillForm`] the API takes (amounts in minor units,
//! the rate in basis points) and checks it with the same rules, so the
//! browser's check before sending and the server's after it are one.

use serde::{Deserialize, Serialize};

use super::bill::BillForm;
use super::date::Date;
use super::money::{parse_minor, Currency};
use super::validation::FieldViolation;

/// The form's fields as typed. A checkbox is present (`"on"`) when ticked.
/// `kept_anchor` and `kept_due_day` carry an edited bill's first due date
/// and due day as stored: a bill kept from before with a due day other
/// than its first due date's keeps it until that date changes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BillInput {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub amount: String,
    #[serde(default)]
    pub currency: String,
    #[serde(default)]
    pub cadence: String,
    #[serde(default)]
    pub cadence_interval: String,
    #[serde(default)]
    pub anchor_date: String,
    #[serde(default)]
    pub kept_anchor: Option<String>,
    #[serde(default)]
    pub kept_due_day: Option<String>,
    #[serde(default)]
    pub category: String,
    #[serde(default)]
    pub notes: String,
    #[serde(default)]
    pub autopay: Option<String>,
    #[serde(default)]
    pub subscription: Option<String>,
    #[serde(default)]
    pub debt: Option<String>,
    #[serde(default)]
    pub balance: String,
    #[serde(default)]
    pub apr: String,
    #[serde(default)]
    pub minimum_payment: String,
    /// The catalog service as typed ("Netflix (Streaming)").
    #[serde(default)]
    pub catalog: String,
    /// The service the page already linked (the browser keeps it while
    /// the text names it); wins over `catalog`.
    #[serde(default)]
    pub catalog_id: Option<String>,
}

/// A ticked checkbox: present and not `"false"` (what a script may send).
fn ticked(field: &Option<String>) -> bool {
    field.as_deref().is_some_and(|value| value != "false")
}

fn typed(field: &str, text: &str, digits: u8, problems: &mut Vec<FieldViolation>) -> Option<i64> {
    match parse_minor(text, digits) {
        Ok(minor) => Some(minor),
        Err(error) => {
            problems.push(FieldViolation::new(field, error));
            None
        }
    }
}

fn optional(
    field: &str,
    text: &str,
    digits: u8,
    problems: &mut Vec<FieldViolation>,
) -> Option<i64> {
    if text.trim().is_empty() {
        None
    } else {
        typed(field, text, digits, problems)
    }
}

impl BillInput {
    pub fn is_subscription(&self) -> bool {
        ticked(&self.subscription)
    }

    pub fn is_debt(&self) -> bool {
        ticked(&self.debt)
    }

    /// The bill to store, or every field at fault (named as the API names
    /// them: `amountMinor`, `catalogId`, …). `find_service` looks a typed
    /// catalog text up (its label, or a name only one service has).
    pub fn to_form(
        &self,
        find_service: impl Fn(&str) -> Option<i64>,
    ) -> Result<BillForm, Vec<FieldViolation>> {
        let digits = Currency::parse(&self.currency).map_or(2, |c| c.digits());
        let mut problems = Vec::new();
        let amount_minor = typed("amountMinor", &self.amount, digits, &mut problems);
        let debt = self.is_debt();
        let (balance_minor, apr_basis_points, minimum_payment_minor) = if debt {
            (
                optional("balanceMinor", &self.balance, digits, &mut problems),
                optional("aprBasisPoints", &self.apr, 2, &mut problems),
                optional(
                    "minimumPaymentMinor",
                    &self.minimum_payment,
                    digits,
                    &mut problems,
                ),
            )
        } else {
            (None, None, None)
        };
        let subscription = self.is_subscription();
        let catalog_text = self.catalog.trim();
        let catalog_id = if !subscription {
            None
        } else if let Some(id) = self
            .catalog_id
            .as_deref()
            .and_then(|id| id.trim().parse().ok())
        {
            Some(id)
        } else if catalog_text.is_empty() {
            None
        } else {
            let found = find_service(catalog_text);
            if found.is_none() {
                problems.push(FieldViolation::new(
                    "catalogId",
                    "choose a service from the list, or leave it empty",
                ));
            }
            found
        };
        let anchor = self.anchor_date.trim();
        let kept_due_day = self
            .kept_due_day
            .as_deref()
            .and_then(|day| day.trim().parse().ok());
        let due_day = match kept_due_day {
            Some(day) if self.kept_anchor.as_deref().map(str::trim) == Some(anchor) => day,
            _ => Date::parse(anchor).map_or(0, |date| i64::from(date.day())),
        };
        let form = BillForm {
            name: self.name.clone(),
            amount_minor: amount_minor.unwrap_or(0),
            currency: self.currency.trim().to_owned(),
            cadence: self.cadence.trim().to_owned(),
            cadence_interval: self.cadence_interval.trim().parse().ok(),
            due_day,
            anchor_date: anchor.to_owned(),
            category: self.category.clone(),
            notes: self.notes.clone(),
            autopay: ticked(&self.autopay),
            subscription,
            debt,
            balance_minor,
            apr_basis_points,
            minimum_payment_minor,
            catalog_id,
        };
        if let Err(more) = form.validate() {
            for violation in more {
                if !problems.iter().any(|p| p.field == violation.field) {
                    problems.push(violation);
                }
            }
        }
        if problems.is_empty() {
            Ok(form)
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn water() -> BillInput {
        BillInput {
            name: "Water".into(),
            amount: "42.50".into(),
            currency: "USD".into(),
            cadence: "monthly".into(),
            cadence_interval: "1".into(),
            anchor_date: "2026-11-27".into(),
            category: "Utilities".into(),
            ..BillInput::default()
        }
    }

    fn fields(problems: Vec<FieldViolation>) -> Vec<String> {
        problems.into_iter().map(|p| p.field).collect()
    }

    #[test]
    fn typed_amounts_become_minor_units_and_the_due_day_follows_the_first_due_date() {
        let form = water().to_form(|_| None).unwrap();
        assert_eq!(form.amount_minor, 4250);
        assert_eq!(form.due_day, 27);
        assert_eq!(form.anchor_date, "2026-11-27");
        assert!(!form.autopay && !form.debt && !form.subscription);
        assert_eq!(form.balance_minor, None);
    }

    #[test]
    fn every_field_at_fault_is_named_as_the_api_names_it() {
        let bad = BillInput {
            name: " ".into(),
            amount: "42.505".into(),
            debt: Some("on".into()),
            balance: "lots".into(),
            ..water()
        };
        let problems = bad.to_form(|_| None).unwrap_err();
        let amount = problems.iter().find(|p| p.field == "amountMinor").unwrap();
        assert_eq!(
            amount.description,
            "use at most 2 digits after the decimal point"
        );
        let named = fields(problems);
        assert!(named.contains(&"name".to_owned()), "{named:?}");
        assert!(named.contains(&"balanceMinor".to_owned()), "{named:?}");
        assert_eq!(named.iter().filter(|f| *f == "amountMinor").count(), 1);
    }

    #[test]
    fn a_debts_fields_count_only_when_it_is_a_debt() {
        let unticked = BillInput {
            balance: "not a number".into(),
            ..water()
        };
        assert_eq!(unticked.to_form(|_| None).unwrap().balance_minor, None);
        let debt = BillInput {
            debt: Some("on".into()),
            balance: "1,200.00".into(),
            apr: "19.99".into(),
            ..water()
        };
        let form = debt.to_form(|_| None).unwrap();
        assert!(form.debt);
        assert_eq!(form.balance_minor, Some(120_000));
        assert_eq!(form.apr_basis_points, Some(1999));
    }

    #[test]
    fn a_typed_service_is_looked_up_and_an_unknown_one_is_refused() {
        let netflix = |text: &str| (text == "Netflix (Streaming)").then_some(7);
        let linked = BillInput {
            subscription: Some("on".into()),
            catalog: "Netflix (Streaming)".into(),
            ..water()
        };
        assert_eq!(linked.to_form(netflix).unwrap().catalog_id, Some(7));
        let unknown = BillInput {
            catalog: "Netfl".into(),
            ..linked.clone()
        };
        assert_eq!(fields(unknown.to_form(netflix).unwrap_err()), ["catalogId"]);
        // The page's own link wins; no subscription, no link.
        let kept = BillInput {
            catalog_id: Some("9".into()),
            ..unknown.clone()
        };
        assert_eq!(kept.to_form(netflix).unwrap().catalog_id, Some(9));
        let not_subscription = BillInput {
            subscription: None,
            ..unknown
        };
        assert_eq!(not_subscription.to_form(netflix).unwrap().catalog_id, None);
    }

    #[test]
    fn an_edited_bill_keeps_its_due_day_until_its_first_due_date_changes() {
        let kept = BillInput {
            kept_anchor: Some("2026-11-27".into()),
            kept_due_day: Some("3".into()),
            ..water()
        };
        assert_eq!(kept.to_form(|_| None).unwrap().due_day, 3);
        let moved = BillInput {
            anchor_date: "2026-12-09".into(),
            ..kept
        };
        assert_eq!(moved.to_form(|_| None).unwrap().due_day, 9);
    }
}
