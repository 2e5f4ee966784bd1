//! Which route a request path is, as a metrics label: the API route's
//! template (`/api/bills/{id}`), `page` for a server-rendered page, `/pkg`
//! for the bundle. Only templates ever become labels, so no request can
//! make a new time series.

use std::collections::HashMap;

/// The label of API paths that match no route.
pub const UNMATCHED: &str = "unmatched";
/// The label of every page path.
pub const PAGE: &str = "page";
/// The label of the bundle's files.
pub const BUNDLE: &str = "/pkg";

struct Template {
    text: &'static str,
    segments: Vec<&'static str>,
}

/// The API's route templates: the literal ones looked up whole, the ones
/// with holes matched segment by segment (no allocation per request: the
/// edge labels every response).
pub struct RouteLabels {
    literal: HashMap<&'static str, &'static str>,
    templates: Vec<Template>,
}

impl RouteLabels {
    pub fn new(templates: impl IntoIterator<Item = &'static str>) -> Self {
        let mut literal = HashMap::new();
        let mut holes = Vec::new();
        for text in templates {
            if text.contains('{') {
                holes.push(Template {
                    text,
                    segments: text.trim_start_matches('/').split('/').collect(),
                });
            } else {
                literal.insert(text, text);
            }
        }
        Self {
            literal,
            templates: holes,
        }
    }

    /// The label of `path`; literal templates win over ones with holes, and
    /// among those the one with more literal segments.
    pub fn label(&self, path: &str) -> &'static str {
        if path.starts_with("/pkg/") {
            return BUNDLE;
        }
        let api = path.starts_with("/api/") || path.starts_with("/v1/") || path == "/metrics";
        if !api {
            return PAGE;
        }
        if let Some(text) = self.literal.get(path) {
            return text;
        }
        let mut best: Option<(usize, &'static str)> = None;
        for template in &self.templates {
            if let Some(literal) = fits(&template.segments, path) {
                if best.is_none_or(|(most, _)| literal > most) {
                    best = Some((literal, template.text));
                }
            }
        }
        best.map_or(UNMATCHED, |(_, text)| text)
    }
}

/// How many literal segments of `template` the path matched, if it does.
fn fits(template: &[&str], path: &str) -> Option<usize> {
    let mut segments = path.trim_start_matches('/').split('/');
    let mut literal = 0;
    for part in template {
        if part.starts_with("{*") {
            let mut any = false;
            for segment in segments.by_ref() {
                if segment.is_empty() {
                    return None;
                }
                any = true;
            }
            return any.then_some(literal);
        }
        let segment = segments.next()?;
        if part.starts_with('{') {
            if segment.is_empty() {
                return None;
            }
        } else if *part != segment {
            return None;
        } else {
            literal += 1;
        }
    }
    segments.next().is_none().then_some(literal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> RouteLabels {
        RouteLabels::new([
            "/api/bills",
            "/api/bills/order",
            "/api/bills/{id}",
            "/api/bills/{id}/payments",
            "/v1/operations/{*name}",
            "/v1/admin:backup",
            "/api/fn/{*name}",
            "/metrics",
        ])
    }

    #[test]
    fn paths_become_their_templates() {
        let labels = labels();
        assert_eq!(labels.label("/api/bills"), "/api/bills");
        assert_eq!(labels.label("/api/bills/order"), "/api/bills/order");
        assert_eq!(labels.label("/api/bills/42"), "/api/bills/{id}");
        assert_eq!(
            labels.label("/api/bills/42/payments"),
            "/api/bills/{id}/payments"
        );
        assert_eq!(
            labels.label("/v1/operations/abc:wait"),
            "/v1/operations/{*name}"
        );
        assert_eq!(labels.label("/v1/admin:backup"), "/v1/admin:backup");
        assert_eq!(labels.label("/api/fn/bank/connect"), "/api/fn/{*name}");
        assert_eq!(labels.label("/metrics"), "/metrics");
    }

    #[test]
    fn anything_else_is_a_fixed_label() {
        let labels = labels();
        assert_eq!(labels.label("/api/bills/42/nothing"), UNMATCHED);
        assert_eq!(labels.label("/api/whatever/you/like"), UNMATCHED);
        assert_eq!(labels.label("/api/bills/"), UNMATCHED);
        assert_eq!(labels.label("/v1/operations/"), UNMATCHED);
        assert_eq!(labels.label("/tracker"), PAGE);
        assert_eq!(labels.label("/no/such/page"), PAGE);
        assert_eq!(labels.label("/pkg/tally.abc.wasm"), BUNDLE);
    }
}
