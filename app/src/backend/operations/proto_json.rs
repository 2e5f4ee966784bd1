//! Values in the proto3 JSON mapping, as protobuf's JSON printer writes
//! them: `Duration` as `"1.500s"` (0, 3, 6 or 9 fractional digits),
//! `Timestamp` as RFC 3339 in UTC with the same fractions, int64 as a
//! string, and fields holding their default value left out.

use std::time::Duration;

use serde_json::{Map, Value};

/// `Duration` in proto3 JSON.
pub fn duration(value: Duration) -> String {
    let seconds = value.as_secs();
    let nanos = value.subsec_nanos();
    if nanos == 0 {
        format!("{seconds}s")
    } else if nanos.is_multiple_of(1_000_000) {
        format!("{seconds}.{:03}s", nanos / 1_000_000)
    } else if nanos.is_multiple_of(1_000) {
        format!("{seconds}.{:06}s", nanos / 1_000)
    } else {
        format!("{seconds}.{nanos:09}s")
    }
}

/// Reads a proto3 JSON `Duration` (`"5s"`, `"2.5s"`, `"0.000000001s"`);
/// negative values are refused (no Tally field takes one).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("{text:?} is not a duration like \"5s\" or \"2.5s\"");
    let number = text.strip_suffix('s').ok_or_else(bad)?;
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if fraction.len() > 9 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if number.contains('.') && fraction.is_empty() {
        return Err(bad());
    }
    let seconds: u64 = whole.parse().map_err(|_| bad())?;
    if seconds > 315_576_000_000 {
        return Err(bad());
    }
    let nanos: u32 = format!("{fraction:0<9}").parse().map_err(|_| bad())?;
    Ok(Duration::new(seconds, nanos))
}

/// A stored time (`2026-11-22T04:50:00.123Z`, SQLite's `%f`) as a proto3
/// JSON `Timestamp`: the printer drops an all-zero fraction.
pub fn timestamp(stored: &str) -> String {
    match stored.strip_suffix(".000Z") {
        Some(whole) => format!("{whole}Z"),
        None => stored.to_owned(),
    }
}

/// A field's `snake_case` name as proto3 JSON names it: `lowerCamelCase`.
pub fn json_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Builds one message's JSON object, leaving out default values the way
/// the printer does.
#[derive(Default)]
pub struct Fields(Map<String, Value>);

impl Fields {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn string(mut self, name: &str, value: &str) -> Self {
        if !value.is_empty() {
            self.0
                .insert(name.to_owned(), Value::String(value.to_owned()));
        }
        self
    }

    pub fn int64(mut self, name: &str, value: i64) -> Self {
        if value != 0 {
            self.0
                .insert(name.to_owned(), Value::String(value.to_string()));
        }
        self
    }

    pub fn int32(mut self, name: &str, value: i32) -> Self {
        if value != 0 {
            self.0.insert(name.to_owned(), Value::from(value));
        }
        self
    }

    pub fn bool(mut self, name: &str, value: bool) -> Self {
        if value {
            self.0.insert(name.to_owned(), Value::Bool(true));
        }
        self
    }

    /// A message-typed field (Duration, Timestamp, a nested message): the
    /// printer writes a set message field even when it is "empty".
    pub fn message(mut self, name: &str, value: Value) -> Self {
        self.0.insert(name.to_owned(), value);
        self
    }

    /// A `repeated` field: left out when empty, as the printer does.
    pub fn repeated(mut self, name: &str, items: Vec<Value>) -> Self {
        if !items.is_empty() {
            self.0.insert(name.to_owned(), Value::Array(items));
        }
        self
    }

    /// A `map<string, int64>`: every entry is written, zeros too.
    pub fn int64_map(mut self, name: &str, entries: &[(String, i64)]) -> Self {
        if !entries.is_empty() {
            let map = entries
                .iter()
                .map(|(key, value)| (key.clone(), Value::String(value.to_string())))
                .collect();
            self.0.insert(name.to_owned(), Value::Object(map));
        }
        self
    }

    pub fn build(self) -> Value {
        Value::Object(self.0)
    }
}

/// An `Any` holding `message` of type `full_name`.
pub fn any(full_name: &str, message: &Value) -> Value {
    let mut object = Map::new();
    object.insert(
        "@type".to_owned(),
        Value::String(format!("type.googleapis.com/{full_name}")),
    );
    if let Value::Object(fields) = message {
        object.extend(fields.clone());
    }
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_print_like_protobuf() {
        assert_eq!(duration(Duration::from_secs(30)), "30s");
        assert_eq!(duration(Duration::from_millis(200)), "0.200s");
        assert_eq!(duration(Duration::from_micros(1_500_001)), "1.500001s");
        assert_eq!(duration(Duration::from_nanos(1)), "0.000000001s");
    }

    #[test]
    fn durations_parse_and_bad_ones_are_named() {
        assert_eq!(parse_duration("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_duration("2.5s"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("0.000000001s"), Ok(Duration::from_nanos(1)));
        for bad in [
            "5",
            "-1s",
            "1.s",
            ".5s",
            "1.0000000001s",
            "s",
            "5 s",
            "1e3s",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn timestamps_drop_a_zero_fraction_only() {
        assert_eq!(
            timestamp("2026-11-22T04:50:00.000Z"),
            "2026-11-22T04:50:00Z"
        );
        assert_eq!(
            timestamp("2026-11-22T04:50:00.120Z"),
            "2026-11-22T04:50:00.120Z"
        );
    }

    #[test]
    fn defaults_are_left_out_and_int64_is_a_string() {
        let fields = Fields::new()
            .int64("zero", 0)
            .int64("big", 9_007_199_254_740_993)
            .bool("no", false)
            .string("empty", "")
            .int32("percent", 40)
            .repeated("none", Vec::new())
            .repeated("ids", vec![Value::from("7")])
            .build();
        assert_eq!(
            fields,
            serde_json::json!({ "big": "9007199254740993", "percent": 40, "ids": ["7"] })
        );
    }
}
