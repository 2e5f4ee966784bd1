//! The image registry (Docker Registry HTTP API v2): which numbered
//! versions it holds, and a tag's manifest digest and version label (Docker
//! v2 or OCI manifests, indexes, config blobs through redirects). Read
//! anonymously; every document bounded in size. Redirects (a blob's to its
//! storage) are followed, to https only unless plain http is allowed.

use std::time::Duration;

use super::image_manifest::{self, Manifest};
use super::OpsError;

/// The largest manifest or config blob read.
const DOCUMENT_LIMIT: usize = 4 * 1024 * 1024;

/// A published image: the registry's manifest digest for its tag and the
/// version label of its config ("unknown" is `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Published {
    pub digest: String,
    pub version: Option<String>,
}

/// The registry's own error message in an error body.
fn registry_message(text: &str) -> Option<String> {
    let body: serde_json::Value = serde_json::from_str(text).ok()?;
    body["errors"][0]["message"].as_str().map(str::to_owned)
}

/// A response body, refused past [`DOCUMENT_LIMIT`].
async fn bounded(mut response: reqwest::Response, url: &str) -> Result<Vec<u8>, OpsError> {
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|error| OpsError::Unreachable {
            url: url.to_owned(),
            reason: error.to_string(),
        })?
    {
        if body.len() + chunk.len() > DOCUMENT_LIMIT {
            return Err(OpsError::Failed(format!(
                "{url} answered more than {} MiB; not a manifest",
                DOCUMENT_LIMIT >> 20
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// A numbered release version, `v<major>.<minor>.<patch>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u64, pub u64, pub u64);

impl Version {
    /// Only `v1.2.3` (no pre-release, no build suffix, no leading zeros
    /// beyond a lone 0): anything else is a floating or made-up tag.
    pub fn parse(tag: &str) -> Option<Self> {
        let rest = tag.strip_prefix('v')?;
        let mut parts = rest.split('.');
        let mut next = || -> Option<u64> {
            let part = parts.next()?;
            let numeric = !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
            let canonical = part == "0" || !part.starts_with('0');
            (numeric && canonical).then(|| part.parse().ok()).flatten()
        };
        let version = Self(next()?, next()?, next()?);
        parts.next().is_none().then_some(version)
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "v{}.{}.{}", self.0, self.1, self.2)
    }
}

pub struct Registry {
    base: String,
    repository: String,
    http: reqwest::Client,
}

impl Registry {
    pub fn new(base: String, repository: String, allow_http: bool) -> Result<Self, OpsError> {
        let repository = repository.trim().trim_matches('/').to_owned();
        if repository.is_empty()
            || !repository
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-/".contains(&b))
        {
            return Err(OpsError::Usage(format!(
                "--repository: {repository:?} is not a repository name such as acme/tally"
            )));
        }
        let redirects = reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() >= 10 {
                attempt.error("more than 10 redirects")
            } else if attempt.url().scheme() != "https" && !allow_http {
                let to = attempt.url().to_string();
                attempt.error(format!(
                    "a redirect to {to}, not https; not followed (--allow-http allows it)"
                ))
            } else {
                attempt.follow()
            }
        });
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .redirect(redirects)
            .build()
            .map_err(|error| OpsError::Failed(format!("cannot make an HTTP client: {error}")))?;
        Ok(Self {
            base,
            repository,
            http,
        })
    }

    /// `host[:port]/repository`, as image references name it.
    pub fn image(&self, version: Version) -> String {
        self.image_tagged(&version.to_string())
    }

    /// `host[:port]/repository:tag` for any tag.
    pub fn image_tagged(&self, tag: &str) -> String {
        format!("{}:{tag}", self.image_name())
    }

    /// `host[:port]/repository`, as image references name it before the
    /// tag and digest.
    pub fn image_name(&self) -> String {
        let host = self
            .base
            .split_once("://")
            .map_or(self.base.as_str(), |(_, host)| host);
        format!("{host}/{}", self.repository)
    }

    /// `host[:port]/repository:tag@digest`: the image a deploy runs,
    /// pinned to the digest it checked (Docker pulls by the digest and
    /// keeps the tag only for people to read). Both parts are checked
    /// first, since they come from the registry and go into the stack.
    pub fn image_pinned(&self, tag: &str, digest: &str) -> Result<String, OpsError> {
        if !is_tag(tag) {
            return Err(OpsError::Failed(format!("{tag:?} is not an image tag")));
        }
        if !is_digest(digest) {
            return Err(OpsError::Failed(format!(
                "the registry gave {digest:?} as the digest of {tag}, which is not a sha256 or sha512 digest; nothing was deployed"
            )));
        }
        Ok(format!("{}@{digest}", self.image_tagged(tag)))
    }

    /// Every tag the repository holds (none when it does not exist yet).
    pub async fn tags(&self) -> Result<Vec<String>, OpsError> {
        let url = format!("{}/v2/{}/tags/list", self.base, self.repository);
        let response = super::answered(self.http.get(&url), &url, registry_message).await;
        let body: serde_json::Value = match response {
            Err(OpsError::Refused { status: 404, .. }) => return Ok(Vec::new()),
            Err(other) => return Err(other),
            Ok(response) => response.json().await.map_err(|error| {
                OpsError::Failed(format!(
                    "{url} answered something other than a tag list: {error}"
                ))
            })?,
        };
        Ok(body["tags"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|tag| tag.as_str().map(str::to_owned))
            .collect())
    }
}

impl Registry {
    /// A tag's manifest digest and version label; `None` when the registry
    /// does not hold the tag.
    pub async fn published(&self, tag: &str) -> Result<Option<Published>, OpsError> {
        let Some((digest, manifest)) = self.manifest(tag).await? else {
            return Ok(None);
        };
        let config = match manifest {
            Manifest::Image { config } => config,
            Manifest::Index { chosen } => match self.manifest(&chosen).await? {
                Some((_, Manifest::Image { config })) => config,
                Some((_, Manifest::Index { .. })) => {
                    return Err(OpsError::Failed(format!(
                        "{tag}: an image index points at another index"
                    )))
                }
                None => {
                    return Err(OpsError::Failed(format!(
                        "{tag}: the image index names {chosen}, which the registry does not hold"
                    )))
                }
            },
        };
        // Registries often answer a blob with a redirect to storage;
        // reqwest follows up to ten.
        let url = format!("{}/v2/{}/blobs/{config}", self.base, self.repository);
        let response = super::answered(self.http.get(&url), &url, registry_message).await?;
        let blob = bounded(response, &url).await?;
        let version = image_manifest::version_label(&blob)
            .map_err(|problem| OpsError::Failed(format!("{url}: {problem}")))?;
        Ok(Some(Published { digest, version }))
    }

    /// A manifest or index by tag or digest, with its digest.
    async fn manifest(&self, reference: &str) -> Result<Option<(String, Manifest)>, OpsError> {
        let url = format!("{}/v2/{}/manifests/{reference}", self.base, self.repository);
        let request = self
            .http
            .get(&url)
            .header(reqwest::header::ACCEPT, image_manifest::ACCEPT);
        let response = match super::answered(request, &url, registry_message).await {
            Err(OpsError::Refused { status: 404, .. }) => return Ok(None),
            other => other?,
        };
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned)
        };
        let (digest, content_type) = (
            header("docker-content-digest"),
            header("content-type").unwrap_or_default(),
        );
        let body = bounded(response, &url).await?;
        let manifest = image_manifest::parse(&content_type, &body)
            .map_err(|problem| OpsError::Failed(format!("{url}: {problem}")))?;
        let digest = digest.unwrap_or_else(|| image_manifest::digest_of(&body));
        Ok(Some((digest, manifest)))
    }
}

/// A tag as Docker takes it: `[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`.
fn is_tag(tag: &str) -> bool {
    let mut bytes = tag.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        && tag.len() <= 128
        && bytes.all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
}

/// A content digest of a registered algorithm, as the OCI image
/// specification writes it: `sha256:` and 64, or `sha512:` and 128,
/// lowercase hex digits.
fn is_digest(digest: &str) -> bool {
    let hex = |encoded: &str, length: usize| {
        encoded.len() == length
            && encoded
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    match digest.split_once(':') {
        Some(("sha256", encoded)) => hex(encoded, 64),
        Some(("sha512", encoded)) => hex(encoded, 128),
        _ => false,
    }
}

/// The newest numbered version among `tags`, if any.
pub fn newest(tags: &[String]) -> Option<Version> {
    tags.iter().filter_map(|tag| Version::parse(tag)).max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_numbered_versions_parse() {
        assert_eq!(Version::parse("v1.2.3"), Some(Version(1, 2, 3)));
        assert_eq!(Version::parse("v0.10.0"), Some(Version(0, 10, 0)));
        for floating in [
            "latest",
            "dev",
            "1.2.3",
            "v1.2",
            "v1.2.3.4",
            "v1.2.3-rc1",
            "v01.2.3",
            "v1..3",
            "v-1.2.3",
            "",
        ] {
            assert_eq!(Version::parse(floating), None, "{floating}");
        }
        assert!(Version(1, 10, 0) > Version(1, 9, 9));
        assert_eq!(Version(2, 0, 1).to_string(), "v2.0.1");
        let tags: Vec<String> = ["v1.9.0", "latest", "v1.10.0", "v1.2.3"]
            .map(String::from)
            .to_vec();
        assert_eq!(newest(&tags), Some(Version(1, 10, 0)));
        assert_eq!(newest(&["dev".to_owned()]), None);
    }

    #[test]
    fn only_well_formed_tags_and_digests_are_pinned() {
        let registry = Registry::new(
            "https://reg.example:5000".into(),
            "acme/tally".into(),
            false,
        )
        .unwrap();
        let digest = format!("sha256:{}", "ab".repeat(32));
        assert_eq!(
            registry.image_pinned("v1.2.3", &digest).unwrap(),
            format!("reg.example:5000/acme/tally:v1.2.3@{digest}")
        );
        assert!(registry
            .image_pinned("latest", &format!("sha512:{}", "0".repeat(128)))
            .is_ok());
        for wrong in [
            "sha256:abc".to_owned(),
            format!("sha256:{}", "AB".repeat(32)),
            format!("sha256:{} #", "ab".repeat(32)),
            format!("md5:{}", "ab".repeat(32)),
            "ab".repeat(32),
        ] {
            assert!(registry.image_pinned("v1.2.3", &wrong).is_err(), "{wrong}");
        }
        for wrong in ["", "-x", "a b", "v1\nimage: evil", &"a".repeat(129)] {
            assert!(registry.image_pinned(wrong, &digest).is_err(), "{wrong}");
        }
    }
}
