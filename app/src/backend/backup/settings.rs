//! The backups section of the settings: how many backups are kept and
//! what a restore check demands.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackupSettings {
    /// How many backups to keep (`BACKUP_KEEP`, default 7).
    pub keep: usize,
    /// A restore check fails below this many rows over all tables
    /// (`RESTORE_MIN_ROWS`, default 0).
    pub restore_min_rows: i64,
}
