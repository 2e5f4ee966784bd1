//! The image registry (Docker Registry HTTP API v2): which numbered
//! versions it holds. Read anonymously.

use std::time::Duration;

use super::OpsError;

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
    pub fn new(base: String, repository: String) -> Result<Self, OpsError> {
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
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
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
        let host = self
            .base
            .split_once("://")
            .map_or(self.base.as_str(), |(_, host)| host);
        format!("{host}/{}:{tag}", self.repository)
    }

    /// Every tag the repository holds (none when it does not exist yet).
    pub async fn tags(&self) -> Result<Vec<String>, OpsError> {
        let url = format!("{}/v2/{}/tags/list", self.base, self.repository);
        let response = super::answered(self.http.get(&url), &url, |text| {
            let body: serde_json::Value = serde_json::from_str(text).ok()?;
            body["errors"][0]["message"].as_str().map(str::to_owned)
        })
        .await;
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
}
