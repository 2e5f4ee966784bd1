//! Reading an image's manifest from the registry's answer: Docker v2 and
//! OCI manifests, and the lists/indexes that point at one manifest per
//! platform (linux/amd64 is chosen, as the stack runs there); the config
//! blob's `org.opencontainers.image.version` label.

use serde_json::Value;

pub const ACCEPT: &str = "application/vnd.oci.image.index.v1+json, \
    application/vnd.docker.distribution.manifest.list.v2+json, \
    application/vnd.oci.image.manifest.v1+json, \
    application/vnd.docker.distribution.manifest.v2+json";

/// The label an image's version is read from.
pub const VERSION_LABEL: &str = "org.opencontainers.image.version";

/// What a manifest answer is.
#[derive(Debug, PartialEq, Eq)]
pub enum Manifest {
    /// One image: its config blob's digest.
    Image { config: String },
    /// A list of images: the digest of the linux/amd64 one.
    Index { chosen: String },
}

/// Reads a manifest or an index, by its media type (the body's, or else
/// the `Content-Type`).
pub fn parse(content_type: &str, body: &[u8]) -> Result<Manifest, String> {
    let value: Value =
        serde_json::from_slice(body).map_err(|error| format!("not a JSON manifest: {error}"))?;
    let media_type = value["mediaType"]
        .as_str()
        .unwrap_or(content_type.split(';').next().unwrap_or_default().trim());
    match media_type {
        "application/vnd.oci.image.index.v1+json"
        | "application/vnd.docker.distribution.manifest.list.v2+json" => {
            let manifests = value["manifests"].as_array().cloned().unwrap_or_default();
            let platform = |m: &Value| {
                (
                    m["platform"]["os"].as_str().unwrap_or_default().to_owned(),
                    m["platform"]["architecture"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                )
            };
            manifests
                .iter()
                .find(|m| platform(m) == ("linux".into(), "amd64".into()))
                .or_else(|| manifests.iter().find(|m| platform(m).0 != "unknown"))
                .and_then(|m| m["digest"].as_str())
                .map(|digest| Manifest::Index {
                    chosen: digest.to_owned(),
                })
                .ok_or_else(|| "the image index lists no linux image".to_owned())
        }
        "application/vnd.oci.image.manifest.v1+json"
        | "application/vnd.docker.distribution.manifest.v2+json" => value["config"]["digest"]
            .as_str()
            .filter(|digest| digest.starts_with("sha256:"))
            .map(|digest| Manifest::Image {
                config: digest.to_owned(),
            })
            .ok_or_else(|| "the manifest names no config blob".to_owned()),
        other => Err(format!("unsupported manifest type {other:?}")),
    }
}

/// The version label of an image config blob; `None` without one.
pub fn version_label(config: &[u8]) -> Result<Option<String>, String> {
    let value: Value = serde_json::from_slice(config)
        .map_err(|error| format!("the image config is not JSON: {error}"))?;
    Ok(value["config"]["Labels"][VERSION_LABEL]
        .as_str()
        .map(str::to_owned))
}

/// `sha256:<hex>` of `bytes`, for a registry that sends no
/// `Docker-Content-Digest`.
pub fn digest_of(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    format!("sha256:{:x}", Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn docker_and_oci_manifests_and_indexes_are_read() {
        let docker = json!({
            "schemaVersion": 2,
            "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
            "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "digest": "sha256:c0", "size": 7}
        });
        assert_eq!(
            parse("", docker.to_string().as_bytes()),
            Ok(Manifest::Image {
                config: "sha256:c0".into()
            })
        );
        // OCI manifests may leave mediaType out of the body.
        let oci = json!({"schemaVersion": 2, "config": {"digest": "sha256:c1"}});
        assert_eq!(
            parse(
                "application/vnd.oci.image.manifest.v1+json; charset=utf-8",
                oci.to_string().as_bytes()
            ),
            Ok(Manifest::Image {
                config: "sha256:c1".into()
            })
        );
        let index = json!({
            "mediaType": "application/vnd.oci.image.index.v1+json",
            "manifests": [
                {"digest": "sha256:arm", "platform": {"os": "linux", "architecture": "arm64"}},
                {"digest": "sha256:att", "platform": {"os": "unknown", "architecture": "unknown"}},
                {"digest": "sha256:amd", "platform": {"os": "linux", "architecture": "amd64"}}
            ]
        });
        assert_eq!(
            parse("", index.to_string().as_bytes()),
            Ok(Manifest::Index {
                chosen: "sha256:amd".into()
            })
        );
        assert!(parse(
            "application/vnd.docker.distribution.manifest.v1+prettyjws",
            b"{}"
        )
        .is_err());
        assert!(parse("", b"not json").is_err());
    }

    #[test]
    fn the_version_label_is_read_or_absent() {
        let config = json!({"config": {"Labels": {VERSION_LABEL: "v1.2.3"}}});
        assert_eq!(
            version_label(config.to_string().as_bytes()),
            Ok(Some("v1.2.3".into()))
        );
        assert_eq!(version_label(br#"{"config": {}}"#), Ok(None));
        assert!(version_label(b"<html>").is_err());
        assert_eq!(
            digest_of(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
