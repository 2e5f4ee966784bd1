//! The `tally.v1` messages as `proto/tally/v1/operations.proto` declares
//! them, read from that file, and a check that an operation's metadata or
//! response (an `Any` in proto3 JSON, as `proto_json::Fields` writes it)
//! is what the file says: every key a field of the message named by its
//! `@type`, under its JSON name, each value in the printer's form for the
//! field's type (int64 as a decimal string, a Timestamp or Duration as its
//! string, a nested message checked in turn), and no scalar written at its
//! default. The integration tests check every operation they wait for
//! (`support::operations::finished`), so a field the code writes and the
//! file lacks, or one typed differently, fails the tests.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::Value;

use super::proto_json::json_name;

const PROTO: &str = include_str!("../../../../proto/tally/v1/operations.proto");
const PACKAGE: &str = "tally.v1";
const ANY_PREFIX: &str = "type.googleapis.com/";

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    String,
    Int64,
    Int32,
    Bool,
    Timestamp,
    Duration,
    Message(String),
    /// `map<string, int64>`.
    Int64Map,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Field {
    json_name: String,
    kind: Kind,
    repeated: bool,
}

/// The messages of the file by full name (`tally.v1.BackupMetadata`).
type Messages = BTreeMap<String, Vec<Field>>;

fn messages() -> &'static Messages {
    static MESSAGES: OnceLock<Messages> = OnceLock::new();
    MESSAGES.get_or_init(|| parse(PROTO))
}

/// Whether the file declares `full_name`.
pub fn declares(full_name: &str) -> bool {
    messages().contains_key(full_name)
}

/// Every message the file declares, by full name.
pub fn declared() -> Vec<&'static str> {
    messages().keys().map(String::as_str).collect()
}

/// The JSON names of `full_name`'s fields, if the file declares it.
pub fn fields_of(full_name: &str) -> Option<Vec<String>> {
    messages()
        .get(full_name)
        .map(|fields| fields.iter().map(|field| field.json_name.clone()).collect())
}

fn kind_of(type_name: &str) -> Kind {
    match type_name {
        "string" => Kind::String,
        "int64" => Kind::Int64,
        "int32" => Kind::Int32,
        "bool" => Kind::Bool,
        "google.protobuf.Timestamp" => Kind::Timestamp,
        "google.protobuf.Duration" => Kind::Duration,
        other => Kind::Message(format!("{PACKAGE}.{other}")),
    }
}

/// The top-level messages of a proto file this simple: no nesting, no
/// enums or oneofs; services and options are skipped.
fn parse(text: &str) -> Messages {
    let mut messages = Messages::new();
    let mut current: Option<(String, Vec<Field>)> = None;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some((name, fields)) = current.as_mut() {
            if line == "}" {
                messages.insert(format!("{PACKAGE}.{name}"), std::mem::take(fields));
                current = None;
                continue;
            }
            let Some((declaration, _number)) = line.split_once('=') else {
                continue;
            };
            let words: Vec<&str> = declaration.split_whitespace().collect();
            let field = match words.as_slice() {
                ["map<string,", "int64>", name] => Field {
                    json_name: json_name(name),
                    kind: Kind::Int64Map,
                    repeated: false,
                },
                ["repeated", type_name, name] => Field {
                    json_name: json_name(name),
                    kind: kind_of(type_name),
                    repeated: true,
                },
                [type_name, name] => Field {
                    json_name: json_name(name),
                    kind: kind_of(type_name),
                    repeated: false,
                },
                _ => continue,
            };
            fields.push(field);
        } else if let Some(rest) = line.strip_prefix("message ") {
            let name = rest.trim_end_matches('{').trim().to_owned();
            current = Some((name, Vec::new()));
        }
    }
    messages
}

/// Checks an `Any`: its `@type` names a message of the file, and the rest
/// of its keys are that message in proto3 JSON.
pub fn check_any(value: &Value) -> Result<(), String> {
    let object = value.as_object().ok_or("an Any is a JSON object")?;
    let full_name = object
        .get("@type")
        .and_then(Value::as_str)
        .and_then(|url| url.strip_prefix(ANY_PREFIX))
        .ok_or("an Any has an @type of type.googleapis.com/<message>")?;
    let mut fields = object.clone();
    fields.remove("@type");
    check_message(full_name, &Value::Object(fields))
}

fn check_message(full_name: &str, value: &Value) -> Result<(), String> {
    let declared = messages()
        .get(full_name)
        .ok_or_else(|| format!("{full_name} is not in operations.proto"))?;
    let object = value
        .as_object()
        .ok_or_else(|| format!("{full_name} is written as a JSON object"))?;
    for (key, value) in object {
        let field = declared
            .iter()
            .find(|field| &field.json_name == key)
            .ok_or_else(|| format!("{full_name} has no field {key:?}"))?;
        let at = format!("{full_name}.{key}");
        if field.repeated {
            let items = value
                .as_array()
                .ok_or_else(|| format!("{at} is repeated: a JSON array"))?;
            if items.is_empty() {
                return Err(format!("{at} is empty, which the printer leaves out"));
            }
            for item in items {
                check_value(&at, &field.kind, item, false)?;
            }
        } else {
            check_value(&at, &field.kind, value, true)?;
        }
    }
    Ok(())
}

fn check_value(at: &str, kind: &Kind, value: &Value, singular: bool) -> Result<(), String> {
    let wrong = |form: &str| Err(format!("{at} should be {form}, not {value}"));
    let default = |is_default: bool| {
        if singular && is_default {
            Err(format!(
                "{at} holds its default, which the printer leaves out"
            ))
        } else {
            Ok(())
        }
    };
    match kind {
        Kind::String => match value.as_str() {
            Some(text) => default(text.is_empty()),
            None => wrong("a string"),
        },
        Kind::Int64 => match value.as_str().map(str::parse::<i64>) {
            Some(Ok(number)) => default(number == 0),
            _ => wrong("an int64 as a decimal string"),
        },
        Kind::Int32 => match value.as_i64() {
            Some(number) if i32::try_from(number).is_ok() => default(number == 0),
            _ => wrong("an int32 as a JSON number"),
        },
        Kind::Bool => match value.as_bool() {
            Some(flag) => default(!flag),
            None => wrong("a boolean"),
        },
        Kind::Timestamp => match value.as_str() {
            Some(text) if text.len() >= 20 && text.ends_with('Z') && text.contains('T') => Ok(()),
            _ => wrong("an RFC 3339 time in UTC"),
        },
        Kind::Duration => match value.as_str() {
            Some(text) if super::proto_json::parse_duration(text).is_ok() => Ok(()),
            _ => wrong("a duration such as \"1.5s\""),
        },
        Kind::Message(name) => check_message(name, value),
        Kind::Int64Map => {
            let entries = value
                .as_object()
                .ok_or_else(|| format!("{at} is a map: a JSON object"))?;
            if singular && entries.is_empty() {
                return default(true);
            }
            for (key, entry) in entries {
                check_value(&format!("{at}[{key:?}]"), &Kind::Int64, entry, false)?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::operation_kind::ALL;
    use serde_json::json;

    #[test]
    fn every_kind_names_messages_the_file_declares() {
        for kind in ALL {
            assert!(declares(kind.metadata_type()), "{}", kind.metadata_type());
            assert!(declares(kind.response_type()), "{}", kind.response_type());
        }
        let metadata = &messages()["tally.v1.BackupMetadata"];
        assert_eq!(
            metadata,
            &[
                Field {
                    json_name: "progress".into(),
                    kind: Kind::Message("tally.v1.OperationProgress".into()),
                    repeated: false
                },
                Field {
                    json_name: "pagesTotal".into(),
                    kind: Kind::Int64,
                    repeated: false
                },
                Field {
                    json_name: "pagesCopied".into(),
                    kind: Kind::Int64,
                    repeated: false
                },
            ]
        );
        assert_eq!(
            messages()["tally.v1.RestoreCheckResponse"][1].kind,
            Kind::Int64Map
        );
        assert!(messages()["tally.v1.BankSyncResponse"][0].repeated);
    }

    #[test]
    fn what_the_printer_writes_passes() {
        let metadata = json!({
            "@type": "type.googleapis.com/tally.v1.BackupMetadata",
            "progress": {
                "owner": "users/1", "kind": "backup",
                "createTime": "2026-11-27T10:00:00Z",
                "updateTime": "2026-11-27T10:00:01.250Z",
                "percentDone": 40
            },
            "pagesTotal": "10", "pagesCopied": "4"
        });
        assert_eq!(check_any(&metadata), Ok(()));
        let response = json!({
            "@type": "type.googleapis.com/tally.v1.BankSyncResponse",
            "accounts": [{"accountId": "3", "name": "Checking", "added": "2", "monitored": true}],
            "transactionsAdded": "2"
        });
        assert_eq!(check_any(&response), Ok(()));
        let sleep = json!({"@type": "type.googleapis.com/tally.v1.SleepResponse", "slept": "0s"});
        assert_eq!(check_any(&sleep), Ok(()));
        let check = json!({
            "@type": "type.googleapis.com/tally.v1.RestoreCheckResponse",
            "backupFile": "b.db", "tableRows": {"bills": "0", "users": "1"}, "totalRows": "1"
        });
        assert_eq!(check_any(&check), Ok(()));
    }

    #[test]
    fn a_field_the_file_lacks_or_writes_otherwise_is_named() {
        let cases = [
            (
                json!({"@type": "type.googleapis.com/tally.v1.BackupResponse", "fileSize": "1"}),
                "tally.v1.BackupResponse has no field \"fileSize\"",
            ),
            (
                json!({"@type": "type.googleapis.com/tally.v1.BackupResponse", "rows": 5}),
                "tally.v1.BackupResponse.rows should be an int64",
            ),
            (
                json!({"@type": "type.googleapis.com/tally.v1.BackupResponse", "rows": "0"}),
                "holds its default",
            ),
            (
                json!({"@type": "type.googleapis.com/tally.v1.BackupMetadata",
                       "progress": {"percentDone": "40"}}),
                "tally.v1.OperationProgress.percentDone should be an int32",
            ),
            (
                json!({"@type": "type.googleapis.com/tally.v1.SleepMetadata", "duration": "5"}),
                "should be a duration",
            ),
            (
                json!({"@type": "type.googleapis.com/tally.v1.Nope"}),
                "tally.v1.Nope is not in operations.proto",
            ),
            (json!({"rows": "1"}), "an @type"),
        ];
        for (value, expected) in cases {
            let problem = check_any(&value).expect_err("refused");
            assert!(problem.contains(expected), "{problem} / {expected}");
        }
    }
}
