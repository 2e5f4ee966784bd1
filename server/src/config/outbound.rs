//! The outbound guard's section: whether private addresses may be called
//! (`OUTBOUND_ALLOW_PRIVATE`) and which hosts, addresses and networks may be
//! called although they are not public (`OUTBOUND_ALLOWED_HOSTS`), as the
//! app's own `OutboundSettings`.

use app::ssr::outbound::{AllowList, OutboundSettings};

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
