//! The writes of a bill's page (but recording a payment), read from the
//! one form they share: `act` names the write, and `payment` or `reason`
//! is what it needs.

use super::form_field::required;
use super::validation::FieldViolation;

/// One write of a bill's page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BillWrite {
    UndoPayment {
        payment: i64,
    },
    /// A payment's autopay failed (`true`), or did not after all.
    FlagAutopay {
        payment: i64,
        failed: bool,
    },
    /// The bill ends, with why (may be empty).
    End {
        reason: String,
    },
    Restart,
    Delete,
}

impl BillWrite {
    /// The write `act` names: `undo-payment`, `autopay-failed` and
    /// `autopay-ok` (of `payment`), `end` (with `reason`), `restart` and
    /// `delete`.
    pub fn read(
        act: &str,
        payment: Option<i64>,
        reason: Option<String>,
    ) -> Result<Self, FieldViolation> {
        let payment = || required("payment", payment, "name the payment");
        match act {
            "undo-payment" => Ok(Self::UndoPayment {
                payment: payment()?,
            }),
            "autopay-failed" | "autopay-ok" => Ok(Self::FlagAutopay {
                payment: payment()?,
                failed: act == "autopay-failed",
            }),
            "end" => Ok(Self::End {
                reason: reason.unwrap_or_default(),
            }),
            "restart" => Ok(Self::Restart),
            "delete" => Ok(Self::Delete),
            other => Err(FieldViolation::new(
                "act",
                format!("{other} is not a write of a bill's page"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payments_write_names_the_payment() {
        assert_eq!(
            BillWrite::read("autopay-ok", Some(4), None),
            Ok(BillWrite::FlagAutopay {
                payment: 4,
                failed: false
            })
        );
        assert_eq!(
            BillWrite::read("undo-payment", None, None),
            Err(FieldViolation::new("payment", "name the payment"))
        );
    }

    #[test]
    fn the_bills_own_writes_need_no_payment() {
        assert_eq!(
            BillWrite::read("end", None, Some("moved".into())),
            Ok(BillWrite::End {
                reason: "moved".into()
            })
        );
        assert_eq!(
            BillWrite::read("end", None, None),
            Ok(BillWrite::End {
                reason: String::new()
            })
        );
        assert_eq!(
            BillWrite::read("restart", None, None),
            Ok(BillWrite::Restart)
        );
        assert_eq!(BillWrite::read("delete", None, None), Ok(BillWrite::Delete));
    }

    #[test]
    fn an_unknown_write_is_refused_naming_act() {
        assert_eq!(
            BillWrite::read("paint", None, None),
            Err(FieldViolation::new(
                "act",
                "paint is not a write of a bill's page"
            ))
        );
    }
}
