//! Where a page may send the user after signing in (`/login?next=…`).
//!
//! `next` comes from a link anyone can write, so following it blindly makes
//! the sign-in page an open redirect: browsers read `/\evil.example` (and
//! `/<tab>/evil.example`, whose tab they drop) as `//evil.example`, another
//! site. Only a plain path of this site is followed. Without a URL parser in
//! this crate the check is by hand and strict: a legitimate `next` is one of
//! our own page paths, so refusing anything unusual costs nothing.

/// Where a sign-in goes when `next` is missing or refused.
pub const AFTER_SIGN_IN: &str = "/tracker";

/// Longer than any page path of ours; a longer `next` is refused.
const MAX_LEN: usize = 2048;

/// How many layers of percent-encoding are looked through; a value still
/// encoded deeper than this is refused rather than trusted.
const MAX_LAYERS: usize = 4;

/// `next` itself when it is a path on this site, `None` otherwise.
///
/// Accepted: it starts with a single `/`; it has no backslash, control
/// character or whitespace anywhere; its path (before `?` or `#`) has no
/// empty segment (`//`) and no `.`/`..` segment. The same holds for every
/// percent-decoded form of it, so `/%5Cevil.example` and `/%2F%2Fevil` are
/// refused even if something on the way decodes them once more. A value
/// that starts with `/` carries no scheme and no host.
pub fn safe_next(next: &str) -> Option<&str> {
    if next.len() > MAX_LEN {
        return None;
    }
    let mut layer = next.to_owned();
    for _ in 0..=MAX_LAYERS {
        if !is_plain_path(&layer) {
            return None;
        }
        let decoded = percent_decode(&layer)?;
        if decoded == layer {
            return Some(next);
        }
        layer = decoded;
    }
    None
}

/// [`safe_next`], or [`AFTER_SIGN_IN`] when `next` is missing or refused.
pub fn next_or_default(next: Option<&str>) -> String {
    next.and_then(safe_next).unwrap_or(AFTER_SIGN_IN).to_owned()
}

fn is_plain_path(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('/') else {
        return false;
    };
    if text
        .chars()
        .any(|c| c == '\\' || c.is_control() || c.is_whitespace())
    {
        return false;
    }
    let path = rest.split(['?', '#']).next().unwrap_or_default();
    // No empty segment (`//`, which browsers read as another host once a
    // dot segment or a decoding step moves it to the front) and no `.` or
    // `..` segment; a trailing `/` is fine.
    !path.starts_with('/')
        && !path.contains("//")
        && path
            .split('/')
            .all(|segment| segment != "." && segment != "..")
}

/// One layer of percent-decoding; `%` not followed by two hex digits stays
/// as it is (as browsers read it). `None` when the bytes are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        let hex = |offset: usize| {
            bytes
                .get(index + offset)
                .and_then(|digit| char::from(*digit).to_digit(16))
        };
        match (byte, hex(1), hex(2)) {
            (b'%', Some(high), Some(low)) => {
                out.push(u8::try_from(high * 16 + low).ok()?);
                index += 3;
            }
            _ => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hostile_targets_are_refused() {
        for hostile in [
            "/%5Cevil.example",
            "/%5cevil.example",
            "/%255Cevil.example",
            "/\tevil",
            "/%09/evil.example",
            "/\t/evil.example",
            "/\n/evil",
            "/\r/evil",
            "/ /evil",
            "//evil",
            "///evil",
            "/\\evil",
            "\\\\evil",
            "https://evil",
            "HTTPS://evil",
            "javascript:alert(1)",
            "/%2F%2Fevil",
            "/%2f/evil",
            "%2F%2Fevil",
            "%2Fbills",
            "/..//evil",
            "/%2e%2e//evil",
            "/bills/../..",
            "/bills/./x",
            "/bills//x",
            "",
            "bills",
            "?next=/",
            "#/",
            "/\u{0}",
            "/\u{a0}evil",
            "/\u{2028}evil",
            "/%C0%AF",
            "/%FF",
        ] {
            assert_eq!(safe_next(hostile), None, "{hostile:?}");
        }
    }

    #[test]
    fn paths_of_this_site_are_kept() {
        for ok in [
            "/",
            "/ok?x=1#y",
            "/bills/3",
            "/bills/",
            "/tracker",
            "/operations?filter=done%3Dtrue",
            "/bills?q=a+b",
            "/bills/%C3%A9",
            "/bills/1?next=//evil",
            "/ok#//evil",
            "/a:b",
            "/100%",
            "/50%zz",
        ] {
            assert_eq!(safe_next(ok), Some(ok), "{ok:?}");
        }
    }

    #[test]
    fn a_missing_or_refused_next_goes_to_the_profile() {
        assert_eq!(next_or_default(None), "/tracker");
        assert_eq!(next_or_default(Some("/%5Cevil.example")), "/tracker");
        assert_eq!(next_or_default(Some("/bills/3")), "/bills/3");
    }

    #[test]
    fn overlong_and_deeply_encoded_values_are_refused() {
        let long = format!("/{}", "a".repeat(MAX_LEN));
        assert_eq!(safe_next(&long), None);
        // A harmless `/A` encoded once, three times more (kept), then four
        // times more (too deep to look through: refused).
        let mut deep = "/%41".to_owned();
        for _ in 1..MAX_LAYERS {
            deep = deep.replace('%', "%25");
        }
        assert_eq!(safe_next(&deep), Some(deep.as_str()));
        deep = deep.replace('%', "%25");
        assert_eq!(safe_next(&deep), None);
    }

    fn hostile_piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "\\", "%5C", "%5c", "%255C", "\t", "%09", "\n", "%0A", "\r", "%0d", " ", "%20",
            "\u{0}", "%00", "\u{7f}", "\u{a0}", "\u{3000}",
        ])
    }

    proptest! {
        /// Plain paths of named segments, with a query, are followed as given.
        #[test]
        fn plain_paths_are_kept(
            segments in prop::collection::vec("[A-Za-z0-9_~-]{1,12}", 0..6),
            query in "[A-Za-z0-9=&/.]{0,16}",
        ) {
            let mut path = format!("/{}", segments.join("/"));
            if !query.is_empty() {
                path = format!("{path}?{query}");
            }
            prop_assert_eq!(safe_next(&path), Some(path.as_str()));
        }

        /// A backslash, control character or whitespace anywhere, encoded
        /// or not, is refused wherever it sits.
        #[test]
        fn a_hostile_character_anywhere_is_refused(
            before in "/[a-z0-9/?=]{0,12}",
            piece in hostile_piece(),
            after in "[a-z0-9/?=]{0,12}",
        ) {
            let next = format!("{before}{piece}{after}");
            prop_assert_eq!(safe_next(&next), None);
        }

        /// Whatever is accepted starts with exactly one slash, before and
        /// after decoding, and names no scheme.
        #[test]
        fn whatever_is_accepted_is_a_rooted_path(next in "[/\\\\%:a-fA-F0-9.\t @?#]{0,12}") {
            if let Some(kept) = safe_next(&next) {
                let decoded = percent_decode(kept).unwrap_or_default();
                for form in [kept, decoded.as_str()] {
                    prop_assert!(form.starts_with('/'), "{:?}", form);
                    prop_assert!(!form.starts_with("//"), "{:?}", form);
                    prop_assert!(!form.contains('\\'), "{:?}", form);
                    prop_assert!(!form.chars().any(char::is_whitespace), "{:?}", form);
                }
            }
        }
    }
}
