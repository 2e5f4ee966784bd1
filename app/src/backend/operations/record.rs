//! One operation as stored, and how it reads as a
//! `google.longrunning.Operation` in proto3 JSON.

use serde_json::{json, Map, Value};

use super::messages::{Message, OperationProgress, Timestamp};
use super::proto_json;
use crate::contract::operations::{Operation, RpcStatus};
use crate::domain::operation_kind::OperationKind;

/// A row of `operations`.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Record {
    pub id: String,
    pub owner_id: Option<i64>,
    pub kind: String,
    pub metadata_type: String,
    /// The kind's own metadata fields (proto3 JSON) plus `percentDone`.
    pub metadata: String,
    pub done: bool,
    pub error_code: Option<i64>,
    pub error_message: Option<String>,
    pub response_type: Option<String>,
    pub response: Option<String>,
    pub cancel_requested: bool,
    pub created_at: String,
    pub updated_at: String,
    pub ended_at: Option<String>,
}

/// How an operation ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The response message's fields (proto3 JSON, without `@type`).
    Response(Value),
    Error(Status),
}

/// A `google.rpc.Status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub code: i32,
    pub message: String,
}

impl Status {
    pub const CANCELLED: i32 = 1;
    pub const INVALID_ARGUMENT: i32 = 3;
    pub const FAILED_PRECONDITION: i32 = 9;
    pub const ABORTED: i32 = 10;
    pub const INTERNAL: i32 = 13;

    pub fn new(code: i32, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    pub fn cancelled() -> Self {
        Self::new(Self::CANCELLED, "the operation was cancelled")
    }
}

impl Record {
    /// `operations/{id}`.
    pub fn name(&self) -> String {
        format!("operations/{}", self.id)
    }

    pub fn kind(&self) -> Option<OperationKind> {
        OperationKind::parse(&self.kind)
    }

    /// The kind's metadata fields as stored (without `percentDone`).
    pub fn metadata_fields(&self) -> Map<String, Value> {
        let mut fields = match serde_json::from_str(&self.metadata) {
            Ok(Value::Object(fields)) => fields,
            _ => Map::new(),
        };
        fields.remove("percentDone");
        fields
    }

    pub fn percent_done(&self) -> i32 {
        serde_json::from_str::<Value>(&self.metadata)
            .ok()
            .and_then(|value| value.get("percentDone").and_then(Value::as_i64))
            .and_then(|percent| i32::try_from(percent.clamp(0, 100)).ok())
            .unwrap_or(0)
    }

    /// The Operation resource: exactly `name`, `metadata`, `done` and, once
    /// done, `error` or `response`.
    pub fn to_operation(&self) -> Operation {
        let owner = self
            .owner_id
            .map(|id| format!("users/{id}"))
            .unwrap_or_default();
        let progress = OperationProgress {
            owner,
            kind: self.kind.clone(),
            create_time: Some(Timestamp(self.created_at.clone())),
            update_time: Some(Timestamp(self.updated_at.clone())),
            end_time: self.ended_at.clone().map(Timestamp),
            percent_done: self.percent_done(),
            cancel_requested: self.cancel_requested,
        }
        .to_json();
        let mut fields = Map::new();
        fields.insert("progress".to_owned(), progress);
        fields.extend(self.metadata_fields());
        let mut operation = Operation {
            name: self.name(),
            metadata: proto_json::any(&self.metadata_type, &Value::Object(fields)),
            done: self.done,
            error: None,
            response: None,
        };
        if self.done {
            match (&self.error_code, &self.response_type) {
                (Some(code), _) => {
                    operation.error = Some(RpcStatus {
                        code: i32::try_from(*code).unwrap_or(2),
                        message: self.error_message.clone().unwrap_or_default(),
                    });
                }
                (None, Some(response_type)) => {
                    let response = self
                        .response
                        .as_deref()
                        .and_then(|text| serde_json::from_str(text).ok())
                        .unwrap_or_else(|| json!({}));
                    operation.response = Some(proto_json::any(response_type, &response));
                }
                (None, None) => {}
            }
        }
        operation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> Record {
        Record {
            id: "abc".into(),
            owner_id: Some(7),
            kind: "sleep".into(),
            metadata_type: "tally.v1.SleepMetadata".into(),
            metadata: r#"{"duration":"30s","percentDone":40}"#.into(),
            done: false,
            error_code: None,
            error_message: None,
            response_type: None,
            response: None,
            cancel_requested: false,
            created_at: "2026-11-22T04:50:00.000Z".into(),
            updated_at: "2026-11-22T04:50:01.250Z".into(),
            ended_at: None,
        }
    }

    #[test]
    fn a_running_operation_has_exactly_name_metadata_and_done() {
        let operation = serde_json::to_value(record().to_operation()).unwrap();
        assert_eq!(
            operation,
            json!({
                "name": "operations/abc",
                "metadata": {
                    "@type": "type.googleapis.com/tally.v1.SleepMetadata",
                    "progress": {
                        "owner": "users/7",
                        "kind": "sleep",
                        "createTime": "2026-11-22T04:50:00Z",
                        "updateTime": "2026-11-22T04:50:01.250Z",
                        "percentDone": 40
                    },
                    "duration": "30s"
                },
                "done": false
            })
        );
    }

    #[test]
    fn a_done_operation_has_exactly_one_result() {
        let mut cancelled = record();
        cancelled.done = true;
        cancelled.error_code = Some(1);
        cancelled.error_message = Some("the operation was cancelled".into());
        cancelled.cancel_requested = true;
        cancelled.ended_at = Some("2026-11-22T04:50:02.000Z".into());
        let operation = serde_json::to_value(cancelled.to_operation()).unwrap();
        assert_eq!(
            operation["error"],
            json!({"code": 1, "message": "the operation was cancelled"})
        );
        assert!(operation.get("response").is_none());
        assert_eq!(operation["metadata"]["progress"]["cancelRequested"], true);
        assert_eq!(
            operation["metadata"]["progress"]["endTime"],
            "2026-11-22T04:50:02Z"
        );

        let mut succeeded = record();
        succeeded.done = true;
        succeeded.response_type = Some("tally.v1.SleepResponse".into());
        succeeded.response = Some(r#"{"slept":"30s"}"#.into());
        let operation = serde_json::to_value(succeeded.to_operation()).unwrap();
        assert_eq!(
            operation["response"],
            json!({"@type": "type.googleapis.com/tally.v1.SleepResponse", "slept": "30s"})
        );
        assert!(operation.get("error").is_none());
        let keys: Vec<&String> = operation.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 4, "{keys:?}");
    }
}
