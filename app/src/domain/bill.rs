//! A bill as created or edited: one set of rules for the form in the
//! browser and the API on the server. Amounts travel as integer minor units
//! (`amountMinor`), rates as basis points (`aprBasisPoints`, 1999 = 19.99 %);
//! the form turns what a person types into those with
//! [`super::money::parse_minor`].

use serde::{Deserialize, Serialize};

use super::cadence::Cadence;
use super::date::Date;
use super::money::{Currency, MAX_MINOR};
use super::text::{plain_text_problem, Lines};
use super::validation::FieldViolation;

pub const NAME_MAX: usize = 200;
pub const CATEGORY_MAX: usize = 60;
pub const NOTES_MAX: usize = 2000;
pub const REASON_MAX: usize = 500;
/// 1,000 % a year: beyond any real debt, inside the column's check.
pub const APR_MAX_BASIS_POINTS: i64 = 100_000;

/// The categories the forms offer (any other text is allowed too).
pub const CATEGORIES: &[&str] = &[
    "Housing",
    "Utilities",
    "Insurance",
    "Phone & internet",
    "Streaming",
    "Software",
    "Transport",
    "Loans",
    "Credit cards",
    "Health",
    "Other",
];

/// What a client sends to create or replace a bill.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BillForm {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub amount_minor: i64,
    /// ISO 4217; USD when empty.
    #[serde(default)]
    pub currency: String,
    /// `weekly`, `biweekly`, `monthly`, `quarterly`, `yearly`,
    /// `custom_days`, `custom_months`.
    #[serde(default)]
    pub cadence: String,
    /// N of "every N days/months"; 1 otherwise.
    #[serde(default)]
    pub cadence_interval: Option<i64>,
    #[serde(default)]
    pub due_day: i64,
    /// The first due date (`YYYY-MM-DD`).
    #[serde(default)]
    pub anchor_date: String,
    #[serde(default)]
    pub category: String,
    #[serde(default)]
    pub notes: String,
    #[serde(default)]
    pub autopay: bool,
    #[serde(default)]
    pub subscription: bool,
    #[serde(default)]
    pub debt: bool,
    #[serde(default)]
    pub balance_minor: Option<i64>,
    #[serde(default)]
    pub apr_basis_points: Option<i64>,
    #[serde(default)]
    pub minimum_payment_minor: Option<i64>,
    #[serde(default)]
    pub catalog_id: Option<i64>,
}

/// A debt's extra fields, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebtTerms {
    pub balance_minor: i64,
    pub apr_basis_points: i64,
    pub minimum_payment_minor: Option<i64>,
}

/// A bill that passed every rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidBill {
    pub name: String,
    pub amount_minor: i64,
    pub currency: Currency,
    pub cadence: Cadence,
    pub due_day: u8,
    pub anchor: Date,
    pub category: String,
    pub notes: String,
    pub autopay: bool,
    pub subscription: bool,
    pub debt: Option<DebtTerms>,
    pub catalog_id: Option<i64>,
}

fn violation(field: &str, description: impl Into<String>) -> FieldViolation {
    FieldViolation {
        field: field.to_owned(),
        description: description.into(),
    }
}

fn check_minor(field: &str, value: i64, problems: &mut Vec<FieldViolation>) {
    if value < 0 {
        problems.push(violation(field, "the amount cannot be negative"));
    } else if value > MAX_MINOR {
        problems.push(violation(field, "that amount is too large"));
    }
}

impl BillForm {
    /// Every rule, every bad field named.
    pub fn validate(&self) -> Result<ValidBill, Vec<FieldViolation>> {
        let mut problems = Vec::new();
        let name = self.name.trim();
        if name.is_empty() {
            problems.push(violation("name", "enter a name"));
        } else if name.chars().count() > NAME_MAX {
            problems.push(violation(
                "name",
                format!("use at most {NAME_MAX} characters"),
            ));
        } else if let Some(problem) = plain_text_problem(name, Lines::One) {
            problems.push(violation("name", problem));
        }
        check_minor("amountMinor", self.amount_minor, &mut problems);
        let currency = if self.currency.trim().is_empty() {
            Some(Currency::USD)
        } else {
            match Currency::parse(&self.currency) {
                Ok(currency) => Some(currency),
                Err(error) => {
                    problems.push(violation("currency", error.to_string()));
                    None
                }
            }
        };
        let cadence = match Cadence::parse(&self.cadence, self.cadence_interval.unwrap_or(1)) {
            Ok(cadence) => Some(cadence),
            Err(error) => {
                let field = if matches!(error, super::cadence::CadenceError::Interval) {
                    "cadenceInterval"
                } else {
                    "cadence"
                };
                problems.push(violation(field, error.to_string()));
                None
            }
        };
        let due_day = u8::try_from(self.due_day)
            .ok()
            .filter(|day| (1..=31).contains(day));
        if due_day.is_none() {
            problems.push(violation(
                "dueDay",
                "choose a day of the month from 1 to 31",
            ));
        }
        let anchor = match Date::parse(self.anchor_date.trim()) {
            Ok(date) => Some(date),
            Err(_) => {
                problems.push(violation(
                    "anchorDate",
                    "enter the first due date, like 2026-01-31",
                ));
                None
            }
        };
        let category = self.category.trim();
        if category.chars().count() > CATEGORY_MAX {
            problems.push(violation(
                "category",
                format!("use at most {CATEGORY_MAX} characters"),
            ));
        } else if let Some(problem) = plain_text_problem(category, Lines::One) {
            problems.push(violation("category", problem));
        }
        if self.notes.chars().count() > NOTES_MAX {
            problems.push(violation(
                "notes",
                format!("use at most {NOTES_MAX} characters"),
            ));
        } else if let Some(problem) = plain_text_problem(&self.notes, Lines::Many) {
            problems.push(violation("notes", problem));
        }
        let debt = if self.debt {
            let balance = self.balance_minor.unwrap_or(-1);
            if self.balance_minor.is_none() {
                problems.push(violation("balanceMinor", "enter what is still owed"));
            } else {
                check_minor("balanceMinor", balance, &mut problems);
            }
            let apr = self.apr_basis_points.unwrap_or(0);
            if !(0..=APR_MAX_BASIS_POINTS).contains(&apr) {
                problems.push(violation(
                    "aprBasisPoints",
                    "enter a yearly rate from 0 % to 1,000 %",
                ));
            }
            if let Some(minimum) = self.minimum_payment_minor {
                check_minor("minimumPaymentMinor", minimum, &mut problems);
            }
            Some(DebtTerms {
                balance_minor: balance,
                apr_basis_points: apr,
                minimum_payment_minor: self.minimum_payment_minor,
            })
        } else {
            None
        };
        match (currency, cadence, due_day, anchor) {
            (Some(currency), Some(cadence), Some(due_day), Some(anchor)) if problems.is_empty() => {
                Ok(ValidBill {
                    name: name.to_owned(),
                    amount_minor: self.amount_minor,
                    currency,
                    cadence,
                    due_day,
                    anchor,
                    category: if category.is_empty() {
                        "Other".to_owned()
                    } else {
                        category.to_owned()
                    },
                    notes: self.notes.clone(),
                    autopay: self.autopay,
                    subscription: self.subscription,
                    debt,
                    catalog_id: self.catalog_id,
                })
            }
            _ => Err(problems),
        }
    }
}

/// A month of payments on a debt until it is paid off: (month number,
/// balance after the payment), at most 600 months. Empty when the payment
/// does not cover the interest (the debt would never be paid off).
pub fn payoff_schedule(
    balance_minor: i64,
    apr_basis_points: i64,
    payment_minor: i64,
) -> Vec<(u32, i64)> {
    let mut balance = balance_minor;
    let mut schedule = Vec::new();
    for month in 1..=600 {
        if balance <= 0 {
            break;
        }
        let interest = super::interest::monthly_interest(balance, apr_basis_points);
        if payment_minor <= interest {
            return Vec::new();
        }
        balance = (balance + interest - payment_minor).max(0);
        schedule.push((month, balance));
    }
    schedule
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> BillForm {
        BillForm {
            name: "Rent".into(),
            amount_minor: 150_000,
            cadence: "monthly".into(),
            due_day: 1,
            anchor_date: "2026-12-01".into(),
            ..BillForm::default()
        }
    }

    #[test]
    fn a_good_bill_passes_with_defaults() {
        let bill = good().validate().unwrap();
        assert_eq!(bill.currency, Currency::USD);
        assert_eq!(bill.category, "Other");
        assert_eq!(bill.cadence, Cadence::Monthly);
        assert!(bill.debt.is_none());
    }

    #[test]
    fn every_bad_field_is_named() {
        let form = BillForm {
            name: " ".into(),
            amount_minor: -1,
            currency: "dollars".into(),
            cadence: "custom_days".into(),
            cadence_interval: Some(0),
            due_day: 32,
            anchor_date: "tomorrow".into(),
            debt: true,
            apr_basis_points: Some(-5),
            ..BillForm::default()
        };
        let fields: Vec<String> = form
            .validate()
            .unwrap_err()
            .into_iter()
            .map(|v| v.field)
            .collect();
        assert_eq!(
            fields,
            [
                "name",
                "amountMinor",
                "currency",
                "cadenceInterval",
                "dueDay",
                "anchorDate",
                "balanceMinor",
                "aprBasisPoints"
            ]
        );
    }

    #[test]
    fn a_payoff_schedule_ends_at_zero_or_says_never() {
        let schedule = payoff_schedule(100_000, 1200, 10_000);
        assert_eq!(schedule.last().unwrap().1, 0);
        assert_eq!(schedule.len(), 11);
        assert!(
            payoff_schedule(100_000, 1200, 1000).is_empty(),
            "1000 only covers the interest"
        );
    }
}
