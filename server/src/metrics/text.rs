//! Writing the Prometheus text exposition format (version 0.0.4).

use std::fmt::Write as _;

/// `# HELP` and `# TYPE` lines for a metric.
pub fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// One sample: `name{label="value",…} value`.
pub fn sample(
    out: &mut String,
    name: &str,
    labels: &[(&str, &str)],
    value: impl std::fmt::Display,
) {
    out.push_str(name);
    if !labels.is_empty() {
        out.push('{');
        for (index, (label, text)) in labels.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            out.push_str(label);
            out.push_str("=\"");
            escape_into(out, text);
            out.push('"');
        }
        out.push('}');
    }
    let _ = writeln!(out, " {value}");
}

/// A label value with `\`, `"` and line breaks escaped.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            other => out.push(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_escape_label_values() {
        let mut out = String::new();
        header(&mut out, "tally_x", "gauge", "An example.");
        sample(
            &mut out,
            "tally_x",
            &[("kind", "a\"b\\c\nd"), ("state", "ok")],
            3,
        );
        sample(&mut out, "tally_y", &[], 1.5);
        assert_eq!(
            out,
            "# HELP tally_x An example.\n# TYPE tally_x gauge\n\
             tally_x{kind=\"a\\\"b\\\\c\\nd\",state=\"ok\"} 3\ntally_y 1.5\n"
        );
    }
}
