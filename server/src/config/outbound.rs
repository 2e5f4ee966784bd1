//! The outbound guard's section: whether private addresses may be called
//! (`OUTBOUND_ALLOW_PRIVATE`) and which hosts, addresses and networks may be
//! called although they are not public (`OUTBOUND_ALLOWED_HOSTS`), as the
//! app's own `OutboundSettings`.

use app::backend::outbound::{AllowList, OutboundSettings};

use super::env::{parse_bool, Env};
use super::ConfigError;

pub(super) fn outbound<F>(env: &Env<F>) -> Result<OutboundSettings, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    Ok(OutboundSettings {
        allow_private: env.parse_or("OUTBOUND_ALLOW_PRIVATE", false, parse_bool)?,
        allowed: env.parse_or(
            "OUTBOUND_ALLOWED_HOSTS",
            AllowList::default(),
            AllowList::parse,
        )?,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{settings, settings_error};

    #[test]
    fn private_addresses_are_refused_until_an_administrator_allows_them() {
        let strict = settings(&[]).unwrap().outbound;
        assert!(!strict.allow_private && strict.allowed.is_empty());
        let open = settings(&[("OUTBOUND_ALLOW_PRIVATE", "true")]).unwrap();
        assert!(open.outbound.allow_private);
        let listed = settings(&[("OUTBOUND_ALLOWED_HOSTS", "ntfy.lan, 10.0.0.0/8")]).unwrap();
        assert!(listed.outbound.names("NTFY.lan"));
        let error = settings_error("OUTBOUND_ALLOWED_HOSTS", "10.0.0.0/40");
        assert!(
            error.starts_with("OUTBOUND_ALLOWED_HOSTS is invalid"),
            "{error}"
        );
        let error = settings_error("OUTBOUND_ALLOWED_HOSTS", "https://ntfy.lan");
        assert!(
            error.starts_with("OUTBOUND_ALLOWED_HOSTS is invalid"),
            "{error}"
        );
    }
}
