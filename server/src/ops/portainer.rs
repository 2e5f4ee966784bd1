//! The container-management API (Portainer): its stacks, and the Docker
//! Engine API it proxies under `/api/endpoints/{id}/docker/…`. Every call
//! carries the API key as `X-API-Key`; the key is never printed, and no
//! redirect is followed (reqwest would carry the key to any host, and
//! re-send a stack update's variables on a 307 or 308).

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;

use super::OpsError;

/// The compose project label every container of the stack carries: a
/// deploy recreates the container under a new id, so it is found by this.
pub const PROJECT_LABEL: &str = "com.docker.compose.project";
/// The version label a release image carries.
pub const VERSION_LABEL: &str = "org.opencontainers.image.version";

pub struct Portainer {
    base: String,
    key: SecretString,
    http: reqwest::Client,
}

/// A stack as Portainer describes it.
#[derive(Debug)]
pub struct Stack {
    pub id: i64,
    pub name: String,
    pub endpoint_id: i64,
    /// Its environment variables' names (the values hold secrets and are
    /// kept only where a deploy sends them back).
    pub env: Vec<Value>,
}

impl Portainer {
    pub fn new(base: String, key: SecretString) -> Result<Self, OpsError> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| OpsError::Failed(format!("cannot make an HTTP client: {error}")))?;
        Ok(Self { base, key, http })
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    async fn call(
        &self,
        request: reqwest::RequestBuilder,
        url: &str,
    ) -> Result<reqwest::Response, OpsError> {
        super::answered(
            request.header("X-API-Key", self.key.expose_secret()),
            url,
            |text| {
                let body: Value = serde_json::from_str(text).ok()?;
                body["message"]
                    .as_str()
                    .or(body["details"].as_str())
                    .map(str::to_owned)
            },
        )
        .await
    }

    pub async fn get(&self, path: &str) -> Result<Value, OpsError> {
        let url = format!("{}{path}", self.base);
        self.call(self.http.get(&url), &url)
            .await?
            .json()
            .await
            .map_err(|error| {
                OpsError::Failed(format!("{url} answered something other than JSON: {error}"))
            })
    }

    pub async fn put(&self, path: &str, body: &Value) -> Result<Value, OpsError> {
        let url = format!("{}{path}", self.base);
        self.call(self.http.put(&url).json(body), &url)
            .await?
            .json()
            .await
            .map_err(|error| {
                OpsError::Failed(format!("{url} answered something other than JSON: {error}"))
            })
    }

    /// The stack named `name`; `endpoint` overrides its endpoint id.
    pub async fn stack(&self, name: &str, endpoint: Option<i64>) -> Result<Stack, OpsError> {
        let stacks = self.get("/api/stacks").await?;
        let found = stacks
            .as_array()
            .into_iter()
            .flatten()
            .find(|stack| stack["Name"].as_str() == Some(name))
            .ok_or_else(|| OpsError::Failed(format!("Portainer has no stack named {name:?}")))?;
        Ok(Stack {
            id: found["Id"].as_i64().unwrap_or_default(),
            name: name.to_owned(),
            endpoint_id: endpoint.or(found["EndpointId"].as_i64()).ok_or_else(|| {
                OpsError::Failed(format!(
                    "stack {name:?} names no endpoint; pass --endpoint-id"
                ))
            })?,
            env: found["Env"].as_array().cloned().unwrap_or_default(),
        })
    }

    fn docker(endpoint: i64, path: &str) -> String {
        format!("/api/endpoints/{endpoint}/docker{path}")
    }

    /// The stack's container (running or not), found by its project label.
    pub async fn container(&self, endpoint: i64, project: &str) -> Result<Option<Value>, OpsError> {
        let filters =
            serde_json::json!({ "label": [format!("{PROJECT_LABEL}={project}")] }).to_string();
        let query: String = url_encode(&filters);
        let list = self
            .get(&Self::docker(
                endpoint,
                &format!("/containers/json?all=1&filters={query}"),
            ))
            .await?;
        let Some(first) = list.as_array().and_then(|all| all.first()) else {
            return Ok(None);
        };
        let id = first["Id"].as_str().unwrap_or_default();
        Ok(Some(
            self.get(&Self::docker(endpoint, &format!("/containers/{id}/json")))
                .await?,
        ))
    }

    pub async fn image(&self, endpoint: i64, image: &str) -> Result<Value, OpsError> {
        self.get(&Self::docker(endpoint, &format!("/images/{image}/json")))
            .await
    }

    /// The last `tail` log lines of a container (stdout and stderr).
    pub async fn logs(&self, endpoint: i64, id: &str, tail: u32) -> Result<Vec<String>, OpsError> {
        let path = Self::docker(
            endpoint,
            &format!("/containers/{id}/logs?stdout=1&stderr=1&tail={tail}"),
        );
        let url = format!("{}{path}", self.base);
        let bytes = self
            .call(self.http.get(&url), &url)
            .await?
            .bytes()
            .await
            .map_err(|error| OpsError::Unreachable {
                url: url.clone(),
                reason: error.to_string(),
            })?;
        Ok(demultiplex(&bytes))
    }
}

/// Percent-encodes a query value.
fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(byte).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// Docker's log stream: frames of an 8-byte header (stream, 3 zero bytes,
/// big-endian length) and the payload; a container with a TTY sends plain
/// text instead.
pub fn demultiplex(bytes: &[u8]) -> Vec<String> {
    let framed = bytes.len() >= 8 && matches!(bytes[0], 0..=2) && bytes[1..4] == [0, 0, 0];
    let mut text = Vec::new();
    if framed {
        let mut rest = bytes;
        while rest.len() >= 8 {
            let length = u32::from_be_bytes([rest[4], rest[5], rest[6], rest[7]]) as usize;
            let end = (8 + length).min(rest.len());
            text.extend_from_slice(&rest[8..end]);
            rest = &rest[end..];
        }
    } else {
        text.extend_from_slice(bytes);
    }
    String::from_utf8_lossy(&text)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docker_log_frames_are_joined_into_lines() {
        let mut bytes = Vec::new();
        for (stream, text) in [(1_u8, "one\ntw"), (2, "o\nthree\n")] {
            bytes.extend_from_slice(&[stream, 0, 0, 0]);
            bytes.extend_from_slice(&(text.len() as u32).to_be_bytes());
            bytes.extend_from_slice(text.as_bytes());
        }
        assert_eq!(demultiplex(&bytes), vec!["one", "two", "three"]);
        assert_eq!(demultiplex(b"plain\ntext"), vec!["plain", "text"]);
    }

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(
            url_encode(r#"{"a":["b=c"]}"#),
            "%7B%22a%22%3A%5B%22b%3Dc%22%5D%7D"
        );
    }
}
