//! The public forms' section: the bot check, the CRM and its outbox, as the
//! app's own config types (`BotCheckConfig`, `CrmConfig`, `OutboxSettings`).

use std::time::Duration;

use app::backend::contact::bot_check::BotCheckConfig;
use app::backend::contact::crm::CrmConfig;
use app::backend::contact::outbox::OutboxSettings;
use secrecy::SecretString;

use super::env::{origin_parts, parse_bool, parse_seconds, parse_url, Env};
use super::ConfigError;

/// Cloudflare Turnstile's script, in explicit-render mode.
pub const DEFAULT_CAPTCHA_SCRIPT_URL: &str =
    "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

/// All three bot-check variables, or none.
pub(super) fn bot_check<F>(env: &Env<F>) -> Result<Option<BotCheckConfig>, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    let url = env.parse_or("CAPTCHA_SITEVERIFY_URL", None, |raw| {
        parse_url(raw).map(Some)
    })?;
    let secret = env.secret("CAPTCHA_SECRET", |_| Ok(()))?;
    let site_key = env.parse_or("CAPTCHA_SITE_KEY", None, |raw| Ok(Some(raw.to_owned())))?;
    let script_url = env.parse_or(
        "CAPTCHA_SCRIPT_URL",
        DEFAULT_CAPTCHA_SCRIPT_URL.to_owned(),
        parse_url,
    )?;
    let csp_sources = env.parse_or("CAPTCHA_CSP_SOURCES", None, |raw| {
        parse_csp_sources(raw).map(Some)
    })?;
    match (url, secret, site_key) {
        (None, None, None) => Ok(None),
        (Some(siteverify_url), Some(secret), Some(site_key)) => Ok(Some(BotCheckConfig {
            siteverify_url,
            secret,
            site_key,
            csp_sources: csp_sources.unwrap_or_else(|| vec![script_origin(&script_url)]),
            script_url,
        })),
        (url, secret, _) => {
            let missing = if url.is_none() {
                "CAPTCHA_SITEVERIFY_URL"
            } else if secret.is_none() {
                "CAPTCHA_SECRET"
            } else {
                "CAPTCHA_SITE_KEY"
            };
            Err(ConfigError::new(
                missing,
                "the bot check needs CAPTCHA_SITEVERIFY_URL, CAPTCHA_SECRET and CAPTCHA_SITE_KEY together; set this one too, or unset all three",
            ))
        }
    }
}

/// The CRM, off when `CRM_LEAD_URL` is unset.
pub(super) fn crm<F>(env: &Env<F>) -> Result<Option<CrmConfig>, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    let Some(lead_url) = env.parse_or("CRM_LEAD_URL", None, |raw| parse_url(raw).map(Some))? else {
        return Ok(None);
    };
    let cases_enabled = env.parse_or("CRM_CASES_ENABLED", false, parse_bool)?;
    let case_url = env.parse_or("CRM_CASE_URL", None, |raw| parse_url(raw).map(Some))?;
    if cases_enabled && case_url.is_none() {
        return Err(ConfigError::new(
            "CRM_CASE_URL",
            "CRM_CASES_ENABLED is true, so the Web-to-Case URL is needed",
        ));
    }
    Ok(Some(CrmConfig {
        lead_url,
        case_url,
        org_id: env
            .secret("CRM_ORG_ID", |_| Ok(()))?
            .unwrap_or_else(|| SecretString::from(String::new())),
        cases_enabled,
        exhausted_statuses: env.parse_or("CRM_EXHAUSTED_STATUSES", vec![402], |raw| {
            raw.split(',')
                .map(|code| {
                    code.trim()
                        .parse::<u16>()
                        .ok()
                        .filter(|code| (100..=599).contains(code))
                        .ok_or_else(|| format!("{code:?} is not an HTTP status code"))
                })
                .collect()
        })?,
        exhausted_marker: env
            .parse_or("CRM_EXHAUSTED_MARKER", None, |raw| Ok(Some(raw.to_owned())))?,
    }))
}

/// How the CRM outbox retries and pauses.
pub(super) fn outbox<F>(env: &Env<F>) -> Result<OutboxSettings, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    Ok(OutboxSettings {
        cooldown: env.parse_or("CRM_COOLDOWN_SECONDS", Duration::from_secs(900), |raw| {
            parse_seconds(raw, 1, 86_400)
        })?,
        max_attempts: env.parse_or("CRM_MAX_ATTEMPTS", 8, |raw| match raw.parse::<i64>() {
            Ok(n) if (1..=100).contains(&n) => Ok(n),
            _ => Err("expected a whole number from 1 to 100".to_owned()),
        })?,
        retry_base: env.parse_or("CRM_RETRY_BASE_SECONDS", Duration::from_secs(30), |raw| {
            parse_seconds(raw, 1, 3600)
        })?,
    })
}

/// `scheme://host[:port]` of an http(s) URL, as a CSP source.
fn script_origin(url: &str) -> String {
    match origin_parts(url) {
        Some((scheme, host, Some(port))) => format!("{scheme}://{host}:{port}"),
        Some((scheme, host, None)) => format!("{scheme}://{host}"),
        None => url.to_owned(),
    }
}

/// Space-separated CSP host sources such as `https://hcaptcha.com
/// https://*.hcaptcha.com`: each an http(s) origin (a leading `*.` on the
/// host is allowed), nothing that could end the directive.
fn parse_csp_sources(raw: &str) -> Result<Vec<String>, String> {
    let sources: Vec<String> = raw.split_whitespace().map(str::to_owned).collect();
    let valid = |source: &String| {
        parse_url(source).is_ok()
            && !source.contains([';', ',', '\'', '"'])
            && script_origin(source) == *source
    };
    if sources.is_empty() || !sources.iter().all(valid) {
        return Err(
            "expected space-separated origins such as https://hcaptcha.com https://*.hcaptcha.com"
                .to_owned(),
        );
    }
    Ok(sources)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{settings, settings_error};
    use super::*;

    #[test]
    fn the_captcha_widget_script_and_its_csp_sources_are_checked() {
        let all = [
            (
                "CAPTCHA_SITEVERIFY_URL",
                "https://verify.example/siteverify",
            ),
            ("CAPTCHA_SECRET", "s3cret"),
            ("CAPTCHA_SITE_KEY", "site-key"),
        ];
        let turnstile = settings(&all).unwrap().captcha.unwrap();
        assert_eq!(turnstile.script_url, DEFAULT_CAPTCHA_SCRIPT_URL);
        assert_eq!(turnstile.csp_sources, ["https://challenges.cloudflare.com"]);

        let mut own = all.to_vec();
        own.push((
            "CAPTCHA_SCRIPT_URL",
            "http://127.0.0.1:9000/api.js?render=explicit",
        ));
        let own = settings(&own).unwrap().captcha.unwrap();
        assert_eq!(own.csp_sources, ["http://127.0.0.1:9000"]);

        let mut hcaptcha = all.to_vec();
        hcaptcha.push((
            "CAPTCHA_CSP_SOURCES",
            "https://hcaptcha.com  https://*.hcaptcha.com",
        ));
        let hcaptcha = settings(&hcaptcha).unwrap().captcha.unwrap();
        assert_eq!(
            hcaptcha.csp_sources,
            ["https://hcaptcha.com", "https://*.hcaptcha.com"]
        );

        for bad in [
            "https://a.example/path",
            "https://a.example; script-src *",
            "'unsafe-inline'",
        ] {
            let error = settings_error("CAPTCHA_CSP_SOURCES", bad);
            assert!(error.contains("CAPTCHA_CSP_SOURCES"), "{error}");
        }
    }
}
