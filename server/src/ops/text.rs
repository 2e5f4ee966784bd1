//! Text from the other side (container logs, error messages, labels, the
//! stack file) printed to the operator's terminal. A terminal obeys what
//! it is sent: an escape sequence in a log line can recolour, retitle or
//! rewrite the screen (and on some terminals answer back), and a carriage
//! return can hide what came before it. So nothing printed by `tally ops`
//! carries a control character.

use std::borrow::Cow;

/// `text` without control characters (C0, DEL, C1) or the invisible
/// marks that reorder what is shown (bidirectional overrides and
/// isolates); tabs and line breaks become spaces, so one remote message
/// cannot pose as several lines of our own.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .filter_map(|c| match c {
                '\t' | '\n' => Some(' '),
                c if hidden(c) => None,
                c => Some(c),
            })
            .collect(),
    )
}

fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_invisible_reordering_are_dropped() {
        assert_eq!(printable("\u{1b}[31mred\u{1b}[0m"), "[31mred[0m");
        assert_eq!(printable("\u{1b}]0;title\u{7} rings"), "]0;title rings");
        assert_eq!(printable("over\rwritten\u{8}"), "overwritten");
        assert_eq!(printable("a\u{9b}b\u{7f}c"), "abc");
        assert_eq!(printable("x\u{202e}y\u{2066}z"), "xyz");
        assert_eq!(printable("one\ntwo\tthree"), "one two three");
        assert!(matches!(printable("plain — text ✓"), Cow::Borrowed(_)));
    }
}
