//! Sizes, spans and failures in words, as Admin Status and Backups show
//! them.

/// Bytes in words: 1.2 MB.
pub fn size(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} kB", bytes as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", bytes as f64 / 1e6),
        _ => format!("{:.1} GB", bytes as f64 / 1e9),
    }
}

/// Seconds in words: 3 d 4 h, 5 h 2 min, 7 min.
pub fn span(seconds: u64) -> String {
    let (days, hours, minutes) = (seconds / 86_400, seconds / 3_600 % 24, seconds / 60 % 60);
    match (days, hours) {
        (0, 0) => format!("{minutes} min"),
        (0, _) => format!("{hours} h {minutes} min"),
        _ => format!("{days} d {hours} h"),
    }
}

/// `text` with every absolute filesystem path replaced by `…`: an error may
/// name the file it failed on, and Status never shows a path.
pub fn without_paths(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            let bare = word.trim_start_matches(['(', '"', '\'']);
            if bare.starts_with('/') && bare.len() > 1 {
                "…"
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_left_out_of_failures() {
        assert_eq!(
            without_paths("backup directory /srv/tally/data/backups: permission denied"),
            "backup directory … permission denied"
        );
        assert_eq!(
            without_paths("cannot open (/data/db/bills.db) now"),
            "cannot open … now"
        );
        assert_eq!(
            without_paths("integrity check: ok / fine"),
            "integrity check: ok / fine"
        );
    }

    #[test]
    fn sizes_and_spans_read_as_words() {
        assert_eq!(size(999), "999 B");
        assert_eq!(size(1_250_000), "1.2 MB");
        assert_eq!(span(7 * 60), "7 min");
        assert_eq!(span(5 * 3600 + 120), "5 h 2 min");
        assert_eq!(span(3 * 86_400 + 4 * 3600), "3 d 4 h");
    }
}
