//! The `tally.v1` messages of `proto/tally/v1/operations.proto` as Rust
//! types: every operation kind builds its metadata and response from these
//! (never from loose JSON), and each writes itself in the proto3 JSON
//! mapping through `proto_json::Fields` (int64 as a string, defaults left
//! out). A kind's metadata type here leaves out its `progress` field,
//! which the record adds (`OperationProgress`) when it answers.
//!
//! The proto and these types cannot drift: a test writes every type with
//! every field set and checks it against the file (`proto_schema`), both
//! ways: each key a field of the message with the right JSON type, and each
//! field of the message written.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;

use super::proto_json::{self, Fields};

/// A `tally.v1` message.
pub trait Message {
    /// Its full name (`tally.v1.BackupResponse`).
    const NAME: &'static str;
    /// Its fields in proto3 JSON (an object, without `@type`).
    fn to_json(&self) -> Value;
}

/// A `google.protobuf.Timestamp`, as stored (`2026-11-22T04:50:00.123Z`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timestamp(pub String);

/// One field's type: how it is written, and (for the test) a value that
/// is not its default.
pub trait FieldValue {
    fn write(&self, fields: Fields, name: &str) -> Fields;
    #[cfg(test)]
    fn sample() -> Self;
}

impl FieldValue for String {
    fn write(&self, fields: Fields, name: &str) -> Fields {
        fields.string(name, self)
    }
    #[cfg(test)]
    fn sample() -> Self {
        "x".to_owned()
    }
}

impl FieldValue for i64 {
    fn write(&self, fields: Fields, name: &str) -> Fields {
        fields.int64(name, *self)
    }
    #[cfg(test)]
    fn sample() -> Self {
        7
    }
}

impl FieldValue for i32 {
    fn write(&self, fields: Fields, name: &str) -> Fields {
        fields.int32(name, *self)
    }
    #[cfg(test)]
    fn sample() -> Self {
        40
    }
}

impl FieldValue for bool {
    fn write(&self, fields: Fields, name: &str) -> Fields {
        fields.bool(name, *self)
    }
    #[cfg(test)]
    fn sample() -> Self {
        true
    }
}

impl FieldValue for Duration {
    fn write(&self, fields: Fields, name: &str) -> Fields {
        fields.message(name, Value::String(proto_json::duration(*self)))
    }
    #[cfg(test)]
    fn sample() -> Self {
        Duration::from_millis(1500)
    }
}

/// A Timestamp field is written only when set.
impl FieldValue for Option<Timestamp> {
    fn write(&self, fields: Fields, name: &str) -> Fields {
        match self {
            Some(Timestamp(stored)) => {
                fields.message(name, Value::String(proto_json::timestamp(stored)))
            }
            None => fields,
        }
    }
    #[cfg(test)]
    fn sample() -> Self {
        Some(Timestamp("2026-11-22T04:50:00.000Z".to_owned()))
    }
}

impl FieldValue for Vec<i64> {
    fn write(&self, fields: Fields, name: &str) -> Fields {
        let items = self
            .iter()
            .map(|value| Value::String(value.to_string()))
            .collect();
        fields.repeated(name, items)
    }
    #[cfg(test)]
    fn sample() -> Self {
        vec![7]
    }
}

impl FieldValue for Vec<String> {
    fn write(&self, fields: Fields, name: &str) -> Fields {
        let items = self.iter().cloned().map(Value::String).collect();
        fields.repeated(name, items)
    }
    #[cfg(test)]
    fn sample() -> Self {
        vec!["x".to_owned()]
    }
}

/// `map<string, int64>`.
impl FieldValue for BTreeMap<String, i64> {
    fn write(&self, fields: Fields, name: &str) -> Fields {
        let entries: Vec<(String, i64)> = self
            .iter()
            .map(|(key, value)| (key.clone(), *value))
            .collect();
        fields.int64_map(name, &entries)
    }
    #[cfg(test)]
    fn sample() -> Self {
        BTreeMap::from([("bills".to_owned(), 0)])
    }
}

/// A `repeated` field of messages.
impl<M: Message + FieldValue> FieldValue for Vec<M> {
    fn write(&self, fields: Fields, name: &str) -> Fields {
        fields.repeated(name, self.iter().map(Message::to_json).collect())
    }
    #[cfg(test)]
    fn sample() -> Self {
        vec![M::sample()]
    }
}

/// Declares messages: each struct, its [`Message`] impl (fields written
/// under their proto3 JSON names, from the Rust names) and, for the test,
/// itself with every field set.
macro_rules! messages {
    ($(
        $(#[$doc:meta])*
        $name:ident {
            $($(#[$field_doc:meta])* $field:ident: $kind:ty,)*
        }
    )*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Debug, Default, PartialEq)]
            pub struct $name {
                $($(#[$field_doc])* pub $field: $kind,)*
            }

            impl Message for $name {
                const NAME: &'static str = concat!("tally.v1.", stringify!($name));

                fn to_json(&self) -> Value {
                    let fields = Fields::new();
                    $(let fields = self.$field.write(fields, &proto_json::json_name(stringify!($field)));)*
                    fields.build()
                }
            }

            impl FieldValue for $name {
                fn write(&self, fields: Fields, name: &str) -> Fields {
                    fields.message(name, self.to_json())
                }
                #[cfg(test)]
                fn sample() -> Self {
                    Self { $($field: <$kind as FieldValue>::sample(),)* }
                }
            }
        )*

        /// Every message declared here with every field set, by full name.
        #[cfg(test)]
        pub(crate) fn samples() -> Vec<(&'static str, Value)> {
            vec![$((<$name as Message>::NAME, <$name as FieldValue>::sample().to_json()),)*]
        }
    };
}

messages! {
    /// What every operation's metadata carries, whatever its kind.
    OperationProgress {
        /// `users/{id}`.
        owner: String,
        kind: String,
        create_time: Option<Timestamp>,
        update_time: Option<Timestamp>,
        end_time: Option<Timestamp>,
        percent_done: i32,
        cancel_requested: bool,
    }

    /// Metadata of `backup` (without `progress`).
    BackupMetadata {
        pages_total: i64,
        pages_copied: i64,
    }

    BackupResponse {
        file_name: String,
        size_bytes: i64,
        tables: i64,
        rows: i64,
    }

    /// Metadata of `restore_check` (without `progress`).
    RestoreCheckMetadata {
        backup_file: String,
        tables_total: i64,
        tables_checked: i64,
    }

    RestoreCheckResponse {
        backup_file: String,
        table_rows: BTreeMap<String, i64>,
        total_rows: i64,
        min_rows: i64,
    }

    /// Metadata of `restore` (without `progress`).
    RestoreMetadata {
        backup_file: String,
        phase: String,
    }

    RestoreResponse {
        backup_file: String,
        saved_as: String,
        tables: i64,
        rows: i64,
        schema_version: String,
        pending_migrations: i64,
        sessions_ended: i64,
        tokens_revoked: i64,
        invitations_revoked: i64,
        accounts_kept: i64,
        calendar_feeds_revoked: i64,
        identities_unlinked: i64,
        channels_removed: i64,
        kept_live: Vec<String>,
    }

    /// Metadata of `reencrypt_secrets` (without `progress`).
    ReencryptSecretsMetadata {
        secrets_total: i64,
        secrets_done: i64,
    }

    ReencryptSecretsResponse {
        secrets_reencrypted: i64,
    }

    /// Metadata of `sleep` (without `progress`).
    SleepMetadata {
        duration: Duration,
        fail: bool,
    }

    SleepResponse {
        slept: Duration,
    }

    /// Metadata of `bank_sync`, `bank_sync_all` and `bank_backfill`
    /// (without `progress`).
    BankSyncMetadata {
        connection_ids: Vec<i64>,
        reason: String,
        accounts: Vec<BankAccountSynced>,
        connections_done: i64,
        connections_total: i64,
        queued: bool,
    }

    BankAccountSynced {
        account_id: i64,
        name: String,
        added: i64,
        seen: i64,
        pending: i64,
        monitored: bool,
    }

    BankSyncFailure {
        connection_id: i64,
        message: String,
    }

    BankSyncResponse {
        accounts: Vec<BankAccountSynced>,
        transactions_added: i64,
        provider_messages: Vec<String>,
        failed_connections: Vec<BankSyncFailure>,
        transactions_matched: i64,
    }

    /// Metadata of `notifications_run` (without `progress`).
    NotificationsRunMetadata {
        users_total: i64,
        users_done: i64,
        sent: i64,
        failed: i64,
    }

    NotificationsRunResponse {
        users: i64,
        sent: i64,
        failed: i64,
        skipped: i64,
    }

    /// Metadata of `statement_preview` (without `progress`).
    StatementPreviewMetadata {
        import: i64,
        rows_done: i64,
        rows_total: i64,
    }

    StatementPreviewResponse {
        import: i64,
        rows: i64,
        new_rows: i64,
        duplicates: i64,
        refused: i64,
        first_day: String,
        last_day: String,
    }

    /// Metadata of `statement_import` (without `progress`).
    StatementImportMetadata {
        import: i64,
        rows_done: i64,
        rows_total: i64,
    }

    StatementImportResponse {
        import: i64,
        added: i64,
        already_there: i64,
        matched: i64,
    }
}

#[cfg(test)]
mod tests {
    use super::super::proto_schema;
    use super::*;

    /// Messages of the file that are no operation's metadata or response.
    const NOT_WRITTEN: &[&str] = &["tally.v1.SleepRequest"];

    #[test]
    fn every_message_type_writes_exactly_the_fields_of_the_file() {
        let samples = samples();
        for (name, json) in &samples {
            let any = proto_json::any(name, json);
            proto_schema::check_any(&any).unwrap_or_else(|problem| panic!("{name}: {problem}"));
            let mut missing = proto_schema::fields_of(name).unwrap_or_default();
            missing.retain(|field| json.get(field).is_none());
            // The record adds a metadata's progress.
            if name.ends_with("Metadata") {
                missing.retain(|field| field != "progress");
            }
            assert!(missing.is_empty(), "{name} never writes {missing:?}");
        }
        // And every message of the file has its type here.
        for declared in proto_schema::declared() {
            assert!(
                NOT_WRITTEN.contains(&declared)
                    || samples.iter().any(|(name, _)| *name == declared),
                "{declared} has no Rust type"
            );
        }
    }

    #[test]
    fn defaults_are_left_out_as_the_printer_does() {
        assert_eq!(BackupResponse::default().to_json(), serde_json::json!({}));
        let synced = BankSyncResponse {
            accounts: vec![BankAccountSynced {
                account_id: 3,
                ..BankAccountSynced::default()
            }],
            transactions_added: 9_007_199_254_740_993,
            ..BankSyncResponse::default()
        };
        assert_eq!(
            synced.to_json(),
            serde_json::json!({
                "accounts": [{"accountId": "3"}],
                "transactionsAdded": "9007199254740993"
            })
        );
    }
}
