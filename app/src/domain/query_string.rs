//! Query strings for links the pages build (`?q=…&show=…`).

/// `text` percent-encoded for a query string value: letters, digits and
/// `-._~` as they are, everything else (UTF-8 bytes) as `%XX`.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `path` with the non-empty `pairs` as its query string.
pub fn link(path: &str, pairs: &[(&str, &str)]) -> String {
    let query: Vec<String> = pairs
        .iter()
        .filter(|(_, value)| !value.is_empty())
        .map(|(name, value)| format!("{name}={}", encode(value)))
        .collect();
    if query.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", query.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_encoded_and_empty_ones_left_out() {
        assert_eq!(encode("a b&c=é"), "a%20b%26c%3D%C3%A9");
        assert_eq!(
            link(
                "/data/transactions",
                &[("q", "city power"), ("show", ""), ("page", "x_y")]
            ),
            "/data/transactions?q=city%20power&page=x_y"
        );
        assert_eq!(
            link("/data/transactions", &[("q", "")]),
            "/data/transactions"
        );
    }
}
