//! What an account may do: use Tally, or also run it (Admin).

use serde::{Deserialize, Serialize};

/// Stored and sent as `user` or `admin`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "ssr", derive(sqlx::Type))]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ssr", sqlx(rename_all = "lowercase"))]
pub enum Role {
    #[default]
    User,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Admin => "admin",
            Self::User => "user",
        }
    }

    /// The word shown in the UI.
    pub fn label(self) -> &'static str {
        match self {
            Self::Admin => "Administrator",
            Self::User => "User",
        }
    }

    /// From the UI's select, the inverse of [`Role::as_str`].
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "admin" => Some(Self::Admin),
            "user" => Some(Self::User),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_travel_as_lowercase_words() {
        assert_eq!(serde_json::to_string(&Role::Admin).unwrap(), "\"admin\"");
        assert_eq!(
            serde_json::from_str::<Role>("\"user\"").unwrap(),
            Role::User
        );
        assert!(serde_json::from_str::<Role>("\"root\"").is_err());
        for role in [Role::User, Role::Admin] {
            assert_eq!(Role::parse(role.as_str()), Some(role));
        }
    }
}
