//! Text that people type: printable characters only. A control character
//! (NUL, escape, bell, …) never belongs in a name or a note; stored, it
//! breaks exports, logs and terminals that show it later. Multi-line fields
//! keep their line breaks (`\n`, or `\r\n` as browsers send them) and tabs,
//! since pasted text carries them. One rule for every form, in the browser
//! and on the server.

/// Whether a field holds one line or several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lines {
    One,
    Many,
}

/// What is wrong with `text` for a field of `lines`, or `None` when it is
/// plain text.
/// `text` with `&`, `<`, `>`, `"` and `'` escaped, for HTML built by hand
/// (an email's HTML part, a page the server writes itself).
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub fn plain_text_problem(text: &str, lines: Lines) -> Option<String> {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let allowed = lines == Lines::Many
            && (c == '\n' || c == '\t' || (c == '\r' && chars.peek() == Some(&'\n')));
        if allowed || !c.is_control() {
            continue;
        }
        return Some(if lines == Lines::One && matches!(c, '\n' | '\r') {
            "use a single line".to_owned()
        } else {
            format!(
                "remove the control character U+{:04X}; use printable text",
                u32::from(c)
            )
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_refused_and_line_breaks_only_where_lines_are_many() {
        for fine in ["Ada", "Zoë 🧾", "a\u{a0}b", ""] {
            assert_eq!(plain_text_problem(fine, Lines::One), None, "{fine:?}");
        }
        for (bad, says) in [
            ("a\u{0}b", "U+0000"),
            ("\u{1b}[2J", "U+001B"),
            ("del\u{7f}", "U+007F"),
            ("c1\u{85}", "U+0085"),
            ("tab\there", "U+0009"),
            ("two\nlines", "single line"),
            ("cr\rhere", "single line"),
        ] {
            let problem = plain_text_problem(bad, Lines::One).unwrap();
            assert!(problem.contains(says), "{bad:?}: {problem}");
        }
        assert_eq!(
            plain_text_problem("one\ntwo\r\nthree\tcol", Lines::Many),
            None
        );
        for bad in ["a\u{0}b", "lone\rreturn", "end\r", "bell\u{7}"] {
            assert!(plain_text_problem(bad, Lines::Many).is_some(), "{bad:?}");
        }
    }
}
