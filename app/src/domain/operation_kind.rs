//! The one registry of operation kinds, shared by the server (the engine,
//! storage, the filter) and the browser (the viewer's labels and kind
//! filter): each kind's name and label, its metadata and response message
//! (the spec's `operation_info`, fully qualified names from
//! `proto/tally/v1/operations.proto`) and whether it can start over after a
//! restart.

/// Every kind of operation Tally runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperationKind {
    Backup,
    RestoreCheck,
    /// A backup restored into the live database (after saving it first).
    Restore,
    ReencryptSecrets,
    /// Diagnostics only (`TALLY_DIAGNOSTICS`): sleeps, then succeeds or fails.
    Sleep,
    /// One bank connection's sync (the seed, or a routine sync).
    BankSync,
    /// Every bank connection of a user.
    BankSyncAll,
    /// One bank connection's whole 44-day window, again.
    BankBackfill,
    /// The daily reminders run (`backend::notifications`).
    NotificationsRun,
    /// A statement file read and compared with what is there
    /// (`backend::statements`).
    StatementPreview,
    /// A previewed statement file's new rows added.
    StatementImport,
}

pub const ALL: [OperationKind; 11] = [
    OperationKind::Backup,
    OperationKind::RestoreCheck,
    OperationKind::Restore,
    OperationKind::ReencryptSecrets,
    OperationKind::Sleep,
    OperationKind::BankSync,
    OperationKind::BankSyncAll,
    OperationKind::BankBackfill,
    OperationKind::NotificationsRun,
    OperationKind::StatementPreview,
    OperationKind::StatementImport,
];

impl OperationKind {
    /// The name stored in `operations.kind` and shown in metadata.
    pub fn name(self) -> &'static str {
        match self {
            Self::Backup => "backup",
            Self::RestoreCheck => "restore_check",
            Self::Restore => "restore",
            Self::ReencryptSecrets => "reencrypt_secrets",
            Self::Sleep => "sleep",
            Self::BankSync => "bank_sync",
            Self::BankSyncAll => "bank_sync_all",
            Self::BankBackfill => "bank_backfill",
            Self::NotificationsRun => "notifications_run",
            Self::StatementPreview => "statement_preview",
            Self::StatementImport => "statement_import",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The word the viewer shows.
    pub fn label(self) -> &'static str {
        match self {
            Self::Backup => "Backup",
            Self::RestoreCheck => "Restore check",
            Self::Restore => "Restore",
            Self::ReencryptSecrets => "Secret re-encryption",
            Self::Sleep => "Test task",
            Self::BankSync => "Bank sync",
            Self::BankSyncAll => "Bank sync (all connections)",
            Self::BankBackfill => "Bank backfill",
            Self::NotificationsRun => "Reminders run",
            Self::StatementPreview => "Statement preview",
            Self::StatementImport => "Statement import",
        }
    }

    /// The metadata message (`operation_info.metadata_type`).
    pub fn metadata_type(self) -> &'static str {
        match self {
            Self::Backup => "tally.v1.BackupMetadata",
            Self::RestoreCheck => "tally.v1.RestoreCheckMetadata",
            Self::Restore => "tally.v1.RestoreMetadata",
            Self::ReencryptSecrets => "tally.v1.ReencryptSecretsMetadata",
            Self::Sleep => "tally.v1.SleepMetadata",
            Self::BankSync | Self::BankSyncAll | Self::BankBackfill => "tally.v1.BankSyncMetadata",
            Self::NotificationsRun => "tally.v1.NotificationsRunMetadata",
            Self::StatementPreview => "tally.v1.StatementPreviewMetadata",
            Self::StatementImport => "tally.v1.StatementImportMetadata",
        }
    }

    /// The response message (`operation_info.response_type`).
    pub fn response_type(self) -> &'static str {
        match self {
            Self::Backup => "tally.v1.BackupResponse",
            Self::RestoreCheck => "tally.v1.RestoreCheckResponse",
            Self::Restore => "tally.v1.RestoreResponse",
            Self::ReencryptSecrets => "tally.v1.ReencryptSecretsResponse",
            Self::Sleep => "tally.v1.SleepResponse",
            Self::BankSync | Self::BankSyncAll | Self::BankBackfill => "tally.v1.BankSyncResponse",
            Self::NotificationsRun => "tally.v1.NotificationsRunResponse",
            Self::StatementPreview => "tally.v1.StatementPreviewResponse",
            Self::StatementImport => "tally.v1.StatementImportResponse",
        }
    }

    /// Whether only administrators may start it.
    pub fn admin_only(self) -> bool {
        !matches!(
            self,
            Self::BankSync
                | Self::BankSyncAll
                | Self::BankBackfill
                | Self::StatementPreview
                | Self::StatementImport
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_types_follow_the_naming_rule() {
        for kind in ALL {
            assert_eq!(OperationKind::parse(kind.name()), Some(kind));
            let base = kind.metadata_type().trim_end_matches("Metadata");
            assert_eq!(kind.response_type(), format!("{base}Response"));
            assert!(kind.metadata_type().starts_with("tally.v1."));
        }
        assert_eq!(OperationKind::parse("nope"), None);
    }
}
