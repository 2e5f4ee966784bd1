//! A `google.longrunning.Operation` as the browser reads it from `/v1`:
//! what state it is in, how far it has come, and words for its outcome.

use serde_json::Value;

use super::operation_kind::OperationKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Running,
    Succeeded,
    Cancelled,
    Failed,
}

impl State {
    pub fn label(self) -> &'static str {
        match self {
            Self::Running => "Running",
            Self::Succeeded => "Succeeded",
            Self::Cancelled => "Cancelled",
            Self::Failed => "Failed",
        }
    }
}

fn int(value: &Value) -> i64 {
    match value {
        Value::String(text) => text.parse().unwrap_or(0),
        other => other.as_i64().unwrap_or(0),
    }
}

/// What a done operation's `response` says, in brief.
pub fn response_summary(response: &Value) -> String {
    let kind = response["@type"].as_str().unwrap_or("");
    match kind.rsplit('.').next().unwrap_or("") {
        "BackupResponse" => format!(
            "{} ({} rows in {} tables)",
            response["fileName"].as_str().unwrap_or("backup"),
            int(&response["rows"]),
            int(&response["tables"])
        ),
        "RestoreCheckResponse" => format!(
            "{} restores: {} rows",
            response["backupFile"].as_str().unwrap_or("the backup"),
            int(&response["totalRows"])
        ),
        "RestoreResponse" => format!(
            "restored {}; the data it replaced is {}",
            response["backupFile"].as_str().unwrap_or("the backup"),
            response["savedAs"].as_str().unwrap_or("saved")
        ),
        "ReencryptSecretsResponse" => {
            format!(
                "{} secrets sealed again",
                int(&response["secretsReencrypted"])
            )
        }
        "SleepResponse" => format!("slept {}", response["slept"].as_str().unwrap_or("")),
        "BankSyncResponse" => match int(&response["transactionsAdded"]) {
            1 => "1 new transaction".to_owned(),
            n => format!("{n} new transactions"),
        },
        _ => "done".to_owned(),
    }
}

/// The `google.rpc.Code` name of `code`.
pub fn code_name(code: i32) -> &'static str {
    match code {
        0 => "OK",
        1 => "CANCELLED",
        2 => "UNKNOWN",
        3 => "INVALID_ARGUMENT",
        4 => "DEADLINE_EXCEEDED",
        5 => "NOT_FOUND",
        6 => "ALREADY_EXISTS",
        7 => "PERMISSION_DENIED",
        8 => "RESOURCE_EXHAUSTED",
        9 => "FAILED_PRECONDITION",
        10 => "ABORTED",
        11 => "OUT_OF_RANGE",
        12 => "UNIMPLEMENTED",
        13 => "INTERNAL",
        14 => "UNAVAILABLE",
        15 => "DATA_LOSS",
        16 => "UNAUTHENTICATED",
        _ => "ERROR",
    }
}

/// An AIP-160 filter for a state and a kind ("" for any).
pub fn filter(state: &str, kind: &str) -> String {
    let mut parts = Vec::new();
    match state {
        "running" => parts.push("done = false".to_owned()),
        "done" => parts.push("done = true".to_owned()),
        _ => {}
    }
    if OperationKind::parse(kind).is_some() {
        parts.push(format!("kind = \"{kind}\""));
    }
    parts.join(" AND ")
}

/// `text` percent-encoded for a URL query value.
pub fn query_value(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(byte).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::operations::Operation;
    use serde_json::json;

    fn parse(value: Value) -> Operation {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn states_and_progress_follow_the_json() {
        let running = parse(json!({
            "name": "operations/ab12",
            "metadata": {"@type": "type.googleapis.com/tally.v1.BackupMetadata",
                         "progress": {"kind": "backup", "owner": "users/1", "percentDone": 40}},
            "done": false
        }));
        assert_eq!(running.id(), "ab12");
        assert_eq!(running.state(), State::Running);
        assert_eq!(running.percent(), 40);
        assert_eq!(running.kind_label(), "Backup");
        assert_eq!(running.summary(), "40% done");

        let cancelled = parse(json!({
            "name": "operations/x", "metadata": {}, "done": true,
            "error": {"code": 1, "message": "the operation was cancelled"}
        }));
        assert_eq!(cancelled.state(), State::Cancelled);
        assert_eq!(cancelled.percent(), 100);
        assert_eq!(
            cancelled.summary(),
            "CANCELLED: the operation was cancelled"
        );

        let backup = parse(json!({
            "name": "operations/y", "metadata": {}, "done": true,
            "response": {"@type": "type.googleapis.com/tally.v1.BackupResponse",
                         "fileName": "bills-1.db", "rows": "12", "tables": "30"}
        }));
        assert_eq!(backup.state(), State::Succeeded);
        assert_eq!(backup.summary(), "bills-1.db (12 rows in 30 tables)");
    }

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(query_value("done = \"x\"&y"), "done%20%3D%20%22x%22%26y");
    }

    #[test]
    fn filters_are_built_from_choices() {
        assert_eq!(filter("", ""), "");
        assert_eq!(
            filter("running", "backup"),
            "done = false AND kind = \"backup\""
        );
        assert_eq!(filter("done", "nonsense"), "done = true");
    }
}
