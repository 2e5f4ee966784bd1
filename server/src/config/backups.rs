//! The backups section: how many are kept and what a restore check
//! demands, as the app's own `BackupSettings`.

use app::backend::backup::BackupSettings;

use super::env::Env;
use super::ConfigError;

pub(super) fn backups<F>(env: &Env<F>) -> Result<BackupSettings, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    Ok(BackupSettings {
        restore_min_rows: env.parse_or("RESTORE_MIN_ROWS", 0, |raw| match raw.parse::<i64>() {
            Ok(rows) if rows >= 0 => Ok(rows),
            _ => Err("expected a whole number of rows, 0 or more".to_owned()),
        })?,
        keep: env.parse_or("BACKUP_KEEP", 7, |raw| match raw.parse::<usize>() {
            Ok(keep) if (1..=1000).contains(&keep) => Ok(keep),
            _ => Err("expected a whole number from 1 to 1000".to_owned()),
        })?,
    })
}
