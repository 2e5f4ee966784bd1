//! Why a per-month override request failed. Mapped to HTTP once, in
//! `backend::api_error`.

use crate::domain::validation::FieldViolation;

#[derive(Debug, thiserror::Error)]
pub enum BillMonthError {
    #[error("no such bill")]
    NoBill,
    /// Fields of the request are wrong, each named as on the wire.
    #[error("{}", .0.iter().map(|v| format!("{}: {}", v.field, v.description)).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<FieldViolation>),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl From<FieldViolation> for BillMonthError {
    fn from(violation: FieldViolation) -> Self {
        Self::Invalid(vec![violation])
    }
}
