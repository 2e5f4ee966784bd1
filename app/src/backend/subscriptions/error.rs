//! What the subscription features can refuse, in their own words;
//! `backend::api_error` maps each to HTTP once.

use std::fmt::Display;

use crate::domain::validation::FieldViolation;

#[derive(Debug, thiserror::Error)]
pub enum SubscriptionError {
    /// One field of the request at fault (named as the API names it).
    #[error("{}: {}", .0.field, .0.description)]
    Field(FieldViolation),
    /// Several fields at fault, each named.
    #[error("{} fields are invalid", .0.len())]
    Fields(Vec<FieldViolation>),
    /// Nothing of the person's there; the message says what was looked for.
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Internal(String),
    #[error(transparent)]
    Bill(#[from] crate::backend::bills::BillError),
    #[error(transparent)]
    Bank(#[from] crate::backend::bank::BankError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl SubscriptionError {
    /// `field` (as the API names it) at fault, and what to do about it.
    pub fn field(field: &str, description: impl Display) -> Self {
        Self::Field(FieldViolation::new(field, description))
    }
}
