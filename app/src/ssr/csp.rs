//! The Content-Security-Policy Tally sends. One function builds it so the
//! HTML pages (with a nonce) and every other response (without) cannot drift.

/// The policy: only Tally's own origin, WASM compilation allowed
/// (`'wasm-unsafe-eval'`, needed to instantiate the bundle), inline scripts
/// only with this response's nonce, and no framing.
pub fn content_security_policy(nonce: Option<&str>) -> String {
    let nonce_source = nonce
        .map(|nonce| format!(" 'nonce-{nonce}'"))
        .unwrap_or_default();
    format!(
        "default-src 'self'; \
         script-src 'self' 'wasm-unsafe-eval'{nonce_source}; \
         style-src 'self'{nonce_source}; \
         img-src 'self' data:; \
         connect-src 'self'; \
         font-src 'self'; \
         object-src 'none'; \
         base-uri 'none'; \
         form-action 'self'; \
         frame-ancestors 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::content_security_policy;

    #[test]
    fn allows_wasm_and_forbids_framing() {
        let policy = content_security_policy(None);
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval';"));
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(!policy.contains("unsafe-inline"));
    }

    #[test]
    fn nonce_is_allowed_for_scripts_only_when_given() {
        let policy = content_security_policy(Some("abc123"));
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval' 'nonce-abc123';"));
        assert!(!content_security_policy(None).contains("nonce-"));
    }
}
