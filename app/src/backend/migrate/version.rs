use std::fmt;
use std::str::FromStr;

/// A migration version such as `v0.92` or `v1.00`: ordered numerically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    major: u16,
    minor: u16,
}

impl Version {
    pub const fn new(major: u16, minor: u16) -> Self {
        Self { major, minor }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("{0:?} is not a migration version like v0.92")]
pub struct VersionError(String);

impl FromStr for Version {
    type Err = VersionError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = || VersionError(text.to_owned());
        let (major, minor) = text
            .strip_prefix('v')
            .and_then(|rest| rest.split_once('.'))
            .ok_or_else(error)?;
        if minor.len() != 2 {
            return Err(error());
        }
        Ok(Self {
            major: major.parse().map_err(|_| error())?,
            minor: minor.parse().map_err(|_| error())?,
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}.{:02}", self.major, self.minor)
    }
}

#[cfg(test)]
mod tests {
    use super::Version;

    #[test]
    fn parses_orders_and_prints() {
        let v092: Version = "v0.92".parse().unwrap();
        let v099: Version = "v0.99".parse().unwrap();
        let v100: Version = "v1.00".parse().unwrap();
        assert!(v092 < v099 && v099 < v100);
        assert_eq!(v100.to_string(), "v1.00");
        assert_eq!(Version::new(0, 91).to_string(), "v0.91");
        for bad in ["0.92", "v0.9", "v0.923", "vx.10", "v1"] {
            assert!(bad.parse::<Version>().is_err(), "{bad}");
        }
    }
}
