//! OFX's markup read as a stream of elements, for OFX 1 and OFX 2 alike.
//!
//! OFX 1 is SGML without its DTD: a value's end tag may be left out
//! (`<TRNAMT>-12.34` then the next tag), which a general XML or SGML parser
//! will not read. OFX 2 is the same tree written as XML, so one small reader
//! serves both: an element that holds text is a value and is closed by the
//! next tag; an element that holds elements is an aggregate and must be
//! closed by its own end tag. The reader is a loop over an explicit stack,
//! never recursion, and the stack is bounded by [`MAX_DEPTH`], so hostile
//! nesting costs neither the thread's stack nor much memory.

use std::borrow::Cow;

use super::{ParseError, MAX_DEPTH};

/// What the markup says, with OFX 1's unclosed values closed.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Event<'e> {
    /// An element that holds other elements starts.
    Open(&'e str),
    /// An element with no elements inside: its text, trimmed and with
    /// entities (`&amp;`) replaced.
    Leaf { name: &'e str, value: &'e str },
    /// An aggregate ends.
    Close(&'e str),
}

/// Where an event happens: the aggregates around it (outermost first, tag
/// names upper-cased) and the line its element starts on.
pub(super) struct Context<'e> {
    pub ancestors: &'e [String],
    pub line: usize,
}

/// Elements that hold a value even when it is empty: without a DTD an empty
/// `<MEMO>` followed by `<FITID>` would otherwise read as MEMO holding FITID.
const VALUES: &[&str] = &[
    "ACCTID",
    "ACCTKEY",
    "ACCTTYPE",
    "BALAMT",
    "BANKID",
    "BRANCHID",
    "CHECKNUM",
    "CODE",
    "CORRECTACTION",
    "CORRECTFITID",
    "CURDEF",
    "CURRATE",
    "CURSYM",
    "DTASOF",
    "DTAVAIL",
    "DTEND",
    "DTPOSTED",
    "DTSERVER",
    "DTSTART",
    "DTUSER",
    "EXTDNAME",
    "FID",
    "FITID",
    "INTU.BID",
    "INTU.USERID",
    "LANGUAGE",
    "MEMO",
    "MESSAGE",
    "NAME",
    "ORG",
    "PAYEEID",
    "REFNUM",
    "SEVERITY",
    "SIC",
    "SRVRTID",
    "TRNAMT",
    "TRNTYPE",
    "TRNUID",
];

/// An element that has started and not ended.
struct Element {
    text: String,
    line: usize,
    /// It has held an element, so it ends only with its end tag.
    aggregate: bool,
}

/// Reads `text`, calling `on` for each event in document order. Markup
/// before the first tag (the OFX 1 header) and processing instructions
/// (`<?xml ?>`, `<?OFX ?>`), comments and declarations are skipped.
pub(super) fn read(
    text: &str,
    on: impl FnMut(Event<'_>, Context<'_>) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    let mut reader = Reader {
        text,
        pos: 0,
        line: 1,
        names: Vec::new(),
        open: Vec::new(),
        on,
    };
    reader.run()
}

struct Reader<'t, F> {
    text: &'t str,
    pos: usize,
    line: usize,
    /// Names of the open elements, outermost first; parallel to `open`.
    names: Vec<String>,
    open: Vec<Element>,
    on: F,
}

impl<F> Reader<'_, F>
where
    F: FnMut(Event<'_>, Context<'_>) -> Result<(), ParseError>,
{
    fn run(&mut self) -> Result<(), ParseError> {
        while let Some(offset) = self.rest().find('<') {
            let lt = self.pos + offset;
            self.add_text(lt);
            let after = self.text.as_bytes().get(lt + 1).copied();
            match after {
                Some(b'!') if self.rest_at(lt).starts_with("<![CDATA[") => {
                    let body_start = lt + "<![CDATA[".len();
                    let end = self.find_from(body_start, "]]>", "a CDATA section")?;
                    let body = self.text.get(body_start..end).unwrap_or_default();
                    self.push_text(body);
                    self.advance_to(end + "]]>".len());
                }
                Some(b'!') if self.rest_at(lt).starts_with("<!--") => {
                    let end = self.find_from(lt + 4, "-->", "a comment")?;
                    self.advance_to(end + "-->".len());
                }
                Some(b'!' | b'?') => {
                    let end = self.find_from(lt, ">", "a declaration")?;
                    self.advance_to(end + 1);
                }
                Some(b'/') => {
                    let end = self.find_from(lt, ">", "a tag")?;
                    let inner = self.text.get(lt + 2..end).unwrap_or_default();
                    let name = tag_name(inner).ok_or_else(|| self.not_a_tag(inner))?;
                    self.advance_to(end + 1);
                    self.end(&name)?;
                }
                Some(b) if b.is_ascii_alphabetic() => {
                    let end = self.find_from(lt, ">", "a tag")?;
                    let inner = self.text.get(lt + 1..end).unwrap_or_default();
                    let name = tag_name(inner).ok_or_else(|| self.not_a_tag(inner))?;
                    let line = self.line;
                    self.advance_to(end + 1);
                    self.start(name, line, inner.ends_with('/'))?;
                }
                // A lone `<` in a value (`<NAME>I <3 NY`): text, as OFX 1
                // writers leave it.
                _ => {
                    self.push_text("<");
                    self.advance_to(lt + 1);
                }
            }
        }
        self.add_text(self.text.len());
        self.finish()
    }

    fn rest(&self) -> &str {
        self.rest_at(self.pos)
    }

    fn rest_at(&self, at: usize) -> &str {
        self.text.get(at..).unwrap_or_default()
    }

    /// Where `needle` starts, at or after `from`; the file ending first
    /// means it was cut off inside `what`.
    fn find_from(&self, from: usize, needle: &str, what: &str) -> Result<usize, ParseError> {
        self.rest_at(from)
            .find(needle)
            .map(|offset| from + offset)
            .ok_or_else(|| {
                ParseError::malformed(
                    format!("line {}", self.line),
                    format!("the file ends inside {what}"),
                )
            })
    }

    fn not_a_tag(&self, inner: &str) -> ParseError {
        let shown: String = inner.chars().take(40).collect();
        ParseError::malformed(
            format!("line {}", self.line),
            format!("<{shown}> is not a tag"),
        )
    }

    /// Moves to `to`, counting the lines passed.
    fn advance_to(&mut self, to: usize) {
        let passed = self.text.get(self.pos..to).unwrap_or_default();
        self.line += passed.bytes().filter(|b| *b == b'\n').count();
        self.pos = to;
    }

    /// The text up to `to` belongs to the element it is in.
    fn add_text(&mut self, to: usize) {
        let text = self.text.get(self.pos..to).unwrap_or_default();
        self.push_text(text);
        self.advance_to(to);
    }

    /// Text counts only inside a value; between elements it is layout.
    fn push_text(&mut self, text: &str) {
        if let Some(element) = self.open.last_mut() {
            if !element.aggregate {
                element.text.push_str(text);
            }
        }
    }

    fn start(&mut self, name: String, line: usize, empty: bool) -> Result<(), ParseError> {
        self.close_finished_value()?;
        if let Some(parent) = self.open.last_mut() {
            if !parent.aggregate {
                parent.aggregate = true;
                parent.text.clear();
                let line = parent.line;
                let split = self.names.len().saturating_sub(1);
                let (ancestors, own) = self.names.split_at(split);
                let own = own.first().map(String::as_str).unwrap_or_default();
                (self.on)(Event::Open(own), Context { ancestors, line })?;
            }
        }
        if empty {
            let context = Context {
                ancestors: &self.names,
                line,
            };
            return (self.on)(
                Event::Leaf {
                    name: &name,
                    value: "",
                },
                context,
            );
        }
        if self.open.len() >= MAX_DEPTH {
            return Err(ParseError::malformed(
                format!("line {line}"),
                format!("elements are nested more than {MAX_DEPTH} deep"),
            ));
        }
        self.names.push(name);
        self.open.push(Element {
            text: String::new(),
            line,
            aggregate: false,
        });
        Ok(())
    }

    /// OFX 1's `<TRNAMT>-12.34` ends where the next tag starts.
    fn close_finished_value(&mut self) -> Result<(), ParseError> {
        let finished = match (self.open.last(), self.names.last()) {
            (Some(element), Some(name)) => {
                !element.aggregate
                    && (!element.text.trim().is_empty() || VALUES.contains(&name.as_str()))
            }
            _ => false,
        };
        if finished {
            self.pop()?;
        }
        Ok(())
    }

    /// `</NAME>` ends NAME and whatever values inside it were left open.
    fn end(&mut self, name: &str) -> Result<(), ParseError> {
        let Some(index) = self.names.iter().rposition(|open| open == name) else {
            return Err(ParseError::malformed(
                format!("line {}", self.line),
                format!("</{name}> ends an element that was not started"),
            ));
        };
        while self.names.len() > index {
            self.pop()?;
        }
        Ok(())
    }

    /// Ends the innermost element: a value or an aggregate.
    fn pop(&mut self) -> Result<(), ParseError> {
        let (Some(element), Some(name)) = (self.open.pop(), self.names.pop()) else {
            return Ok(());
        };
        let context = Context {
            ancestors: &self.names,
            line: element.line,
        };
        if element.aggregate {
            (self.on)(Event::Close(&name), context)
        } else {
            let value = entities(element.text.trim());
            (self.on)(
                Event::Leaf {
                    name: &name,
                    value: &value,
                },
                context,
            )
        }
    }

    /// Values still open at the end are complete; an aggregate, or the
    /// outermost element (`<OFX>` alone), still open means the file was cut
    /// off.
    fn finish(&mut self) -> Result<(), ParseError> {
        while self.open.len() > 1 && self.open.last().is_some_and(|element| !element.aggregate) {
            self.pop()?;
        }
        match self.names.last() {
            None => Ok(()),
            Some(name) => Err(ParseError::malformed(
                format!("line {}", self.line),
                format!("the file ends before <{name}> is closed: is it complete?"),
            )),
        }
    }
}

/// The upper-cased name of `<NAME attr>`, `<NAME/>` or `</NAME>` (given
/// what is between the brackets, without the `/` of an end tag), if it is
/// one.
fn tag_name(inner: &str) -> Option<String> {
    if inner.contains('<') {
        return None;
    }
    let name = inner
        .trim_end_matches('/')
        .split(|c: char| c.is_ascii_whitespace())
        .next()?;
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | ':'));
    valid.then(|| name.to_ascii_uppercase())
}

/// `AT&amp;T` as `AT&T`. OFX 1 also leaves a bare `&` in values, which is
/// kept as it is, and so is any entity this does not know.
fn entities(text: &str) -> Cow<'_, str> {
    if !text.contains('&') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(rest.get(..amp).unwrap_or_default());
        let after = rest.get(amp + 1..).unwrap_or_default();
        // Entity names are short; looking further would make a value of
        // many bare `&` quadratic.
        let window_end = after.char_indices().nth(12).map_or(after.len(), |(i, _)| i);
        let window = after.get(..window_end).unwrap_or(after);
        let found = window
            .find(';')
            .and_then(|semi| Some((entity(window.get(..semi)?)?, semi)));
        match found {
            Some((c, semi)) => {
                out.push(c);
                rest = after.get(semi + 1..).unwrap_or_default();
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The character an entity (`amp`, `#233`, `#xE9`) stands for.
pub(super) fn entity(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some('\u{a0}'),
        _ => {
            let number = name.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code).filter(|c| *c != '\0')
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The events as text, `+AGG`, `NAME=value`, `-AGG`, with ancestors.
    fn events(text: &str) -> Result<Vec<String>, ParseError> {
        let mut seen = Vec::new();
        read(text, |event, context| {
            let path = context.ancestors.join("/");
            seen.push(match event {
                Event::Open(name) => format!("{path}+{name}@{}", context.line),
                Event::Leaf { name, value } => format!("{path}:{name}={value}@{}", context.line),
                Event::Close(name) => format!("{path}-{name}"),
            });
            Ok(())
        })?;
        Ok(seen)
    }

    #[test]
    fn unclosed_values_are_closed_by_the_next_tag() {
        let text = "OFXHEADER:100\n\n<OFX>\n<A>\n<B>1\n<C>x &amp; y\n</A>\n</OFX>\n";
        assert_eq!(
            events(text).unwrap(),
            [
                "+OFX@3",
                "OFX+A@4",
                "OFX/A:B=1@5",
                "OFX/A:C=x & y@6",
                "OFX-A",
                "-OFX",
            ]
        );
    }

    #[test]
    fn xml_reads_the_same() {
        let text = "<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\"?>\n<OFX><A><B>1</B><!-- x --><C/><D><![CDATA[a<b]]></D></A></OFX>";
        assert_eq!(
            events(text).unwrap(),
            [
                "+OFX@3",
                "OFX+A@3",
                "OFX/A:B=1@3",
                "OFX/A:C=@3",
                "OFX/A:D=a<b@3",
                "OFX-A",
                "-OFX",
            ]
        );
    }

    #[test]
    fn empty_known_values_do_not_swallow_the_next_element() {
        let text = "<OFX><STMTTRN><MEMO><NAME>Shop</STMTTRN></OFX>";
        assert_eq!(
            events(text).unwrap(),
            [
                "+OFX@1",
                "OFX+STMTTRN@1",
                "OFX/STMTTRN:MEMO=@1",
                "OFX/STMTTRN:NAME=Shop@1",
                "OFX-STMTTRN",
                "-OFX",
            ]
        );
    }

    #[test]
    fn a_lone_angle_bracket_is_text() {
        let events = events("<OFX><NAME>I <3 NY\n</OFX>").unwrap();
        assert_eq!(events[1], "OFX:NAME=I <3 NY@1");
    }

    #[test]
    fn broken_markup_says_where() {
        let cut = events("<OFX>\n<STMTRS>\n<TRNAMT>1").unwrap_err();
        assert!(
            matches!(cut, ParseError::Malformed { ref reason, .. } if reason.contains("<STMTRS>"))
        );
        assert!(events("<OFX>\n<TRN").is_err());
        assert!(events("<OFX></B></OFX>").is_err());
        assert!(events("<OFX><A B<C></OFX>").is_err());
        assert!(events("<OFX><!-- open").is_err());
    }

    #[test]
    fn entities_are_replaced_and_unknown_ones_kept() {
        assert_eq!(
            entities("AT&amp;T &#233;&#xE9; &x; a&b &#0;"),
            "AT&T éé &x; a&b &#0;"
        );
        assert_eq!(entities("&"), "&");
        assert_eq!(entities("&amp"), "&amp");
    }
}
