//! The one error body of every JSON answer Tally gives: Google's shape
//! (AIP-193, `google.rpc.Status` in JSON), with `BadRequest` details naming
//! the fields at fault. The REST routes write it, the browser reads it.

use serde::{Deserialize, Serialize};

use crate::domain::contact::FieldViolation;

/// `{"error": {...}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: ErrorStatus,
}

/// The `google.rpc.Status` of a failed call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorStatus {
    /// The HTTP status code.
    pub code: u16,
    /// What went wrong, for a person.
    pub message: String,
    /// The canonical code's name (`INVALID_ARGUMENT`, `NOT_FOUND`, …).
    pub status: String,
    /// Left out when there are none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Vec<ErrorDetail>>,
}

/// A detail of a failed call; Tally sends only `BadRequest`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "@type")]
pub enum ErrorDetail {
    #[serde(rename = "type.googleapis.com/google.rpc.BadRequest")]
    BadRequest {
        #[serde(rename = "fieldViolations")]
        field_violations: Vec<FieldViolation>,
    },
}

impl ErrorBody {
    /// Every field the answer blames, in order.
    pub fn field_violations(&self) -> Vec<FieldViolation> {
        self.error
            .details
            .iter()
            .flatten()
            .flat_map(|detail| match detail {
                ErrorDetail::BadRequest { field_violations } => field_violations.iter().cloned(),
            })
            .collect()
    }
}
