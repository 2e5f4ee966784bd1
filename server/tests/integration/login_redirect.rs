//! `/login?next=…` must not send a freshly signed-in user to another site.
//! The rule (`app::domain::redirect::safe_next`) is checked here against a
//! real WHATWG URL parser (the one reqwest uses), which reads backslashes,
//! tabs and newlines as browsers do: every short string over an alphabet of
//! the troublesome characters is tried, and whatever the rule accepts must
//! resolve to the site itself. The server's own `next` links follow the rule.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::domain::redirect::safe_next;
use reqwest::Url;
use support::spawn_app;

const SITE: &str = "https://tally.example/login?next=x";

/// Where a browser on the sign-in page ends up after following `next`.
fn resolved(next: &str) -> Option<Url> {
    Url::parse(SITE).unwrap().join(next).ok()
}

fn stays_on_the_site(next: &str) -> bool {
    resolved(next).is_some_and(|url| {
        url.scheme() == "https"
            && url.host_str() == Some("tally.example")
            && url.port().is_none()
            && url.username().is_empty()
            && !url.path().starts_with("//")
    })
}

#[test]
fn the_reported_targets_are_refused_and_would_have_left_the_site() {
    for hostile in [
        "/\\evil.example",
        "/\t/evil.example",
        "/\n/evil",
        "//evil",
        "https://evil",
    ] {
        assert!(!stays_on_the_site(hostile), "{hostile:?} is a real escape");
        assert_eq!(safe_next(hostile), None, "{hostile:?}");
    }
    // What the sign-in page reads from `?next=/%5Cevil.example` (decoded).
    assert_eq!(safe_next("/\\evil.example"), None);
    assert_eq!(safe_next("/%5Cevil.example"), None);
}

#[test]
fn nothing_the_rule_accepts_leaves_the_site() {
    const ALPHABET: [char; 16] = [
        '/', '\\', '%', '5', 'C', '2', 'F', '0', '9', '.', ':', '\t', '\n', 'e', '@', '?',
    ];
    let mut accepted = 0;
    let mut current = vec![String::new()];
    for length in 1..=5 {
        let mut longer = Vec::with_capacity(current.len() * ALPHABET.len());
        for prefix in &current {
            for c in ALPHABET {
                let next = format!("{prefix}{c}");
                if safe_next(&next).is_some() {
                    accepted += 1;
                    assert!(
                        stays_on_the_site(&next),
                        "{next:?} -> {:?}",
                        resolved(&next)
                    );
                }
                if length < 5 {
                    longer.push(next);
                }
            }
        }
        current = longer;
    }
    assert!(accepted > 1000, "the walk accepted only {accepted}");
}

/// A signed-out visitor is sent to sign in with a `next` the sign-in page
/// will follow, or with none when the page's address is not a plain path.
#[tokio::test]
async fn signed_in_page_redirects_carry_only_safe_targets() {
    let app = spawn_app(&[]).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    for (path, location) in [
        ("/tracker", "/login?next=%2Ftracker"),
        (
            "/bills/3?tab=payments",
            "/login?next=%2Fbills%2F3%3Ftab%3Dpayments",
        ),
        ("/bills/%5Cevil.example", "/login"),
        ("/bills/%2F%2Fevil", "/login"),
        ("/bills/x%09y", "/login"),
    ] {
        let response = client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 303, "{path}");
        assert_eq!(response.headers()["location"], location, "{path}");
    }
}
