//! Who is signed in.

use serde::{Deserialize, Serialize};

use crate::domain::role::Role;

/// A signed-in or stored user, without anything secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
}

impl User {
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }
}

/// `GET /api/auth/session`: the user, or `null` when nobody is signed in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    pub user: Option<User>,
}

/// `GET /api/auth/me` and the answer of a completed sign-in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Me {
    pub user: User,
}
