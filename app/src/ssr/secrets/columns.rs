/// A column that holds a secret: sealed at rest, never logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecretColumn {
    pub table: &'static str,
    pub column: &'static str,
}

impl SecretColumn {
    /// What a sealed value is bound to: `table.column`.
    pub fn context(&self) -> String {
        format!("{}.{}", self.table, self.column)
    }
}

/// Every secret column in the schema. Re-encryption walks this list; a new
/// secret column must be added here.
pub const SECRET_COLUMNS: &[SecretColumn] = &[
    SecretColumn {
        table: "mail_settings",
        column: "password",
    },
    SecretColumn {
        table: "oidc_settings",
        column: "client_secret",
    },
    SecretColumn {
        table: "bank_connections",
        column: "access_secret",
    },
    SecretColumn {
        table: "users",
        column: "totp_secret",
    },
    SecretColumn {
        table: "push_subscriptions",
        column: "token",
    },
    SecretColumn {
        table: "login_history",
        column: "ip",
    },
    SecretColumn {
        table: "login_history",
        column: "user_agent",
    },
    SecretColumn {
        table: "login_history",
        column: "location",
    },
];
