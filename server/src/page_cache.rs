//! The marketing pages, rendered once a minute for anonymous visitors.
//!
//! A public page (`/`, `/features`, `/pricing`, …) is the same HTML for
//! every visitor without a session, except for the per-response CSP nonce
//! on its scripts. Rendering it through Leptos for each visitor costs most
//! of a core per 10,000 answers a second; the Node/Express stack it replaces
//! serves a JSON probe at about that rate. So the first anonymous request
//! for such a page renders it and keeps the HTML for `LIFETIME`; the
//! following ones get that HTML with a fresh nonce put in place of the
//! stored one, in the body and in the CSP header alike, so a nonce is still
//! never sent twice. A request carrying any credential (the session
//! cookie, an `Authorization` header of any kind, any cookie but the CSRF
//! one), a query string, a response that is not a plain 200 page, one that
//! sets a cookie, or one rendered for a user the page found
//! (`x-tally-personal`), is never cached. The browser still gets `no-store` (`cache_control`): this
//! copy lives in the server only.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};

use app::backend::auth::token::random_token;

use app::api::signed_in::PERSONAL;
use app::backend::cookies;

/// How long a rendered page is served before it is rendered again.
const LIFETIME: Duration = Duration::from_secs(60);
/// The largest page kept (the marketing pages are a few KB).
const MAX_PAGE: usize = 4 * 1024 * 1024;

/// The pages that look the same to every anonymous visitor.
pub const PUBLIC_PAGES: &[&str] = &[
    "/",
    "/features",
    "/pricing",
    "/privacy",
    "/contact",
    "/support",
];

struct Page {
    rendered_at: Instant,
    /// The nonce the page was rendered with, to be replaced per answer.
    nonce: String,
    html: String,
    policy: String,
}

#[derive(Clone, Default)]
pub struct PageCache(Arc<RwLock<HashMap<&'static str, Page>>>);

impl PageCache {
    /// The page this request may be answered from, if any.
    pub fn key(request: &Parts) -> Option<&'static str> {
        if request.method != Method::GET
            || request.uri.query().is_some()
            || carries_credential(&request.headers)
        {
            return None;
        }
        let path = request.uri.path();
        PUBLIC_PAGES.iter().copied().find(|page| *page == path)
    }

    /// The stored page with a fresh nonce, while it is fresh.
    pub fn answer(&self, key: &'static str) -> Option<Response> {
        let pages = self.0.read().ok()?;
        let page = pages.get(key)?;
        if page.rendered_at.elapsed() >= LIFETIME {
            return None;
        }
        let nonce = random_token();
        let html = page.html.replace(&page.nonce, &nonce);
        let policy = HeaderValue::from_str(&page.policy.replace(&page.nonce, &nonce)).ok()?;
        let mut response = Body::from(html).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        headers.insert(header::CONTENT_SECURITY_POLICY, policy);
        Some(response)
    }

    /// Passes `response` on, keeping a copy when it is a plain page.
    pub async fn keep(&self, key: &'static str, response: Response) -> Response {
        if !cacheable(response.status(), response.headers()) {
            return response;
        }
        let (parts, body) = response.into_parts();
        let bytes = match axum::body::to_bytes(body, MAX_PAGE).await {
            Ok(bytes) => bytes,
            // Too big to keep (or the render failed midway): the visitor
            // gets what there is, nothing is stored.
            Err(error) => {
                tracing::warn!(%error, page = key, "page not kept");
                return StatusCode::INTERNAL_SERVER_ERROR.into_response();
            }
        };
        if let Some(page) = page_of(&parts.headers, &bytes) {
            if let Ok(mut pages) = self.0.write() {
                pages.insert(key, page);
            }
        }
        Response::from_parts(parts, Body::from(bytes))
    }
}

/// Whether the request says who it is in any way: an `Authorization` or
/// `Proxy-Authorization` header, or a cookie other than the CSRF token's
/// (which every anonymous visitor gets).
fn carries_credential(headers: &HeaderMap) -> bool {
    headers.contains_key(header::AUTHORIZATION)
        || headers.contains_key(header::PROXY_AUTHORIZATION)
        || headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(';'))
            .filter_map(|pair| pair.trim().split_once('=').map(|(name, _)| name))
            .any(|name| name != cookies::CSRF && name != cookies::DEVICE)
}

fn cacheable(status: StatusCode, headers: &HeaderMap) -> bool {
    status == StatusCode::OK
        && !headers.contains_key(PERSONAL)
        && !headers.contains_key(header::SET_COOKIE)
        && headers
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|kind| kind.starts_with("text/html"))
}

/// The page and the nonce it carries (from its CSP); none without a nonce.
fn page_of(headers: &HeaderMap, body: &Bytes) -> Option<Page> {
    let policy = headers
        .get(header::CONTENT_SECURITY_POLICY)?
        .to_str()
        .ok()?
        .to_owned();
    let nonce = policy
        .split("'nonce-")
        .nth(1)?
        .split('\'')
        .next()
        .filter(|nonce| nonce.len() >= 16)?
        .to_owned();
    Some(Page {
        rendered_at: Instant::now(),
        nonce,
        html: std::str::from_utf8(body).ok()?.to_owned(),
        policy,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(uri: &str, cookie: Option<&str>) -> Parts {
        let mut request = axum::http::Request::builder().uri(uri);
        if let Some(cookie) = cookie {
            request = request.header(header::COOKIE, cookie);
        }
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn only_anonymous_plain_gets_of_public_pages_are_cached() {
        assert_eq!(PageCache::key(&parts("/pricing", None)), Some("/pricing"));
        assert_eq!(
            PageCache::key(&parts("/pricing", Some("tally_csrf=x"))),
            Some("/pricing")
        );
        assert_eq!(
            PageCache::key(&parts("/pricing", Some("tally_session=abc"))),
            None
        );
        assert_eq!(PageCache::key(&parts("/pricing?x=1", None)), None);
        assert_eq!(
            PageCache::key(&parts("/pricing", Some("other=1; tally_csrf=x"))),
            None,
            "any cookie but the CSRF token's may say who it is"
        );
        let mut bearer = parts("/pricing", None);
        bearer.headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer tally_pat_x"),
        );
        assert_eq!(PageCache::key(&bearer), None);
        let mut basic = parts("/", None);
        basic.headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Basic YTpi"),
        );
        assert_eq!(PageCache::key(&basic), None);
        assert_eq!(PageCache::key(&parts("/bills", None)), None);
        assert_eq!(PageCache::key(&parts("/pricingx", None)), None);
    }

    #[tokio::test]
    async fn each_answer_carries_its_own_nonce_in_the_body_and_the_policy() {
        let cache = PageCache::default();
        let mut rendered = Body::from(
            "<script nonce=\"AAAAAAAAAAAAAAAAAAAAAA\">x</script><link crossorigin=\"AAAAAAAAAAAAAAAAAAAAAA\">",
        )
        .into_response();
        rendered.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        rendered.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("script-src 'self' 'nonce-AAAAAAAAAAAAAAAAAAAAAA'"),
        );
        let first = cache.keep("/pricing", rendered).await;
        assert_eq!(first.status(), 200);

        let mut nonces = Vec::new();
        for _ in 0..2 {
            let answer = cache.answer("/pricing").unwrap();
            let policy = answer.headers()[header::CONTENT_SECURITY_POLICY]
                .to_str()
                .unwrap()
                .to_owned();
            let nonce = policy
                .split("'nonce-")
                .nth(1)
                .unwrap()
                .trim_end_matches('\'')
                .to_owned();
            let body = axum::body::to_bytes(answer.into_body(), MAX_PAGE)
                .await
                .unwrap();
            let body = String::from_utf8(body.to_vec()).unwrap();
            assert!(!body.contains("AAAAAAAAAAAAAAAAAAAAAA"), "{body}");
            assert_eq!(body.matches(&nonce).count(), 2, "{body}");
            nonces.push(nonce);
        }
        assert_ne!(nonces[0], nonces[1], "a nonce is never sent twice");
    }

    #[tokio::test]
    async fn pages_that_set_cookies_or_fail_are_not_kept() {
        let cache = PageCache::default();
        let mut with_cookie = Body::from("<p>hi</p>").into_response();
        with_cookie
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html"));
        with_cookie.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("script-src 'nonce-AAAAAAAAAAAAAAAAAAAAAA'"),
        );
        with_cookie
            .headers_mut()
            .insert(header::SET_COOKIE, HeaderValue::from_static("a=b"));
        cache.keep("/", with_cookie).await;
        assert!(cache.answer("/").is_none());

        let missing = StatusCode::NOT_FOUND.into_response();
        cache.keep("/", missing).await;
        assert!(cache.answer("/").is_none());

        let mut personal = Body::from("<p>Ada</p>").into_response();
        personal
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html"));
        personal.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("script-src 'nonce-AAAAAAAAAAAAAAAAAAAAAA'"),
        );
        personal
            .headers_mut()
            .insert(PERSONAL, HeaderValue::from_static("1"));
        cache.keep("/", personal).await;
        assert!(cache.answer("/").is_none(), "a page rendered for a user");
    }
}
