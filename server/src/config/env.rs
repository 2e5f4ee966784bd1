//! Reading the environment: a variable parsed or its default, a secret
//! checked and never echoed, and the parsers several sections share.

use std::path::PathBuf;
use std::time::Duration;

use secrecy::SecretString;

use super::ConfigError;

/// The environment, as a lookup that answers `None` for an unset variable
/// and `Some(Err(_))` for one that is not valid UTF-8.
pub(super) struct Env<F>(pub(super) F);

impl<F> Env<F>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    /// The variable parsed by `parse`, or `default` when it is unset or empty.
    pub(super) fn parse_or<T>(
        &self,
        variable: &'static str,
        default: T,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<T, ConfigError> {
        match (self.0)(variable) {
            None => Ok(default),
            Some(Err(_)) => Err(ConfigError::new(variable, "the value is not valid UTF-8")),
            Some(Ok(raw)) if raw.trim().is_empty() => Ok(default),
            Some(Ok(raw)) => parse(raw.trim())
                .map_err(|problem| ConfigError::new(variable, format!("{raw:?}: {problem}"))),
        }
    }
}

impl<F> Env<F>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    /// A secret: checked by `check`, never echoed in an error message.
    pub(super) fn secret(
        &self,
        variable: &'static str,
        check: impl Fn(&str) -> Result<(), String>,
    ) -> Result<Option<SecretString>, ConfigError> {
        match (self.0)(variable) {
            None => Ok(None),
            Some(Err(_)) => Err(ConfigError::new(variable, "the value is not valid UTF-8")),
            Some(Ok(raw)) if raw.trim().is_empty() => Ok(None),
            Some(Ok(raw)) => {
                check(raw.trim()).map_err(|problem| ConfigError::new(variable, problem))?;
                Ok(Some(SecretString::from(raw.trim().to_owned())))
            }
        }
    }
}

/// An origin-style base URL: http(s)://host[:port], no trailing slash.
pub(super) fn parse_base_url(raw: &str) -> Result<String, String> {
    let rest = raw
        .strip_prefix("https://")
        .or_else(|| raw.strip_prefix("http://"))
        .ok_or_else(|| "expected a URL starting with http:// or https://".to_owned())?;
    if rest.is_empty() || rest.contains('/') {
        return Err("expected scheme and host only, without a path or trailing slash, e.g. https://tally.example.com".to_owned());
    }
    Ok(raw.to_owned())
}

pub(super) fn parse_per_minute(raw: &str) -> Result<std::num::NonZeroU32, String> {
    raw.parse::<u32>()
        .ok()
        .filter(|n| (1..=100_000).contains(n))
        .and_then(std::num::NonZeroU32::new)
        .ok_or_else(|| "expected a whole number from 1 to 100000".to_owned())
}

pub(super) fn parse_seconds(raw: &str, min: u64, max: u64) -> Result<Duration, String> {
    raw.parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .map(Duration::from_secs)
        .ok_or_else(|| format!("expected a whole number of seconds from {min} to {max}"))
}

pub(super) fn parse_url(raw: &str) -> Result<String, String> {
    if (raw.starts_with("https://") || raw.starts_with("http://")) && raw.len() > "https://".len() {
        Ok(raw.to_owned())
    } else {
        Err("expected an http(s) URL".to_owned())
    }
}

/// A bare host name: no scheme, port or path.
pub(super) fn parse_host(raw: &str) -> Result<String, String> {
    let valid = !raw.is_empty()
        && raw
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
    if valid {
        Ok(raw.to_ascii_lowercase())
    } else {
        Err("expected a host name without scheme or port, e.g. tally.example.com".to_owned())
    }
}

/// Scheme, host and port of an http(s) URL without a path.
pub(super) fn origin_parts(url: &str) -> Option<(&str, &str, Option<&str>)> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split('/').next()?;
    Some(match authority.rsplit_once(':') {
        Some((host, port)) => (scheme, host, Some(port)),
        None => (scheme, authority, None),
    })
}

pub(super) fn parse_path(raw: &str) -> Result<PathBuf, String> {
    Ok(PathBuf::from(raw))
}

pub(super) fn parse_bool(raw: &str) -> Result<bool, String> {
    match raw.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err("expected true or false".to_owned()),
    }
}
