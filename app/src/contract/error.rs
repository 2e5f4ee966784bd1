//! The one error body of every JSON answer Tally gives: Google's shape
//! (AIP-193, `google.rpc.Status` in JSON), with `BadRequest` details naming
//! the fields at fault. The REST routes write it, the browser reads it.

use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

use crate::domain::validation::FieldViolation;

/// `{"error": {...}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    pub error: ErrorStatus,
}

/// The `google.rpc.Status` of a failed call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
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
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(tag = "@type")]
pub enum ErrorDetail {
    #[serde(rename = "type.googleapis.com/google.rpc.BadRequest")]
    BadRequest {
        #[serde(rename = "fieldViolations")]
        field_violations: Vec<FieldViolation>,
    },
}

impl ErrorBody {
    /// An error without field details.
    pub fn new(code: u16, status: &str, message: impl Into<String>) -> Self {
        Self {
            error: ErrorStatus {
                code,
                message: message.into(),
                status: status.to_owned(),
                details: None,
            },
        }
    }

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

/// Server functions answer failures with this same body, so a page reads
/// one error shape whether it called REST or a server function. What the
/// server-function machinery itself reports (a missing argument, a body it
/// cannot read, a network failure in the browser) is mapped onto the same
/// canonical codes.
impl FromServerFnError for ErrorBody {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        match value {
            ServerFnErrorErr::Args(message) | ServerFnErrorErr::MissingArg(message) => {
                Self::new(400, "INVALID_ARGUMENT", message)
            }
            ServerFnErrorErr::UnsupportedRequestMethod(message) => {
                Self::new(405, "UNIMPLEMENTED", message)
            }
            ServerFnErrorErr::Request(message) => {
                Self::new(503, "UNAVAILABLE", format!("cannot reach Tally: {message}"))
            }
            // On the server this is the request's body that did not decode
            // (the client's mistake, a 400); in the browser it is the
            // server's answer that could not be read.
            #[cfg(feature = "ssr")]
            ServerFnErrorErr::Deserialization(message) => Self::new(
                400,
                "INVALID_ARGUMENT",
                format!("the request could not be read: {message}"),
            ),
            #[cfg(not(feature = "ssr"))]
            ServerFnErrorErr::Deserialization(message) => Self::new(
                502,
                "UNKNOWN",
                format!("the answer could not be read: {message}"),
            ),
            ServerFnErrorErr::Registration(message)
            | ServerFnErrorErr::ServerError(message)
            | ServerFnErrorErr::MiddlewareError(message)
            | ServerFnErrorErr::Serialization(message)
            | ServerFnErrorErr::Response(message) => Self::new(500, "INTERNAL", message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_are_left_out_when_there_are_none_and_read_back_when_there_are() {
        let plain = ErrorBody {
            error: ErrorStatus {
                code: 404,
                message: "no bill 7".into(),
                status: "NOT_FOUND".into(),
                details: None,
            },
        };
        let text = serde_json::to_string(&plain).unwrap();
        assert_eq!(
            text,
            r#"{"error":{"code":404,"message":"no bill 7","status":"NOT_FOUND"}}"#
        );
        assert_eq!(serde_json::from_str::<ErrorBody>(&text).unwrap(), plain);

        let with_field = r#"{"error":{"code":400,"message":"email: enter an address","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"email","description":"enter an address"}]}]}}"#;
        let body: ErrorBody = serde_json::from_str(with_field).unwrap();
        assert_eq!(body.field_violations()[0].field, "email");
        assert_eq!(serde_json::to_string(&body).unwrap(), with_field);
    }

    #[test]
    fn server_function_failures_use_the_same_body_and_codes() {
        let missing = ErrorBody::from_server_fn_error(ServerFnErrorErr::MissingArg("id".into()));
        assert_eq!(
            (missing.error.code, missing.error.status.as_str()),
            (400, "INVALID_ARGUMENT")
        );
        let round_trip = ErrorBody::de(missing.ser());
        assert_eq!(round_trip, missing);
    }
}
