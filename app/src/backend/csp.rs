//! The Content-Security-Policy Tally sends. One function builds it so the
//! HTML pages (with a nonce) and every other response (without) cannot drift.

/// Third-party origins the pages may load from: the bot-check provider's
/// widget, when one is configured. Provided as context to every page.
#[derive(Clone, Debug, Default)]
pub struct ThirdPartySources(pub Vec<String>);

/// The policy: only Tally's own origin, WASM compilation allowed
/// (`'wasm-unsafe-eval'`, needed to instantiate the bundle), inline scripts
/// only with this response's nonce, and no framing of Tally. The
/// `third_party` origins may serve scripts, styles, frames and answer
/// calls: the bot-check widget needs all four.
pub fn content_security_policy(nonce: Option<&str>, third_party: &ThirdPartySources) -> String {
    let nonce_source = nonce
        .map(|nonce| format!(" 'nonce-{nonce}'"))
        .unwrap_or_default();
    let extra: String = third_party
        .0
        .iter()
        .map(|source| format!(" {source}"))
        .collect();
    format!(
        "default-src 'self'; \
         script-src 'self' 'wasm-unsafe-eval'{nonce_source}{extra}; \
         style-src 'self'{nonce_source}{extra}; \
         img-src 'self' data:; \
         connect-src 'self'{extra}; \
         frame-src 'self'{extra}; \
         font-src 'self'; \
         object-src 'none'; \
         base-uri 'none'; \
         form-action 'self'; \
         frame-ancestors 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::{content_security_policy, ThirdPartySources};

    #[test]
    fn allows_wasm_and_forbids_framing() {
        let policy = content_security_policy(None, &ThirdPartySources::default());
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval';"));
        assert!(policy.contains("frame-src 'self';"));
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(!policy.contains("unsafe-inline"));
    }

    #[test]
    fn nonce_is_allowed_for_scripts_only_when_given() {
        let none = ThirdPartySources::default();
        let policy = content_security_policy(Some("abc123"), &none);
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval' 'nonce-abc123';"));
        assert!(!content_security_policy(None, &none).contains("nonce-"));
    }

    #[test]
    fn the_bot_check_provider_may_serve_its_widget() {
        let provider = ThirdPartySources(vec!["https://challenges.cloudflare.com".into()]);
        let policy = content_security_policy(None, &provider);
        for directive in ["script-src", "style-src", "connect-src", "frame-src"] {
            let rule = policy
                .split("; ")
                .find(|rule| rule.starts_with(directive))
                .unwrap();
            assert!(
                rule.ends_with(" https://challenges.cloudflare.com"),
                "{rule}"
            );
        }
        assert!(policy.contains("default-src 'self';"));
        assert!(policy.contains("frame-ancestors 'none'"));
    }
}
