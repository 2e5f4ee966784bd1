//! The rules of Tally's own forms, held to every row a personal import
//! would copy (pure). A file is anybody's edit: a name of a million
//! characters, a negative amount, "tomorrow" as a date or a cadence no
//! Tally knows would land in the account as they are, where the schema's
//! checks stop none of them (SQLite compares text above every number, and
//! checks no date). So before anything is attached or written, each row is
//! read and put through the very checks the forms run
//! (`BillForm::validate`, `bill_month::check`, the payment rule,
//! `notification`'s bounds, the text rule), with their constants, so the
//! import cannot drift from the forms. A refusal names the rows and the
//! rule, never a row's id.
//!
//! Rows that no form writes (bank accounts and transactions come from the
//! bank or a statement file) are held to their shape: text where text
//! belongs, whole numbers within the amounts Tally handles, flags 0 or 1.
//! Enumerations without a type of their own (a payment's kind, a
//! transaction's match) stay with the schema's checks, which refuse the
//! whole file at the copy.

use crate::backend::bills::payment_problem;
use crate::backend::subscriptions::{feedback, own_descriptors};
use crate::domain::bill::{BillForm, REASON_MAX};
use crate::domain::bill_month::{self, MonthOverride};
use crate::domain::date::{Date, YearMonth};
use crate::domain::field_label;
use crate::domain::money::MAX_MINOR;
use crate::domain::notification::{check_lead_days, check_overdue_repeat, SettingProblem};
use crate::domain::text::{plain_text_problem, Lines};
use crate::domain::validation::FieldViolation;

/// One value of a row, as the file holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell<'a> {
    Null,
    Integer(i64),
    Text(&'a str),
    /// A real number, a blob, or text that is not UTF-8: nothing a form
    /// writes.
    Other,
}

/// The rules one table's rows are held to.
pub struct FormRules {
    pub table: &'static str,
    /// The rows in words, plural ("bills").
    pub rows: &'static str,
    /// Where a person writes them ("the bill form").
    pub form: &'static str,
    /// The columns `check` reads, in its order.
    pub columns: &'static [&'static str],
    /// The first rule a row breaks, as the field (its API name, or words)
    /// and what the form says.
    pub check: fn(&[Cell<'_>]) -> Result<(), FieldViolation>,
}

impl FormRules {
    /// The rows of the file's account (those the import copies) with the
    /// columns `check` reads, on the file opened alone.
    pub fn rows_sql(&self) -> String {
        format!(
            "SELECT {} FROM {} WHERE user_id = (SELECT id FROM users)",
            self.columns.join(", "),
            self.table,
        )
    }

    /// The refusal in words: the rows, the field as a page labels it, and
    /// the rule.
    pub fn refusal(&self, broken: &FieldViolation) -> String {
        let field = field_label::label(&broken.field).unwrap_or(broken.field.as_str());
        format!(
            "one of its {} breaks a rule of {} ({field}: {}), so nothing was imported",
            self.rows, self.form, broken.description,
        )
    }
}

/// Every table with rules, in the order the import copies them.
pub const CHECKED: &[FormRules] = &[
    FormRules {
        table: "settings",
        rows: "settings",
        form: "the settings",
        columns: &["key", "value"],
        check: setting,
    },
    FormRules {
        table: "notification_preferences",
        rows: "reminder settings",
        form: "the reminder settings",
        columns: &[
            "lead_days",
            "digest",
            "include_verified_autopay",
            "overdue_repeat_days",
            "started_on",
        ],
        check: reminder_settings,
    },
    FormRules {
        table: "bills",
        rows: "bills",
        form: "the bill form",
        columns: &[
            "name",
            "amount_cents",
            "currency",
            "cadence",
            "cadence_interval",
            "due_day",
            "anchor_date",
            "category",
            "notes",
            "is_debt",
            "balance_cents",
            "apr_basis_points",
            "minimum_payment_cents",
            "autopay",
            "is_subscription",
            "active",
            "inactive_reason",
            "interest_accrued_month",
        ],
        check: bill,
    },
    FormRules {
        table: "bill_months",
        rows: "this-time changes",
        form: "the this-time form",
        columns: &[
            "occurrence",
            "amount_cents",
            "skipped",
            "snoozed_to",
            "note",
        ],
        check: month_change,
    },
    FormRules {
        table: "drift_dismissals",
        rows: "dismissed price changes",
        form: "the price drift notice",
        columns: &["median_cents", "until"],
        check: drift_dismissal,
    },
    FormRules {
        table: "merchant_rules",
        rows: "payee rules",
        form: "the bank matching",
        columns: &["merchant"],
        check: merchant_rule,
    },
    FormRules {
        table: "user_catalog_descriptors",
        rows: "taught statement descriptors",
        form: "the descriptor form",
        columns: &["descriptor", "normalized"],
        check: descriptor,
    },
    FormRules {
        table: "subscription_recommendation_feedback",
        rows: "answers to subscription suggestions",
        form: "the suggestion forms",
        columns: &[
            "merchant_key",
            "action",
            "amount_cents",
            "currency",
            "reason",
        ],
        check: suggestion_answer,
    },
    FormRules {
        table: "bank_connections",
        rows: "bank connections",
        form: "the bank connection",
        columns: &["provider", "institution"],
        check: bank_connection,
    },
    FormRules {
        table: "bank_accounts",
        rows: "bank accounts",
        form: "the bank account",
        columns: &[
            "provider_account_id",
            "name",
            "currency",
            "balance_cents",
            "balance_date",
            "monitored",
            "available_cents",
        ],
        check: bank_account,
    },
    FormRules {
        table: "transactions",
        rows: "bank transactions",
        form: "the bank transaction",
        columns: &[
            "provider_transaction_id",
            "posted_at",
            "amount_cents",
            "description",
            "payee",
            "memo",
            "pending",
            "matched_by",
        ],
        check: transaction,
    },
    FormRules {
        table: "payments",
        rows: "payments",
        form: "the payment form",
        columns: &[
            "amount_cents",
            "paid_on",
            "method",
            "interest_delta",
            "autopay_failure",
            "for_occurrence",
        ],
        check: payment,
    },
];

fn broken(field: &str, rule: impl std::fmt::Display) -> FieldViolation {
    FieldViolation::new(field, rule)
}

/// The first of a form's violations.
fn first(violations: Vec<FieldViolation>) -> FieldViolation {
    violations
        .into_iter()
        .next()
        .unwrap_or_else(|| broken("its values", "they do not fit together"))
}

fn setting_problem(problem: SettingProblem) -> FieldViolation {
    broken(problem.field, problem.description)
}

/// The row does not have the columns this check reads (never, with
/// [`FormRules::rows_sql`]).
fn shape() -> FieldViolation {
    broken("its columns", "they are not the ones this Tally reads")
}

fn text<'a>(field: &str, cell: Cell<'a>) -> Result<&'a str, FieldViolation> {
    match cell {
        Cell::Text(text) => Ok(text),
        _ => Err(broken(field, "it is not text")),
    }
}

fn optional_text<'a>(field: &str, cell: Cell<'a>) -> Result<Option<&'a str>, FieldViolation> {
    match cell {
        Cell::Null => Ok(None),
        other => text(field, other).map(Some),
    }
}

fn integer(field: &str, cell: Cell<'_>) -> Result<i64, FieldViolation> {
    match cell {
        Cell::Integer(value) => Ok(value),
        _ => Err(broken(field, "it is not a whole number")),
    }
}

fn optional_integer(field: &str, cell: Cell<'_>) -> Result<Option<i64>, FieldViolation> {
    match cell {
        Cell::Null => Ok(None),
        other => integer(field, other).map(Some),
    }
}

fn flag(field: &str, cell: Cell<'_>) -> Result<bool, FieldViolation> {
    match cell {
        Cell::Integer(0) => Ok(false),
        Cell::Integer(1) => Ok(true),
        _ => Err(broken(field, "it is neither 1 (yes) nor 0 (no)")),
    }
}

/// An amount of minor units as the forms take one: from 0 up to
/// [`MAX_MINOR`], in the bill form's words.
fn amount(field: &str, cell: Cell<'_>) -> Result<i64, FieldViolation> {
    let value = integer(field, cell)?;
    if value < 0 {
        return Err(broken(field, "the amount cannot be negative"));
    }
    within_max(field, value)
}

/// An amount that may be money out (a bank transaction, a balance owed).
fn signed_amount(field: &str, cell: Cell<'_>) -> Result<i64, FieldViolation> {
    within_max(field, integer(field, cell)?)
}

fn optional_signed_amount(field: &str, cell: Cell<'_>) -> Result<(), FieldViolation> {
    match cell {
        Cell::Null => Ok(()),
        other => signed_amount(field, other).map(|_| ()),
    }
}

fn within_max(field: &str, value: i64) -> Result<i64, FieldViolation> {
    if value.checked_abs().is_none_or(|size| size > MAX_MINOR) {
        return Err(broken(field, "that amount is too large"));
    }
    Ok(value)
}

fn date(field: &str, cell: Cell<'_>) -> Result<Date, FieldViolation> {
    Date::parse(text(field, cell)?).map_err(|_| broken(field, "enter a date like 2026-01-31"))
}

fn optional_date(field: &str, cell: Cell<'_>) -> Result<Option<Date>, FieldViolation> {
    match cell {
        Cell::Null => Ok(None),
        other => date(field, other).map(Some),
    }
}

/// Text as the forms keep it: trimmed, at most `max` characters, with no
/// control character (and no line break where `lines` is one).
fn plain(field: &str, value: &str, max: usize, lines: Lines) -> Result<(), FieldViolation> {
    let value = value.trim();
    if value.chars().count() > max {
        return Err(broken(field, format!("use at most {max} characters")));
    }
    match plain_text_problem(value, lines) {
        Some(problem) => Err(broken(field, problem)),
        None => Ok(()),
    }
}

fn setting(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [key, value] = cells else {
        return Err(shape());
    };
    text("key", *key)?;
    text("value", *value)?;
    Ok(())
}

fn reminder_settings(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [lead_days, digest, verified_autopay, repeat, started_on] = cells else {
        return Err(shape());
    };
    check_lead_days(integer("leadDays", *lead_days)?).map_err(setting_problem)?;
    flag("digest", *digest)?;
    flag("verified autopay", *verified_autopay)?;
    check_overdue_repeat(optional_integer("overdueRepeatDays", *repeat)?)
        .map_err(setting_problem)?;
    optional_date("first channel's day", *started_on)?;
    Ok(())
}

fn bill(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [name, amount_minor, currency, cadence, interval, due_day, anchor, category, notes, debt, balance, apr, minimum, autopay, subscription, active, reason, accrued] =
        cells
    else {
        return Err(shape());
    };
    let form = BillForm {
        name: text("name", *name)?.to_owned(),
        amount_minor: integer("amountMinor", *amount_minor)?,
        currency: text("currency", *currency)?.to_owned(),
        cadence: text("cadence", *cadence)?.to_owned(),
        cadence_interval: Some(integer("cadenceInterval", *interval)?),
        due_day: integer("dueDay", *due_day)?,
        anchor_date: text("anchorDate", *anchor)?.to_owned(),
        category: text("category", *category)?.to_owned(),
        notes: text("notes", *notes)?.to_owned(),
        autopay: flag("autopay", *autopay)?,
        subscription: flag("subscription", *subscription)?,
        debt: flag("debt", *debt)?,
        balance_minor: optional_integer("balanceMinor", *balance)?,
        apr_basis_points: optional_integer("aprBasisPoints", *apr)?,
        minimum_payment_minor: optional_integer("minimumPaymentMinor", *minimum)?,
        catalog_id: None,
    };
    form.validate().map_err(first)?;
    flag("active", *active)?;
    if let Some(reason) = optional_text("reason it ended", *reason)? {
        plain("reason it ended", reason, REASON_MAX, Lines::Many)?;
    }
    if let Some(month) = optional_text("interest charged through", *accrued)? {
        if YearMonth::parse(month).is_none() {
            return Err(broken(
                "interest charged through",
                "use a month like 2026-11",
            ));
        }
    }
    Ok(())
}

fn month_change(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [occurrence, amount_minor, skipped, snoozed_to, note] = cells else {
        return Err(shape());
    };
    let change = MonthOverride {
        occurrence: date("occurrence", *occurrence)?,
        amount_minor: optional_integer("amountMinor", *amount_minor)?,
        skipped: flag("skipped", *skipped)?,
        snoozed_to: optional_date("snoozedTo", *snoozed_to)?,
        note: optional_text("note", *note)?.map(str::to_owned),
    };
    bill_month::check(change).map_err(first)?;
    Ok(())
}

fn payment(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [amount_minor, paid_on, method, interest, failed, for_occurrence] = cells else {
        return Err(shape());
    };
    let minor = integer("amountMinor", *amount_minor)?;
    let method = text("method", *method)?;
    if let Some((field, problem)) = payment_problem(minor, method) {
        return Err(broken(field, problem));
    }
    within_max("amountMinor", minor)?;
    date("paidOn", *paid_on)?;
    signed_amount("interest charged", *interest)?;
    flag("autopay failed", *failed)?;
    optional_date("forOccurrence", *for_occurrence)?;
    Ok(())
}

fn drift_dismissal(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [median, until] = cells else {
        return Err(shape());
    };
    amount("usual amount", *median)?;
    date("dismissed until", *until)?;
    Ok(())
}

fn merchant_rule(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [merchant] = cells else {
        return Err(shape());
    };
    text("payee", *merchant)?;
    Ok(())
}

fn descriptor(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [descriptor, normalized] = cells else {
        return Err(shape());
    };
    let max = own_descriptors::MAX_CHARS;
    let taught = text("descriptor", *descriptor)?.trim();
    if taught.is_empty() || taught.chars().count() > max {
        return Err(broken(
            "descriptor",
            format!("enter the text from your statement, 1 to {max} characters"),
        ));
    }
    plain("descriptor", taught, max, Lines::One)?;
    text("descriptor's key", *normalized)?;
    Ok(())
}

fn suggestion_answer(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [merchant_key, action, amount_minor, currency, reason] = cells else {
        return Err(shape());
    };
    text("payee", *merchant_key)?;
    text("answer", *action)?;
    optional_signed_amount("amountMinor", *amount_minor)?;
    optional_text("currency", *currency)?;
    if let Some(reason) = optional_text("reason", *reason)? {
        let max = feedback::REASON_MAX;
        if reason.trim().chars().count() > max {
            return Err(broken("reason", format!("at most {max} characters")));
        }
        plain("reason", reason, max, Lines::One)?;
    }
    Ok(())
}

fn bank_connection(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [provider, institution] = cells else {
        return Err(shape());
    };
    text("provider", *provider)?;
    text("institution", *institution)?;
    Ok(())
}

fn bank_account(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [provider_id, name, currency, balance, balance_date, monitored, available] = cells else {
        return Err(shape());
    };
    text("account id", *provider_id)?;
    text("name", *name)?;
    text("currency", *currency)?;
    optional_signed_amount("balance", *balance)?;
    optional_text("balance date", *balance_date)?;
    flag("monitored", *monitored)?;
    optional_signed_amount("available balance", *available)?;
    Ok(())
}

fn transaction(cells: &[Cell<'_>]) -> Result<(), FieldViolation> {
    let [provider_id, posted_at, amount_minor, description, payee, memo, pending, matched_by] =
        cells
    else {
        return Err(shape());
    };
    text("transaction id", *provider_id)?;
    text("posted", *posted_at)?;
    signed_amount("amountMinor", *amount_minor)?;
    text("description", *description)?;
    optional_text("payee", *payee)?;
    optional_text("memo", *memo)?;
    flag("pending", *pending)?;
    optional_text("matched by", *matched_by)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::personal_data::rules::TABLES;

    fn rules(table: &str) -> &'static FormRules {
        CHECKED.iter().find(|rules| rules.table == table).unwrap()
    }

    /// A bill row as Tally writes one, by column.
    fn good_bill() -> Vec<(&'static str, Cell<'static>)> {
        vec![
            ("name", Cell::Text("Rent")),
            ("amount_cents", Cell::Integer(120_000)),
            ("currency", Cell::Text("USD")),
            ("cadence", Cell::Text("monthly")),
            ("cadence_interval", Cell::Integer(1)),
            ("due_day", Cell::Integer(1)),
            ("anchor_date", Cell::Text("2026-01-01")),
            ("category", Cell::Text("Housing")),
            ("notes", Cell::Text("two lines\nof notes")),
            ("is_debt", Cell::Integer(0)),
            ("balance_cents", Cell::Null),
            ("apr_basis_points", Cell::Null),
            ("minimum_payment_cents", Cell::Null),
            ("autopay", Cell::Integer(0)),
            ("is_subscription", Cell::Integer(0)),
            ("active", Cell::Integer(1)),
            ("inactive_reason", Cell::Null),
            ("interest_accrued_month", Cell::Null),
        ]
    }

    fn with<'a>(row: &[(&'static str, Cell<'a>)], column: &str, value: Cell<'a>) -> Vec<Cell<'a>> {
        assert!(row.iter().any(|(name, _)| *name == column), "{column}");
        row.iter()
            .map(|(name, cell)| if *name == column { value } else { *cell })
            .collect()
    }

    fn refusal(table: &str, cells: &[Cell<'_>]) -> Option<String> {
        let rules = rules(table);
        (rules.check)(cells)
            .err()
            .map(|broken| rules.refusal(&broken))
    }

    #[test]
    fn every_checked_column_is_one_the_import_copies() {
        for rules in CHECKED {
            let table = TABLES
                .iter()
                .find(|table| table.name == rules.table)
                .unwrap_or_else(|| panic!("{} is not exported", rules.table));
            for column in rules.columns {
                assert!(
                    table.columns.iter().any(|(name, _)| name == column),
                    "{}.{column}",
                    rules.table
                );
            }
        }
        // Every exported table has its rules, in the import's order.
        let checked: Vec<&str> = CHECKED.iter().map(|rules| rules.table).collect();
        let exported: Vec<&str> = TABLES.iter().map(|table| table.name).collect();
        assert_eq!(checked, exported);
        let columns: Vec<&str> = good_bill().iter().map(|(name, _)| *name).collect();
        assert_eq!(columns, rules("bills").columns);
    }

    #[test]
    fn a_bill_tally_wrote_passes() {
        let row: Vec<Cell<'_>> = good_bill().into_iter().map(|(_, cell)| cell).collect();
        assert_eq!(refusal("bills", &row), None);
        let debt = good_bill();
        let debt = with(&debt, "is_debt", Cell::Integer(1));
        assert!(
            refusal("bills", &debt).is_some_and(|why| why.contains("Balance owed")),
            "a debt needs its balance"
        );
    }

    #[test]
    fn a_bill_the_bill_form_refuses_is_refused_naming_the_rule() {
        let long = "x".repeat(crate::domain::bill::NAME_MAX + 1);
        let row = good_bill();
        for (column, value, says) in [
            (
                "name",
                Cell::Text(long.as_str()),
                "(Name: use at most 200 characters)",
            ),
            ("name", Cell::Text("two\nlines"), "Name: use a single line"),
            ("name", Cell::Integer(7), "Name: it is not text"),
            (
                "amount_cents",
                Cell::Integer(-1),
                "Amount: the amount cannot be negative",
            ),
            (
                "amount_cents",
                Cell::Integer(MAX_MINOR + 1),
                "Amount: that amount is too large",
            ),
            (
                "amount_cents",
                Cell::Text("lots"),
                "Amount: it is not a whole number",
            ),
            ("anchor_date", Cell::Text("2026-02-30"), "First due date"),
            ("anchor_date", Cell::Text("tomorrow"), "First due date"),
            ("cadence", Cell::Text("fortnightly"), "How often"),
            ("due_day", Cell::Integer(32), "Due day of the month"),
            ("currency", Cell::Text("dollars"), "Currency"),
            ("category", Cell::Other, "Category: it is not text"),
            ("autopay", Cell::Integer(2), "autopay"),
            ("inactive_reason", Cell::Text("\u{1b}[2J"), "U+001B"),
            (
                "interest_accrued_month",
                Cell::Text("soon"),
                "interest charged through",
            ),
        ] {
            let why = refusal("bills", &with(&row, column, value))
                .unwrap_or_else(|| panic!("{column} = {value:?} passed"));
            assert!(
                why.starts_with("one of its bills breaks a rule of the bill form ("),
                "{why}"
            );
            assert!(why.contains(says), "{column}: {why}");
            assert!(why.ends_with("so nothing was imported"), "{why}");
        }
        let every = with(&row, "cadence", Cell::Text("custom_days"));
        let named: Vec<(&'static str, Cell<'_>)> =
            rules("bills").columns.iter().copied().zip(every).collect();
        let never = with(&named, "cadence_interval", Cell::Integer(0));
        assert!(
            refusal("bills", &never).is_some_and(|why| why.contains("(Every: the interval")),
            "every 0 days"
        );
    }

    #[test]
    fn payments_and_this_time_changes_are_held_to_their_forms() {
        let payment = [
            Cell::Integer(5_000),
            Cell::Text("2026-01-01"),
            Cell::Text("manual"),
            Cell::Integer(0),
            Cell::Integer(0),
            Cell::Null,
        ];
        assert_eq!(refusal("payments", &payment), None);
        let mut said = payment;
        said[5] = Cell::Text("2026-01-15");
        assert_eq!(refusal("payments", &said), None);
        said[5] = Cell::Text("mid-January");
        assert!(
            refusal("payments", &said).is_some_and(|why| why.contains("Which due date it pays"))
        );
        let mut negative = payment;
        negative[0] = Cell::Integer(-5);
        assert!(refusal("payments", &negative)
            .is_some_and(|why| why.contains("payments") && why.contains("cannot be negative")));
        let mut absurd = payment;
        absurd[0] = Cell::Integer(i64::MAX);
        assert!(refusal("payments", &absurd).is_some_and(|why| why.contains("too large")));
        let mut undated = payment;
        undated[1] = Cell::Text("yesterday");
        assert!(refusal("payments", &undated).is_some_and(|why| why.contains("Paid on")));
        let long_method = "m".repeat(41);
        let mut method = payment;
        method[2] = Cell::Text(long_method.as_str());
        assert!(refusal("payments", &method).is_some_and(|why| why.contains("40 characters")));

        let month = [
            Cell::Text("2026-03-01"),
            Cell::Integer(125_000),
            Cell::Integer(0),
            Cell::Text("2026-03-10"),
            Cell::Text("new lease"),
        ];
        assert_eq!(refusal("bill_months", &month), None);
        let mut far = month;
        far[3] = Cell::Text("2026-06-01");
        assert!(refusal("bill_months", &far).is_some_and(|why| why.contains("Snooze to")));
        let long_note = "n".repeat(crate::domain::bill_month::NOTE_MAX + 1);
        let mut note = month;
        note[4] = Cell::Text(long_note.as_str());
        assert!(refusal("bill_months", &note).is_some_and(|why| why.contains("Note")));
    }

    #[test]
    fn the_other_tables_are_held_to_their_bounds_and_shapes() {
        let reminders = [
            Cell::Integer(3),
            Cell::Integer(1),
            Cell::Integer(0),
            Cell::Null,
            Cell::Null,
        ];
        assert_eq!(refusal("notification_preferences", &reminders), None);
        let mut lead = reminders;
        lead[0] = Cell::Integer(99);
        assert!(refusal("notification_preferences", &lead)
            .is_some_and(|why| why.contains("Days before a due date")));

        let transaction = [
            Cell::Text("x1"),
            Cell::Text("2026-01-03"),
            Cell::Integer(-100),
            Cell::Text("COFFEE"),
            Cell::Null,
            Cell::Null,
            Cell::Integer(0),
            Cell::Null,
        ];
        assert_eq!(refusal("transactions", &transaction), None);
        let mut blob = transaction;
        blob[3] = Cell::Other;
        assert!(refusal("transactions", &blob).is_some_and(|why| why.contains("not text")));
        let mut huge = transaction;
        huge[2] = Cell::Integer(i64::MIN);
        assert!(refusal("transactions", &huge).is_some_and(|why| why.contains("too large")));

        let long = "d".repeat(own_descriptors::MAX_CHARS + 1);
        let taught = [Cell::Text(long.as_str()), Cell::Text("D")];
        assert!(refusal("user_catalog_descriptors", &taught)
            .is_some_and(|why| why.contains("1 to 200 characters")));
    }

    #[test]
    fn a_refusal_names_no_id_and_the_query_reads_the_files_account_only() {
        let sql = rules("bills").rows_sql();
        assert!(
            sql.starts_with("SELECT name, amount_cents, currency, cadence,"),
            "{sql}"
        );
        assert!(
            sql.ends_with("FROM bills WHERE user_id = (SELECT id FROM users)"),
            "{sql}"
        );
        assert!(!sql.contains("import.") && !sql.contains("main."), "{sql}");
        let why = rules("bills").refusal(&broken("name", "use at most 200 characters"));
        assert_eq!(
            why,
            "one of its bills breaks a rule of the bill form (Name: use at most 200 characters), so nothing was imported"
        );
    }
}
