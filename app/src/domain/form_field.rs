//! What a form's text field holds, read as the type its use case takes:
//! a blank field is no value, and text that is not one is refused with
//! the field named (as the API names it) and what to type instead. The
//! pages' server functions read their forms through these, so each
//! refusal is the same wherever the field appears.

use super::amount::Amount;
use super::date::Date;
use super::validation::FieldViolation;

/// What was typed, unless nothing was (blank counts as nothing).
pub fn given(text: Option<String>) -> Option<String> {
    text.filter(|text| !text.trim().is_empty())
}

/// A checkbox: ticked when the form sent it at all.
pub fn ticked(field: &Option<String>) -> bool {
    field.is_some()
}

/// A whole number typed in `field`, if anything was; otherwise refused
/// with `hint`.
pub fn whole<T: std::str::FromStr>(
    field: &str,
    text: Option<String>,
    hint: &str,
) -> Result<Option<T>, FieldViolation> {
    given(text)
        .map(|text| {
            text.trim()
                .parse()
                .map_err(|_| FieldViolation::new(field, hint))
        })
        .transpose()
}

/// An amount of money as a person types it ("12.50"), in minor units.
pub fn amount_minor(field: &str, text: Option<String>) -> Result<Option<i64>, FieldViolation> {
    given(text)
        .map(|text| {
            Amount::parse(&text)
                .map(Amount::minor)
                .map_err(|problem| FieldViolation::new(field, problem))
        })
        .transpose()
}

/// A calendar date (`2026-12-05`).
pub fn date(field: &str, text: Option<String>) -> Result<Option<Date>, FieldViolation> {
    given(text)
        .map(|text| {
            Date::parse(text.trim())
                .map_err(|_| FieldViolation::new(field, "use a date like 2026-12-05"))
        })
        .transpose()
}

/// `value`, or a refusal naming `field` when the form left it out.
pub fn required<T>(field: &str, value: Option<T>, missing: &str) -> Result<T, FieldViolation> {
    value.ok_or_else(|| FieldViolation::new(field, missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_is_nothing_and_text_is_kept_as_typed() {
        assert_eq!(given(None), None);
        assert_eq!(given(Some("  ".into())), None);
        assert_eq!(given(Some(" a ".into())), Some(" a ".into()));
    }

    #[test]
    fn a_whole_number_is_read_or_refused_naming_its_field() {
        assert_eq!(
            whole::<i64>("days", Some(" 7 ".into()), "whole days"),
            Ok(Some(7))
        );
        assert_eq!(
            whole::<i64>("days", Some("".into()), "whole days"),
            Ok(None)
        );
        assert_eq!(
            whole::<u32>("days", Some("-1".into()), "whole days"),
            Err(FieldViolation::new("days", "whole days"))
        );
    }

    #[test]
    fn an_amount_becomes_minor_units() {
        assert_eq!(amount_minor("amount", Some("12.50".into())), Ok(Some(1250)));
        assert_eq!(amount_minor("amount", None), Ok(None));
        let refused = amount_minor("amount", Some("twelve".into())).unwrap_err();
        assert_eq!(refused.field, "amount");
        assert!(!refused.description.is_empty());
    }

    #[test]
    fn a_date_is_read_or_refused_with_an_example() {
        assert_eq!(
            date("to", Some("2026-12-05".into())),
            Ok(Some(Date::parse("2026-12-05").unwrap()))
        );
        assert_eq!(
            date("to", Some("5 Dec".into())),
            Err(FieldViolation::new("to", "use a date like 2026-12-05"))
        );
    }

    #[test]
    fn a_missing_value_is_refused_naming_its_field() {
        assert_eq!(required("payment", Some(3), "name the payment"), Ok(3));
        assert_eq!(
            required::<i64>("payment", None, "name the payment"),
            Err(FieldViolation::new("payment", "name the payment"))
        );
    }
}
