//! The bundle under `/pkg` (WASM, JS, CSS), served from memory.
//!
//! These files are fixed for the life of the process, small (a few MB with
//! their `.br` and `.gz` twins from `cargo leptos build --precompress`), and
//! requested by every first visit. Through Leptos's fallback each request
//! opened and read the file with `tokio::fs` (a blocking-pool hop per read)
//! behind every page middleware, about 2,400 answers a second here; read
//! once at start and handed out as shared `Bytes`, they are served at close
//! to a plain file server's rate. A file that appears later (a development
//! rebuild) is still served from disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::ServeDir;

/// Hashed names change with their content: keep them for a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Unhashed names (development, tests) must be checked again.
const REVALIDATE: &str = "no-cache";
/// Files bigger than this stay on disk (nothing in the bundle comes near).
const MAX_IN_MEMORY: u64 = 32 * 1024 * 1024;
/// A file bigger than this that has a `.br` twin is held in memory only as
/// brotli, which every browser asks for; its plain and gzip forms are read
/// from disk for the rare client that wants them. The large WASM modules
/// and the area packs (`tally pack-wasm`) would otherwise hold about 8 MiB
/// of memory that is almost never served.
const PLAIN_IN_MEMORY_UP_TO: u64 = 256 * 1024;

struct Asset {
    content_type: HeaderValue,
    /// `None` for a large file with a brotli twin: served from disk.
    identity: Option<Bytes>,
    br: Option<Bytes>,
    gzip: Option<Bytes>,
}

/// The files of one `pkg` directory, by their path under `/pkg/`.
#[derive(Clone)]
pub struct StaticAssets {
    files: Arc<HashMap<String, Asset>>,
    dir: PathBuf,
    cache_control: HeaderValue,
}

impl StaticAssets {
    /// Reads every file of `dir` (recursively) with its precompressed
    /// twins. A missing directory is an empty set: nothing is built yet.
    pub fn load(dir: &Path, hashed_names: bool) -> std::io::Result<Self> {
        let mut files = HashMap::new();
        if dir.is_dir() {
            load_dir(dir, dir, &mut files)?;
        }
        Ok(Self {
            files: Arc::new(files),
            dir: dir.to_path_buf(),
            cache_control: HeaderValue::from_static(if hashed_names {
                IMMUTABLE
            } else {
                REVALIDATE
            }),
        })
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

fn load_dir(root: &Path, dir: &Path, files: &mut HashMap<String, Asset>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            load_dir(root, &path, files)?;
            continue;
        }
        let name = path.to_string_lossy();
        if !kind.is_file() || name.ends_with(".br") || name.ends_with(".gz") {
            continue;
        }
        let length = entry.metadata()?.len();
        if length > MAX_IN_MEMORY {
            continue;
        }
        let Ok(relative) = path.strip_prefix(root) else {
            continue;
        };
        let Some(key) = relative.to_str().map(|key| key.replace('\\', "/")) else {
            continue;
        };
        let twin = |suffix: &str| -> Option<Bytes> {
            let mut twin = path.clone().into_os_string();
            twin.push(suffix);
            std::fs::read(twin).ok().map(Bytes::from)
        };
        let br = twin(".br");
        let (identity, gzip) = if length > PLAIN_IN_MEMORY_UP_TO && br.is_some() {
            (None, None)
        } else {
            (Some(Bytes::from(std::fs::read(&path)?)), twin(".gz"))
        };
        files.insert(
            key,
            Asset {
                content_type: content_type(&path),
                identity,
                br,
                gzip,
            },
        );
    }
    Ok(())
}

fn content_type(path: &Path) -> HeaderValue {
    let kind = match path.extension().and_then(|extension| extension.to_str()) {
        Some("wasm") => "application/wasm",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    HeaderValue::from_static(kind)
}

/// Which encodings the client accepts (`q=0` refuses one).
fn accepts(headers: &HeaderMap, encoding: &str) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|param| {
                param
                    .strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            name.eq_ignore_ascii_case(encoding) && !refused
        })
}

/// `GET /pkg/{*path}`.
pub async fn serve(State(assets): State<StaticAssets>, request: Request) -> Response {
    let key = request
        .uri()
        .path()
        .strip_prefix("/pkg/")
        .unwrap_or_default();
    let Some(asset) = assets.files.get(key) else {
        return from_disk(&assets, request).await;
    };
    let headers = request.headers();
    let (body, encoding) = match (&asset.br, &asset.gzip, &asset.identity) {
        (Some(br), _, _) if accepts(headers, "br") => (br.clone(), Some("br")),
        (_, Some(gzip), _) if accepts(headers, "gzip") => (gzip.clone(), Some("gzip")),
        (_, _, Some(identity)) => (identity.clone(), None),
        // A large file held only as brotli, for a client without it.
        (_, _, None) => return from_disk(&assets, request).await,
    };
    let mut response = Body::from(body).into_response();
    let out = response.headers_mut();
    out.insert(header::CONTENT_TYPE, asset.content_type.clone());
    out.insert(header::CACHE_CONTROL, assets.cache_control.clone());
    if asset.br.is_some() || asset.gzip.is_some() {
        out.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    if let Some(encoding) = encoding {
        out.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    response
}

/// A file that was not there at start: read from disk, with the same policy.
async fn from_disk(assets: &StaticAssets, request: Request) -> Response {
    let (mut parts, body) = request.into_parts();
    let path = parts
        .uri
        .path()
        .strip_prefix("/pkg")
        .unwrap_or("/")
        .to_owned();
    let Ok(uri) = path.parse() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    parts.uri = uri;
    let request = Request::from_parts(parts, body);
    let served = ServeDir::new(&assets.dir)
        .precompressed_br()
        .precompressed_gzip()
        .oneshot(request)
        .await;
    let mut response = match served {
        Ok(response) => response.into_response(),
        Err(never) => match never {},
    };
    let policy = if response.status().is_success() {
        assets.cache_control.clone()
    } else {
        HeaderValue::from_static("no-store")
    };
    response.headers_mut().insert(header::CACHE_CONTROL, policy);
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::to_bytes;

    async fn fetch(assets: &StaticAssets, path: &str, accept: &str) -> (Option<String>, Vec<u8>) {
        let request = Request::builder()
            .uri(path)
            .header(header::ACCEPT_ENCODING, accept)
            .body(Body::empty())
            .expect("request");
        let response = serve(State(assets.clone()), request).await;
        assert_eq!(response.status(), StatusCode::OK, "{path} ({accept})");
        let encoding = response
            .headers()
            .get(header::CONTENT_ENCODING)
            .map(|value| value.to_str().expect("ascii").to_owned());
        let body = to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("body");
        (encoding, body.to_vec())
    }

    #[tokio::test]
    async fn a_large_file_is_held_only_as_brotli_and_still_served_plain() {
        let dir = tempfile::tempdir().expect("tempdir");
        let large = vec![7_u8; 300 * 1024];
        std::fs::write(dir.path().join("big.wasm"), &large).expect("write");
        std::fs::write(dir.path().join("big.wasm.br"), b"brotli bytes").expect("write");
        std::fs::write(dir.path().join("big.wasm.gz"), b"gzip bytes").expect("write");
        std::fs::write(dir.path().join("small.js"), b"let a = 1;").expect("write");
        std::fs::write(dir.path().join("small.js.br"), b"small brotli").expect("write");
        let assets = StaticAssets::load(dir.path(), true).expect("load");
        assert!(assets.files["big.wasm"].identity.is_none());
        assert!(assets.files["big.wasm"].gzip.is_none());
        assert!(assets.files["small.js"].identity.is_some());

        assert_eq!(
            fetch(&assets, "/pkg/big.wasm", "gzip, br").await,
            (Some("br".to_owned()), b"brotli bytes".to_vec())
        );
        // From disk, as before, for a client without brotli.
        let (encoding, body) = fetch(&assets, "/pkg/big.wasm", "identity").await;
        assert_eq!((encoding, body.len()), (None, large.len()));
        assert_eq!(
            fetch(&assets, "/pkg/big.wasm", "gzip").await,
            (Some("gzip".to_owned()), b"gzip bytes".to_vec())
        );
        assert_eq!(
            fetch(&assets, "/pkg/small.js", "identity").await,
            (None, b"let a = 1;".to_vec())
        );
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip, deflate, br;q=0"),
        );
        assert!(accepts(&headers, "gzip"));
        assert!(!accepts(&headers, "br"));
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("BR;q=0.5"),
        );
        assert!(accepts(&headers, "br"));
        assert!(!accepts(&HeaderMap::new(), "gzip"));
    }
}
