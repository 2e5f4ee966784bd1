//! The last errors the server logged, read back from the JSON log files in
//! `LOG_DIR` (one per day, `tally.YYYY-MM-DD.log`), so they outlive a
//! restart. Bounded: the newest two files, the last 1 MiB of each.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde::Deserialize;

use crate::domain::words::without_paths;

const FILES: usize = 2;
const TAIL_BYTES: u64 = 1024 * 1024;

/// One logged error: when, and what it said (paths left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedError {
    pub at: String,
    pub message: String,
}

#[derive(Deserialize)]
struct Line {
    timestamp: String,
    level: String,
    #[serde(default)]
    fields: serde_json::Map<String, serde_json::Value>,
}

/// The newest `limit` errors, newest first.
pub fn recent(log_dir: &Path, limit: usize) -> Vec<LoggedError> {
    let Ok(entries) = std::fs::read_dir(log_dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("tally.") && name.ends_with(".log"))
        })
        .collect();
    files.sort_unstable_by(|a, b| b.cmp(a));
    let mut found = Vec::new();
    for file in files.iter().take(FILES) {
        let Some(text) = tail(file) else { continue };
        found.extend(errors_in(&text).into_iter().rev());
        if found.len() >= limit {
            break;
        }
    }
    found.truncate(limit);
    found
}

fn tail(path: &Path) -> Option<String> {
    let mut file = std::fs::File::open(path).ok()?;
    let length = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(length.saturating_sub(TAIL_BYTES)))
        .ok()?;
    let mut bytes = Vec::new();
    file.take(TAIL_BYTES).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The errors among JSON log lines, oldest first (a partial first line is
/// skipped like any line that does not parse).
fn errors_in(text: &str) -> Vec<LoggedError> {
    text.lines()
        .filter(|line| line.contains("\"ERROR\""))
        .filter_map(|line| serde_json::from_str::<Line>(line).ok())
        .filter(|line| line.level == "ERROR")
        .map(|line| {
            let mut message = line
                .fields
                .get("message")
                .and_then(|value| value.as_str())
                .unwrap_or("")
                .to_owned();
            for (key, value) in &line.fields {
                if key != "message" {
                    let value = value
                        .as_str()
                        .map_or_else(|| value.to_string(), str::to_owned);
                    message.push_str(&format!(" {key}={value}"));
                }
            }
            LoggedError {
                at: line.timestamp,
                message: without_paths(message.trim()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_errors_are_read_newest_first_without_paths() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("tally.2026-11-22.log"),
            concat!(
                r#"{"timestamp":"2026-11-22T10:00:00Z","level":"ERROR","fields":{"message":"old one"},"target":"x"}"#,
                "\n"
            ),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("tally.2026-11-23.log"),
            concat!(
                "partial line\n",
                r#"{"timestamp":"2026-11-23T09:00:00Z","level":"INFO","fields":{"message":"fine"},"target":"x"}"#,
                "\n",
                r#"{"timestamp":"2026-11-23T09:01:00Z","level":"ERROR","fields":{"message":"backup failed","error":"open /data/backups/x: denied"},"target":"x"}"#,
                "\n",
                r#"{"timestamp":"2026-11-23T09:02:00Z","level":"ERROR","fields":{"message":"crm down","attempt":3},"target":"x"}"#,
                "\n",
            ),
        )
        .unwrap();
        std::fs::write(dir.path().join("other.log"), "ERROR").unwrap();

        let found = recent(dir.path(), 10);
        let messages: Vec<&str> = found.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "crm down attempt=3",
                "backup failed error=open … denied",
                "old one"
            ]
        );
        assert_eq!(found[0].at, "2026-11-23T09:02:00Z");
        assert_eq!(recent(dir.path(), 1).len(), 1);
        assert!(recent(&dir.path().join("missing"), 10).is_empty());
    }
}
