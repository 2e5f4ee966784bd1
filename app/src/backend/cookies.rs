//! Reading and writing Tally's cookies: the session, the CSRF token and the
//! device cookie (a browser that signed in here before; `auth::device`).

use http::{header, HeaderMap, HeaderValue};

pub const SESSION: &str = "tally_session";
pub const CSRF: &str = "tally_csrf";
pub const DEVICE: &str = "tally_device";

/// The value of cookie `name` in the request, if sent.
pub fn get<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// The CSRF token this browser holds, when it is one Tally issued: the one
/// place the server and the pages read it (`middleware::csrf`,
/// `api::page_csrf`).
pub fn csrf_token(headers: &HeaderMap) -> Option<&str> {
    get(headers, CSRF).filter(|token| crate::domain::csrf::well_formed(token))
}

/// Whether cookies must be `Secure`: when people reach Tally over https.
pub fn secure_for(public_base_url: &str) -> bool {
    public_base_url.starts_with("https://")
}

/// The session cookie holding `token` for `max_age_seconds` (HttpOnly,
/// SameSite=Lax, Secure behind https); an empty token and 0 clear it.
pub fn session(token: &str, max_age_seconds: i64, secure: bool) -> Option<HeaderValue> {
    set(SESSION, token, max_age_seconds, true, secure, "Lax")
}

/// The device cookie (`auth::device`): HttpOnly, SameSite=Strict, for as
/// long as the device stays known. Sign-out leaves it: the browser is
/// still the one that signed in before.
pub fn device(value: &str, secure: bool) -> Option<HeaderValue> {
    let max_age = crate::backend::auth::device::LIFETIME_DAYS * 24 * 3600;
    set(DEVICE, value, max_age, true, secure, "Strict")
}

/// A `Set-Cookie` value. `max_age` of zero deletes the cookie.
pub fn set(
    name: &str,
    value: &str,
    max_age_seconds: i64,
    http_only: bool,
    secure: bool,
    same_site: &str,
) -> Option<HeaderValue> {
    let mut cookie =
        format!("{name}={value}; Path=/; Max-Age={max_age_seconds}; SameSite={same_site}");
    if http_only {
        cookie.push_str("; HttpOnly");
    }
    if secure {
        cookie.push_str("; Secure");
    }
    HeaderValue::from_str(&cookie).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_cookie_among_several() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; tally_session=abc; b=2"),
        );
        assert_eq!(get(&headers, SESSION), Some("abc"));
        assert_eq!(get(&headers, CSRF), None);
    }

    #[test]
    fn builds_flags() {
        let cookie = set(SESSION, "t", 60, true, true, "Lax").unwrap();
        assert_eq!(
            cookie,
            "tally_session=t; Path=/; Max-Age=60; SameSite=Lax; HttpOnly; Secure"
        );
        let plain = set(CSRF, "x", 0, false, false, "Strict").unwrap();
        assert_eq!(plain, "tally_csrf=x; Path=/; Max-Age=0; SameSite=Strict");
    }
}
