//! `google.longrunning` on the wire (`/v1/operations…`), in the proto3 JSON
//! mapping as Google's client libraries read it: the server writes these
//! types, the operations viewer reads them (and gets them from its server
//! function). proto3 leaves out a field holding its default value, so
//! reading takes a missing list as empty and a missing code as 0: that is
//! the mapping, not a hidden field.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::domain::operation::{code_name, response_summary, State};
use crate::domain::operation_kind::OperationKind;

/// `google.longrunning.Operation`. `done` is always written (clients test
/// it); `error` or `response` only once it is done.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Operation {
    /// `operations/{id}`.
    pub name: String,
    /// A `google.protobuf.Any`: `@type` (`type.googleapis.com/tally.v1.…`)
    /// and the message's fields, the `progress` among them.
    pub metadata: Value,
    pub done: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<RpcStatus>,
    /// A `google.protobuf.Any` with the operation's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<Value>,
}

/// `google.rpc.Status` of a failed operation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RpcStatus {
    /// The canonical code (`google.rpc.Code`); 0 is left out.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub code: i32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// `google.longrunning.ListOperationsResponse`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OperationList {
    /// Left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<Operation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
}

/// `google.protobuf.Empty`: `{}` (DeleteOperation, CancelOperation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Empty {}

/// The body of `POST /v1/operations/{id}:wait` (may be left out).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct WaitOperation {
    /// A protobuf duration such as `"5s"` or `"0.5s"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<String>,
}

/// The body of `POST /v1/admin:restoreCheck` (may be left out).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RestoreCheckRequest {
    /// A backup's file name (`bills-<timestamp>.db`); the newest when left
    /// out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup_file: Option<String>,
}

/// The body of `POST /v1/admin:restore`: the backup, its name again as
/// the confirmation, and the administrator's password (from a browser
/// session only: no API token restores). No `Debug` that shows the
/// password.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RestoreRequest {
    /// A backup's file name (`bills-<timestamp>.db`).
    pub backup_file: String,
    /// The same name, typed again.
    pub confirm: String,
    /// The administrator's password, asked again.
    #[serde(default)]
    pub current_password: String,
}

impl std::fmt::Debug for RestoreRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RestoreRequest")
            .field("backup_file", &self.backup_file)
            .field("confirm", &self.confirm)
            .field("current_password", &"[redacted]")
            .finish()
    }
}

/// What Admin's maintenance buttons start (`POST /v1/admin:backup`,
/// `…:restoreCheck` of the newest backup, `…:reencryptSecrets`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum MaintenanceTask {
    Backup,
    RestoreCheck,
    ReencryptSecrets,
}

fn is_zero(code: &i32) -> bool {
    *code == 0
}

/// What the operations viewer reads from an operation (its metadata is
/// `tally.v1.OperationProgress`).
impl Operation {
    /// The unique part of `operations/{id}`.
    pub fn id(&self) -> &str {
        self.name.strip_prefix("operations/").unwrap_or(&self.name)
    }

    fn progress(&self) -> &Value {
        &self.metadata["progress"]
    }

    pub fn kind(&self) -> &str {
        self.progress()["kind"].as_str().unwrap_or("")
    }

    pub fn kind_label(&self) -> String {
        OperationKind::parse(self.kind())
            .map_or_else(|| self.kind().to_owned(), |kind| kind.label().to_owned())
    }

    pub fn owner(&self) -> &str {
        self.progress()["owner"].as_str().unwrap_or("")
    }

    pub fn created(&self) -> &str {
        self.progress()["createTime"].as_str().unwrap_or("")
    }

    pub fn cancel_requested(&self) -> bool {
        self.progress()["cancelRequested"]
            .as_bool()
            .unwrap_or(false)
    }

    /// 0 to 100; a done operation counts as 100.
    pub fn percent(&self) -> i64 {
        if self.done {
            100
        } else {
            self.progress()["percentDone"]
                .as_i64()
                .unwrap_or(0)
                .clamp(0, 100)
        }
    }

    pub fn state(&self) -> State {
        match (&self.error, self.done) {
            (_, false) => State::Running,
            (Some(error), true) if error.code == 1 => State::Cancelled,
            (Some(_), true) => State::Failed,
            (None, true) => State::Succeeded,
        }
    }

    /// One line on the outcome: the error's code name and message, or what
    /// the response says in brief.
    pub fn summary(&self) -> String {
        match (&self.error, &self.response) {
            (Some(error), _) => format!("{}: {}", code_name(error.code), error.message),
            (None, Some(response)) => response_summary(response),
            (None, None) if self.cancel_requested() => "cancelling…".to_owned(),
            (None, None) => format!("{}% done", self.percent()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_are_left_out_as_protos_json_printer_does() {
        let list = OperationList::default();
        assert_eq!(serde_json::to_string(&list).unwrap(), "{}");
        assert_eq!(serde_json::to_string(&Empty {}).unwrap(), "{}");
        let running = Operation {
            name: "operations/a".into(),
            metadata: json!({"@type": "type.googleapis.com/tally.v1.BackupMetadata"}),
            done: false,
            error: None,
            response: None,
        };
        assert_eq!(
            serde_json::to_value(&running).unwrap(),
            json!({"name": "operations/a", "metadata": {"@type": "type.googleapis.com/tally.v1.BackupMetadata"}, "done": false})
        );
        let failed = RpcStatus {
            code: 13,
            message: String::new(),
        };
        assert_eq!(serde_json::to_value(&failed).unwrap(), json!({"code": 13}));
        let read: OperationList = serde_json::from_value(json!({"nextPageToken": "t"})).unwrap();
        assert!(read.operations.is_empty());
    }
}
