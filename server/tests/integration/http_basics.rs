#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use reqwest::header;
use reqwest::Method;
use support::browser::Browser;
use support::spawn_app;

fn assert_security_headers(response: &reqwest::Response) {
    let headers = response.headers();
    let get = |name: &str| {
        headers
            .get(name)
            .unwrap_or_else(|| panic!("{name} missing on {}", response.url()))
            .to_str()
            .unwrap()
            .to_owned()
    };
    assert!(get("strict-transport-security").starts_with("max-age="));
    assert_eq!(get("x-content-type-options"), "nosniff");
    assert_eq!(get("referrer-policy"), "strict-origin-when-cross-origin");
    let csp = get("content-security-policy");
    assert!(csp.contains("'wasm-unsafe-eval'"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(!get("x-request-id").is_empty());
}

#[tokio::test]
async fn every_kind_of_response_carries_the_security_headers() {
    let app = spawn_app(&[]).await;
    for path in ["/", "/api/health", "/no/such/page", "/pkg/missing.js"] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert_security_headers(&response);
    }
}

#[tokio::test]
async fn home_page_is_server_rendered_with_a_nonce_matching_its_policy() {
    let app = spawn_app(&[]).await;
    let response = app.client.get(app.url("/")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let csp = response
        .headers()
        .get(header::CONTENT_SECURITY_POLICY)
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let html = response.text().await.unwrap();
    assert!(
        html.contains("<main id=\"main\""),
        "layout landmark missing"
    );
    assert!(html.contains("Know what is due"), "home copy missing");
    assert!(
        html.contains("$191.88"),
        "the calculator answer is rendered on the server"
    );

    let nonce = html
        .split("nonce=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the hydration script carries a nonce");
    assert!(
        csp.contains(&format!("'nonce-{nonce}'")),
        "CSP {csp} does not allow nonce {nonce}"
    );

    let again = app.client.get(app.url("/")).send().await.unwrap();
    let other_csp = again.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .to_owned();
    assert_ne!(csp, other_csp, "each page gets a fresh nonce");
}

#[tokio::test]
async fn unknown_paths_get_the_not_found_page_with_status_404() {
    let app = spawn_app(&[]).await;
    let response = app
        .client
        .get(app.url("/definitely/not/here"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let html = response.text().await.unwrap();
    assert!(html.contains("Page not found"));
    assert!(html.contains("<main id=\"main\""), "404 keeps the layout");
}

#[tokio::test]
async fn request_id_is_generated_or_kept() {
    let app = spawn_app(&[]).await;
    let first = app.client.get(app.url("/api/health")).send().await.unwrap();
    let second = app.client.get(app.url("/api/health")).send().await.unwrap();
    let id = |r: &reqwest::Response| r.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_ne!(id(&first), id(&second));
    assert_eq!(id(&first).len(), 36, "a UUID");

    let kept = app
        .client
        .get(app.url("/api/health"))
        .header("x-request-id", "from-the-proxy-42")
        .send()
        .await
        .unwrap();
    assert_eq!(id(&kept), "from-the-proxy-42");
}

#[tokio::test]
async fn pages_are_compressed_for_clients_that_accept_it() {
    let app = spawn_app(&[]).await;
    for encoding in ["br", "gzip"] {
        let response = app
            .client
            .get(app.url("/"))
            .header(header::ACCEPT_ENCODING, encoding)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()[header::CONTENT_ENCODING], encoding);
    }
}

/// Hashed bundle files are served precompressed with a one-year immutable
/// lifetime; other assets for an hour; pages not at all.
#[tokio::test]
async fn static_assets_are_precompressed_and_cached_by_name() {
    let app = spawn_app(&[]).await;
    let site = app.dir.path().join("site");
    std::fs::write(site.join("pkg/tally.0123abcd.js"), "console.log('tally');").unwrap();
    std::fs::write(site.join("pkg/tally.0123abcd.js.br"), b"brotli bytes").unwrap();
    std::fs::write(site.join("pkg/tally.0123abcd.js.gz"), b"gzip bytes").unwrap();
    std::fs::write(site.join("favicon.svg"), "<svg/>").unwrap();

    let bundle = app
        .client
        .get(app.url("/pkg/tally.0123abcd.js"))
        .header(header::ACCEPT_ENCODING, "br, gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(bundle.status(), 200);
    assert_eq!(bundle.headers()[header::CONTENT_ENCODING], "br");
    // Tests run with LEPTOS_HASH_FILES=false, so bundle names are not
    // content hashes and are revalidated; tests/static_assets.rs checks
    // that hashed bundles are immutable.
    assert_eq!(bundle.headers()[header::CACHE_CONTROL], "no-cache");
    assert_eq!(bundle.bytes().await.unwrap().as_ref(), b"brotli bytes");

    let gzip = app
        .client
        .get(app.url("/pkg/tally.0123abcd.js"))
        .header(header::ACCEPT_ENCODING, "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(gzip.bytes().await.unwrap().as_ref(), b"gzip bytes");

    let icon = app
        .client
        .get(app.url("/favicon.svg"))
        .send()
        .await
        .unwrap();
    assert_eq!(icon.status(), 200);
    assert_eq!(
        icon.headers()[header::CACHE_CONTROL],
        "public, max-age=3600"
    );

    let page = app.client.get(app.url("/")).send().await.unwrap();
    assert_eq!(page.headers()[header::CACHE_CONTROL], "no-store");
}

#[tokio::test]
async fn diagnostics_routes_exist_only_when_enabled_and_only_for_admins() {
    let off = spawn_app(&[]).await;
    let response = off
        .client
        .get(off.url("/api/diagnostics/slow?ms=1"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        body["error"]["status"], "NOT_FOUND",
        "unknown API paths answer JSON"
    );

    let admin = ("admin@example.com", "correct horse battery staple");
    let on = spawn_app(&[
        ("TALLY_DIAGNOSTICS", "true"),
        ("BOOTSTRAP_ADMIN_EMAIL", admin.0),
        ("BOOTSTRAP_ADMIN_PASSWORD", admin.1),
    ])
    .await;
    let anonymous = on
        .client
        .get(on.url("/api/diagnostics/slow?ms=1"))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);

    let pool = app::backend::db::connect(&on.database_path())
        .await
        .unwrap();
    app::backend::auth::users::create(
        &pool,
        "user@example.com",
        "User",
        secrecy::SecretString::from("plain member passphrase"),
        app::backend::auth::users::Role::User,
    )
    .await
    .unwrap();
    let user = Browser::signed_in(&on.address, "user@example.com", "plain member passphrase").await;
    assert_eq!(
        user.status(Method::GET, "/api/diagnostics/slow?ms=1").await,
        403
    );
    assert_eq!(
        user.status(Method::POST, "/api/diagnostics/panic").await,
        403,
        "and the process lives on"
    );

    let browser = Browser::signed_in(&on.address, admin.0, admin.1).await;
    assert_eq!(
        browser
            .status(Method::GET, "/api/diagnostics/slow?ms=1")
            .await,
        200
    );
    let too_slow = browser
        .request(Method::GET, "/api/diagnostics/slow?ms=999999")
        .send()
        .await
        .unwrap();
    assert_eq!(too_slow.status(), 400);
    let body: serde_json::Value = too_slow.json().await.unwrap();
    assert_eq!(body["error"]["message"], "ms must be at most 20000");
}
