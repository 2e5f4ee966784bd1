//! `/api/tokens`: personal API tokens.

use serde::{Deserialize, Serialize};

/// A token as its owner sees it in Profile (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiTokenInfo {
    pub id: i64,
    pub name: String,
    /// What it may do: `read`, `write`, `admin`, `admin:backup`
    /// (`domain::token_scope`).
    pub scopes: Vec<String>,
    pub created_at: String,
    pub last_used_at: Option<String>,
    /// When it stops working.
    pub expires_at: String,
    /// Past its expiry: kept in the list so its owner sees why a script
    /// stopped, until they remove it.
    pub expired: bool,
}

/// `POST /api/tokens`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CreateToken {
    pub name: String,
    /// 1 to 365; 90 when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_in_days: Option<i64>,
    /// What the token may do; `["read", "write"]` when left out. `admin`
    /// and `admin:backup` only for an administrator's token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes: Option<Vec<String>>,
}

/// The answer to [`CreateToken`]: the token itself, shown this once (only
/// its hash is kept).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct CreatedToken {
    pub token: String,
    pub info: ApiTokenInfo,
}
