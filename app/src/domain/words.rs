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

/// `text` with every filesystem path replaced by `…`: an error may name
/// the file it failed on, and Status never shows a path. A path starts a
/// word or follows a field's `=`, `:` or an opening bracket or quote, and
/// is absolute (`/data/db`), relative to here or home (`./data`, `../x`,
/// `~/x`); the words after it that still hold a `/` are taken as part of
/// it (a directory name with a space), so nothing of it is left showing.
pub fn without_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_path = false;
    let mut first = true;
    let mut push = |out: &mut String, word: &str| {
        if !first {
            out.push(' ');
        }
        first = false;
        out.push_str(word);
    };
    for word in text.split(' ') {
        match path_start(word) {
            Some(at) => {
                // `error=` and its `…` stay one word.
                let before = &word[..at];
                if before.chars().any(char::is_alphanumeric) {
                    push(&mut out, &format!("{before}…"));
                } else {
                    push(&mut out, "…");
                }
                in_path = true;
            }
            None if in_path && word.contains('/') => {}
            None => {
                push(&mut out, word);
                in_path = false;
            }
        }
    }
    out
}

/// Where a path begins in `word`, if one does.
fn path_start(word: &str) -> Option<usize> {
    let boundary =
        |at: usize| at == 0 || word[..at].ends_with(['=', ':', '(', '[', '"', '\'', ',']);
    word.char_indices().find_map(|(at, c)| {
        let rest = &word[at..];
        let absolute = c == '/' && rest[1..].starts_with(|n: char| n != '/' && n != ' ');
        let relative = rest.starts_with("./") || rest.starts_with("../") || rest.starts_with("~/");
        ((absolute || relative) && boundary(at)).then_some(at)
    })
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
        // A logged field's value, relative paths, and a directory with a
        // space in its name.
        assert_eq!(
            without_paths("cannot start error=/data/db/bills.db: disk I/O error"),
            "cannot start error=… disk I/O error"
        );
        assert_eq!(
            without_paths("no such file: ./data/db/bills.db"),
            "no such file: …"
        );
        assert_eq!(without_paths("at ~/tally/logs now"), "at … now");
        assert_eq!(
            without_paths("cannot write /srv/my tally/data/backups: denied"),
            "cannot write … denied"
        );
        assert_eq!(
            without_paths("path=\"/var/lib/tally\" gone"),
            "path=\"… gone"
        );
        // Not paths: a descriptor, a rate, a URL's path inside a word.
        assert_eq!(
            without_paths("APPLE.COM/BILL 12 req/s https://example.com/x"),
            "APPLE.COM/BILL 12 req/s https://example.com/x"
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
