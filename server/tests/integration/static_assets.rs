#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The bundle under `/pkg`: served from memory with its precompressed
//! twins, the right cache policy, and the security headers of every
//! response.

use crate::support;

use support::spawn_app;

fn site_with_bundle() -> tempfile::TempDir {
    let site = tempfile::tempdir().unwrap();
    let pkg = site.path().join("pkg");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(pkg.join("tally.css"), "body { color: black }").unwrap();
    std::fs::write(pkg.join("tally.css.br"), "brotli bytes").unwrap();
    std::fs::write(pkg.join("tally.css.gz"), "gzip bytes").unwrap();
    std::fs::write(pkg.join("tally.wasm"), [0_u8, 97, 115, 109]).unwrap();
    site
}

async fn get(
    app: &support::TestApp,
    path: &str,
    accept_encoding: Option<&str>,
) -> reqwest::Response {
    let mut request = app.client.get(app.url(path));
    if let Some(encoding) = accept_encoding {
        request = request.header("accept-encoding", encoding);
    }
    request.send().await.unwrap()
}

fn header<'a>(response: &'a reqwest::Response, name: &str) -> Option<&'a str> {
    response
        .headers()
        .get(name)
        .map(|value| value.to_str().unwrap())
}

#[tokio::test]
async fn the_bundle_is_served_in_the_best_encoding_the_client_takes() {
    let site = site_with_bundle();
    let root = site.path().to_string_lossy().into_owned();
    let app = spawn_app(&[("LEPTOS_SITE_ROOT", &root)]).await;

    let br = get(&app, "/pkg/tally.css", Some("gzip, br")).await;
    assert_eq!(br.status(), 200);
    assert_eq!(header(&br, "content-encoding"), Some("br"));
    assert_eq!(header(&br, "vary"), Some("accept-encoding"));
    assert_eq!(header(&br, "content-type"), Some("text/css; charset=utf-8"));
    // Unhashed names (LEPTOS_HASH_FILES=false in tests) are revalidated.
    assert_eq!(header(&br, "cache-control"), Some("no-cache"));
    assert_eq!(header(&br, "x-content-type-options"), Some("nosniff"));
    assert!(header(&br, "x-request-id").is_some());
    assert_eq!(br.bytes().await.unwrap().as_ref(), b"brotli bytes");

    let gzip = get(&app, "/pkg/tally.css", Some("gzip, br;q=0")).await;
    assert_eq!(header(&gzip, "content-encoding"), Some("gzip"));
    assert_eq!(gzip.bytes().await.unwrap().as_ref(), b"gzip bytes");

    let plain = get(&app, "/pkg/tally.css", None).await;
    assert_eq!(header(&plain, "content-encoding"), None);
    assert_eq!(plain.text().await.unwrap(), "body { color: black }");

    let wasm = get(&app, "/pkg/tally.wasm", Some("br")).await;
    assert_eq!(header(&wasm, "content-type"), Some("application/wasm"));
    assert_eq!(
        header(&wasm, "content-encoding"),
        None,
        "no twin, no encoding"
    );

    let missing = get(&app, "/pkg/nothing.js", None).await;
    assert_eq!(missing.status(), 404);
    assert_eq!(header(&missing, "cache-control"), Some("no-store"));

    // A file built after the start is read from disk.
    std::fs::write(site.path().join("pkg/late.js"), "late()").unwrap();
    let late = get(&app, "/pkg/late.js", None).await;
    assert_eq!(late.status(), 200);
    assert_eq!(late.text().await.unwrap(), "late()");
}

#[tokio::test]
async fn hashed_bundles_are_immutable() {
    let site = site_with_bundle();
    let root = site.path().to_string_lossy().into_owned();
    let app = spawn_app(&[("LEPTOS_SITE_ROOT", &root), ("LEPTOS_HASH_FILES", "true")]).await;
    let response = get(&app, "/pkg/tally.css", Some("br")).await;
    assert_eq!(
        header(&response, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    std::fs::write(site.path().join("pkg/late.0123abcd.js"), "late()").unwrap();
    let late = get(&app, "/pkg/late.0123abcd.js", None).await;
    assert_eq!(
        header(&late, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
}
