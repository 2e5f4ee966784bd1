//! What is wrong with a request, field by field: the one shape every
//! refusal of bad input takes, from the rules in `domain` to the AIP-193
//! body's `fieldViolations` (the REST routes) and the pages' field errors.

use serde::{Deserialize, Serialize};

/// One bad field and what to do about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct FieldViolation {
    pub field: String,
    pub description: String,
}

impl FieldViolation {
    /// `field` (as the API names it) and what to do about it.
    pub fn new(field: &str, description: impl std::fmt::Display) -> Self {
        Self {
            field: field.to_owned(),
            description: description.to_string(),
        }
    }
}
