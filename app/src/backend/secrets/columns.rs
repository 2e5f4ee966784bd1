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

const fn column(table: &'static str, column: &'static str) -> SecretColumn {
    SecretColumn { table, column }
}

pub const MAIL_PASSWORD: SecretColumn = column("mail_settings", "password");
pub const OIDC_CLIENT_SECRET: SecretColumn = column("oidc_settings", "client_secret");
pub const BANK_ACCESS_SECRET: SecretColumn = column("bank_connections", "access_secret");
pub const TOTP_SECRET: SecretColumn = column("users", "totp_secret");
pub const PUSH_TOKEN: SecretColumn = column("push_subscriptions", "token");
/// A notification channel's tokens, webhook URL and signing secret.
pub const NOTIFICATION_SECRET: SecretColumn = column("notification_channels", "secret");
/// The ID token of a session that came from the identity provider.
pub const SESSION_ID_TOKEN: SecretColumn = column("sessions", "oidc_id_token");
pub const LOGIN_IP: SecretColumn = column("login_history", "ip");
pub const LOGIN_USER_AGENT: SecretColumn = column("login_history", "user_agent");
pub const LOGIN_LOCATION: SecretColumn = column("login_history", "location");

/// Every secret column in the schema. Re-encryption walks this list; a new
/// secret column must be added here.
pub const SECRET_COLUMNS: &[SecretColumn] = &[
    MAIL_PASSWORD,
    OIDC_CLIENT_SECRET,
    BANK_ACCESS_SECRET,
    TOTP_SECRET,
    PUSH_TOKEN,
    NOTIFICATION_SECRET,
    SESSION_ID_TOKEN,
    LOGIN_IP,
    LOGIN_USER_AGENT,
    LOGIN_LOCATION,
];
