//! Showing the server's UTC timestamps (`2026-11-22T01:16:05.123Z`) briefly.

/// "2026-11-22 01:16": date and minute.
pub fn minute(stamp: &str) -> String {
    stamp.replace('T', " ").chars().take(16).collect()
}

/// "2026-11-22": the date alone.
pub fn day(stamp: &str) -> &str {
    stamp.get(..10).unwrap_or(stamp)
}

#[cfg(test)]
mod tests {
    #[test]
    fn shortens_rfc3339_stamps() {
        assert_eq!(
            super::minute("2026-11-22T01:16:05.123Z"),
            "2026-11-22 01:16"
        );
        assert_eq!(super::day("2026-11-22T01:16:05.123Z"), "2026-11-22");
        assert_eq!(super::day("short"), "short");
    }
}
