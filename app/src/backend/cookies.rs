//! Reading and writing Tally's cookies: the session, the CSRF token and the
//! device cookie (a browser that signed in here before; `auth::device`).
//!
//! The names here are the app's. Behind https the browser holds each as
//! `__Host-tally_…` instead: a browser keeps a `__Host-` cookie only when
//! this very host set it, Secure, for the whole site and no domain, so a
//! sibling subdomain (or anyone who can answer for one) cannot plant a
//! session or a CSRF token here. The front door translates both ways, once
//! per request ([`from_browser`], [`to_browser`]), so nothing else knows
//! the prefix.
//!
//! A browser that sends a session cookie holds the CSRF token bound to
//! that session ([`bound_csrf_token`]); one that sends none, the random
//! token of its CSRF cookie (the double submit).

use http::{header, HeaderMap, HeaderValue};

use crate::backend::secrets::Keyring;

pub const SESSION: &str = "tally_session";
pub const CSRF: &str = "tally_csrf";
pub const DEVICE: &str = "tally_device";

/// Every cookie of Tally's is named so (single sign-on's `tally_sso` too).
const OWN_PREFIX: &str = "tally_";
/// What a browser behind https holds Tally's cookies under.
pub const HOST_PREFIX: &str = "__Host-";

/// The name cookie `name` has in a browser: behind https (`secure`), with
/// [`HOST_PREFIX`].
pub fn in_browser(name: &str, secure: bool) -> String {
    if secure {
        format!("{HOST_PREFIX}{name}")
    } else {
        name.to_owned()
    }
}

/// A request's cookies as the app reads them, behind https:
/// `__Host-tally_…` is read as `tally_…`, and a bare `tally_…` is dropped
/// (a sibling subdomain can set that one, and so did Tally before it used
/// the prefix). Other sites' cookies stay as sent.
pub fn from_browser(headers: &mut HeaderMap) {
    if !headers.contains_key(header::COOKIE) {
        return;
    }
    let pairs: Vec<String> = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .map(str::trim)
        .filter(|pair| !pair.is_empty())
        .filter_map(|pair| match pair.strip_prefix(HOST_PREFIX) {
            Some(own) if own.starts_with(OWN_PREFIX) => Some(own.to_owned()),
            _ if pair.starts_with(OWN_PREFIX) => None,
            _ => Some(pair.to_owned()),
        })
        .collect();
    headers.remove(header::COOKIE);
    if pairs.is_empty() {
        return;
    }
    if let Ok(value) = HeaderValue::from_str(&pairs.join("; ")) {
        headers.insert(header::COOKIE, value);
    }
}

/// An answer's cookies as a browser behind https must hold them:
/// `tally_…` is set as `__Host-tally_…`. [`set`] already makes each one
/// what the prefix asks for (`Path=/`, no `Domain`, `Secure` behind
/// https).
pub fn to_browser(headers: &mut HeaderMap) {
    let own = |value: &HeaderValue| value.as_bytes().starts_with(OWN_PREFIX.as_bytes());
    if !headers.get_all(header::SET_COOKIE).iter().any(own) {
        return;
    }
    let cookies: Vec<HeaderValue> = headers
        .get_all(header::SET_COOKIE)
        .iter()
        .map(|value| {
            if !own(value) {
                return value.clone();
            }
            let mut named = HOST_PREFIX.as_bytes().to_vec();
            named.extend_from_slice(value.as_bytes());
            HeaderValue::from_bytes(&named).unwrap_or_else(|_| value.clone())
        })
        .collect();
    headers.remove(header::SET_COOKIE);
    for cookie in cookies {
        headers.append(header::SET_COOKIE, cookie);
    }
}

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

/// What a CSRF token bound to a session is derived for (a value the
/// keyring derives for anything else is no CSRF token).
const BOUND_CSRF_PURPOSE: &str = "tally_csrf bound to tally_session";

/// The session token the request's session cookie holds, if it sends a
/// non-empty one (whether the session is still live is not asked here).
pub fn session_token(headers: &HeaderMap) -> Option<&str> {
    get(headers, SESSION).filter(|token| !token.is_empty())
}

/// The CSRF token of a browser signed in with `session`: an HMAC of the
/// session token under a key of the keyring's, so only this server can
/// make it, and it is worth nothing for any other session. The session
/// token is secret (HttpOnly), so a token planted before sign-in, or one
/// read off another session's page, does not pass.
pub fn bound_csrf_token(keyring: &Keyring, session: &str) -> Option<String> {
    keyring.derive_token(BOUND_CSRF_PURPOSE, session)
}

/// The CSRF token this browser holds: bound to its session when it sends
/// a session cookie, else its CSRF cookie when that is one Tally issued.
/// The one place the token route and the pages read it
/// (`GET /api/auth/csrf-token`, `api::page_csrf`); `middleware::csrf`
/// checks against the same.
pub fn csrf_token(headers: &HeaderMap, keyring: &Keyring) -> Option<String> {
    match session_token(headers) {
        Some(session) => bound_csrf_token(keyring, session),
        None => get(headers, CSRF)
            .filter(|token| crate::domain::csrf::well_formed(token))
            .map(str::to_owned),
    }
}

/// How an answer changes the browser's session, read from its
/// `Set-Cookie` (the last session cookie it sets counts, as in the
/// browser).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionChange {
    /// A session cookie holding this token (a sign-in).
    Started(String),
    /// The session cookie cleared (a sign-out).
    Ended,
}

/// Whether `answer` sets or clears the session cookie.
pub fn session_change(answer: &HeaderMap) -> Option<SessionChange> {
    let prefix = format!("{SESSION}=");
    answer
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .filter_map(|cookie| cookie.strip_prefix(prefix.as_str()))
        .next_back()
        .map(|rest| {
            let mut parts = rest.split(';').map(str::trim);
            let token = parts.next().unwrap_or_default();
            let cleared = parts.any(|attribute| attribute.eq_ignore_ascii_case("Max-Age=0"));
            if token.is_empty() || cleared {
                SessionChange::Ended
            } else {
                SessionChange::Started(token.to_owned())
            }
        })
}

/// Takes every `Set-Cookie` of cookie `name` off `answer`.
pub fn unset(answer: &mut HeaderMap, name: &str) {
    let prefix = format!("{name}=");
    let named = |value: &HeaderValue| value.as_bytes().starts_with(prefix.as_bytes());
    if !answer.get_all(header::SET_COOKIE).iter().any(named) {
        return;
    }
    let kept: Vec<HeaderValue> = answer
        .get_all(header::SET_COOKIE)
        .iter()
        .filter(|value| !named(value))
        .cloned()
        .collect();
    answer.remove(header::SET_COOKIE);
    for cookie in kept {
        answer.append(header::SET_COOKIE, cookie);
    }
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

    fn new_keyring() -> (tempfile::TempDir, Keyring) {
        let dir = tempfile::tempdir().unwrap();
        let keyring = Keyring::load(dir.path(), None).unwrap();
        (dir, keyring)
    }

    fn cookies(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn a_signed_in_browsers_csrf_token_is_bound_to_its_session() {
        let (_dir, keyring) = new_keyring();
        let bound = bound_csrf_token(&keyring, "session-a").unwrap();
        assert!(crate::domain::csrf::well_formed(&bound), "{bound}");
        assert_eq!(
            bound_csrf_token(&keyring, "session-a").as_deref(),
            Some(bound.as_str()),
            "the same for the life of the session"
        );
        assert_ne!(
            bound_csrf_token(&keyring, "session-b").as_deref(),
            Some(bound.as_str()),
            "a token valid for one session is not another's"
        );
        let (_other_dir, other) = new_keyring();
        assert_ne!(
            bound_csrf_token(&other, "session-a").as_deref(),
            Some(bound.as_str()),
            "only this server's key makes it"
        );

        // With a session cookie the CSRF cookie does not count: the token
        // is the session's, whatever was planted beside it.
        let planted = "a".repeat(43);
        let mut signed_in = HeaderMap::new();
        signed_in.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("{CSRF}={planted}; {SESSION}=session-a")).unwrap(),
        );
        assert_eq!(csrf_token(&signed_in, &keyring), Some(bound.clone()));
        assert_ne!(csrf_token(&signed_in, &keyring), Some(planted.clone()));

        // Without one, the double submit: the cookie, if Tally's shape.
        let mut signed_out = HeaderMap::new();
        signed_out.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("{CSRF}={planted}")).unwrap(),
        );
        assert_eq!(csrf_token(&signed_out, &keyring), Some(planted));
        assert_eq!(csrf_token(&cookies("tally_csrf=odd"), &keyring), None);
        assert_eq!(
            csrf_token(&cookies("tally_session=; tally_csrf=odd"), &keyring),
            None,
            "an empty session cookie is none"
        );
    }

    #[test]
    fn an_answer_that_sets_or_clears_the_session_is_seen_and_a_cookie_can_be_unset() {
        let mut answer = HeaderMap::new();
        assert_eq!(session_change(&answer), None);
        answer.append(header::SET_COOKIE, device("d", false).unwrap());
        answer.append(
            header::SET_COOKIE,
            set(CSRF, "old", 60, true, false, "Strict").unwrap(),
        );
        assert_eq!(session_change(&answer), None);
        answer.append(header::SET_COOKIE, session("s", 60, false).unwrap());
        assert_eq!(
            session_change(&answer),
            Some(SessionChange::Started("s".into()))
        );

        unset(&mut answer, CSRF);
        let left: Vec<&str> = answer
            .get_all(header::SET_COOKIE)
            .iter()
            .map(|value| value.to_str().unwrap())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
        assert!(left[0].starts_with("tally_device=d;"), "{left:?}");
        assert!(left[1].starts_with("tally_session=s;"), "{left:?}");

        let mut cleared = HeaderMap::new();
        cleared.append(header::SET_COOKIE, session("", 0, true).unwrap());
        assert_eq!(session_change(&cleared), Some(SessionChange::Ended));
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

    #[test]
    fn behind_https_only_host_prefixed_cookies_are_read_as_tallys() {
        let mut headers = HeaderMap::new();
        headers.append(
            header::COOKIE,
            HeaderValue::from_static(
                "tally_csrf=planted; __Host-tally_csrf=mine; other=1; __Host-x=2",
            ),
        );
        headers.append(
            header::COOKIE,
            HeaderValue::from_static("__Host-tally_session=s; tally_session=planted"),
        );
        from_browser(&mut headers);
        assert_eq!(get(&headers, CSRF), Some("mine"));
        assert_eq!(get(&headers, SESSION), Some("s"));
        assert_eq!(get(&headers, "other"), Some("1"));
        assert_eq!(get(&headers, "__Host-x"), Some("2"));
        assert_eq!(headers.get_all(header::COOKIE).iter().count(), 1);

        // Only planted ones: none of Tally's is left.
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("tally_csrf=planted; tally_session=planted"),
        );
        from_browser(&mut headers);
        assert!(!headers.contains_key(header::COOKIE));
    }

    #[test]
    fn behind_https_tallys_cookies_are_set_host_prefixed() {
        let mut headers = HeaderMap::new();
        headers.append(header::SET_COOKIE, session("t", 60, true).unwrap());
        headers.append(
            header::SET_COOKIE,
            HeaderValue::from_static("other=1; Path=/"),
        );
        headers.append(header::SET_COOKIE, device("d", true).unwrap());
        to_browser(&mut headers);
        let set: Vec<&str> = headers
            .get_all(header::SET_COOKIE)
            .iter()
            .map(|value| value.to_str().unwrap())
            .collect();
        assert_eq!(set.len(), 3);
        assert_eq!(
            set[0],
            "__Host-tally_session=t; Path=/; Max-Age=60; SameSite=Lax; HttpOnly; Secure"
        );
        assert_eq!(set[1], "other=1; Path=/");
        assert!(
            set[2].starts_with("__Host-tally_device=d; Path=/;"),
            "{}",
            set[2]
        );
        assert_eq!(in_browser(SESSION, true), "__Host-tally_session");
        assert_eq!(in_browser(SESSION, false), "tally_session");
    }
}
