//! Security keys' section: the origin ceremonies run from
//! (`WEBAUTHN_ORIGIN`) and whether it fits the public address.

use super::env::{origin_parts, parse_base_url, parse_host, Env};
use super::{ConfigError, Settings};

/// Where the browser runs security-key ceremonies. `WEBAUTHN_ORIGIN` is a
/// full origin (`https://tally.example.com`), or a bare host: `localhost`
/// (the default) means `http://localhost` on any port, any other host means
/// `https://` that host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebauthnOrigin {
    pub url: String,
    pub any_port: bool,
}

/// `WEBAUTHN_ORIGIN`, `http://localhost` on any port by default.
pub(super) fn origin<F>(env: &Env<F>) -> Result<WebauthnOrigin, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    env.parse_or(
        "WEBAUTHN_ORIGIN",
        WebauthnOrigin {
            url: "http://localhost".to_owned(),
            any_port: true,
        },
        parse_webauthn_origin,
    )
}

fn parse_webauthn_origin(raw: &str) -> Result<WebauthnOrigin, String> {
    if raw.contains("://") {
        return parse_base_url(raw).map(|url| WebauthnOrigin {
            url,
            any_port: false,
        });
    }
    let host = parse_host(raw).map_err(|_| {
        "expected an origin like https://tally.example.com, or a host name".to_owned()
    })?;
    Ok(if host == "localhost" {
        WebauthnOrigin {
            url: "http://localhost".to_owned(),
            any_port: true,
        }
    } else {
        WebauthnOrigin {
            url: format!("https://{host}"),
            any_port: false,
        }
    })
}

impl Settings {
    /// Why security keys would not work for people who open
    /// `PUBLIC_BASE_URL`, if they would not: the browser refuses a ceremony
    /// whose origin or RP id does not match the page.
    pub fn webauthn_mismatch(&self) -> Option<String> {
        let (scheme, host, port) = origin_parts(&self.public_base_url)?;
        let (o_scheme, o_host, o_port) = origin_parts(&self.webauthn_origin.url)?;
        let same_origin = scheme == o_scheme
            && host.eq_ignore_ascii_case(o_host)
            && (self.webauthn_origin.any_port || port == o_port);
        let rp = &self.webauthn_rp_id;
        let host = host.to_ascii_lowercase();
        let rp_fits = host == *rp || host.ends_with(&format!(".{rp}"));
        if same_origin && rp_fits {
            return None;
        }
        Some(format!(
            "security keys will not work at PUBLIC_BASE_URL {}: WEBAUTHN_ORIGIN is {} and WEBAUTHN_RP_ID is {rp}; set WEBAUTHN_ORIGIN to the public URL and WEBAUTHN_RP_ID to its host",
            self.public_base_url, self.webauthn_origin.url
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{settings, settings_error};

    #[test]
    fn webauthn_defaults_fit_localhost_and_a_mismatch_is_named() {
        let local = settings(&[]).unwrap();
        assert_eq!(local.webauthn_rp_id, "localhost");
        assert_eq!(local.webauthn_origin.url, "http://localhost");
        assert_eq!(local.webauthn_mismatch(), None, "defaults agree");

        let public = settings(&[("PUBLIC_BASE_URL", "https://tally.example.com")]).unwrap();
        let report = public.webauthn_mismatch().unwrap();
        assert!(
            report.contains("WEBAUTHN_ORIGIN") && report.contains("WEBAUTHN_RP_ID"),
            "{report}"
        );

        let fitted = settings(&[
            ("PUBLIC_BASE_URL", "https://tally.example.com"),
            ("WEBAUTHN_ORIGIN", "tally.example.com"),
            ("WEBAUTHN_RP_ID", "example.com"),
        ])
        .unwrap();
        assert_eq!(fitted.webauthn_origin.url, "https://tally.example.com");
        assert_eq!(
            fitted.webauthn_mismatch(),
            None,
            "a parent domain is a valid RP id"
        );

        let wrong_rp = settings(&[
            ("PUBLIC_BASE_URL", "https://tally.example.com"),
            ("WEBAUTHN_ORIGIN", "https://tally.example.com"),
            ("WEBAUTHN_RP_ID", "other.com"),
        ])
        .unwrap();
        assert!(wrong_rp.webauthn_mismatch().is_some());
        let error = settings_error("WEBAUTHN_RP_ID", "https://example.com");
        assert!(
            error.contains("WEBAUTHN_RP_ID") && error.contains("host name"),
            "{error}"
        );
    }
}
