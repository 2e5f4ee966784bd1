//! What can go wrong with a sign-in through the provider. Every failure
//! ends on the sign-in page as `/login?error=<code>` with no session; the
//! page says it in words (`domain::sso_error`), the log has the details.

/// A failed provider sign-in. The texts are for the log: they name no
/// token, code or secret.
#[derive(Debug, thiserror::Error)]
pub enum SsoError {
    #[error("single sign-on is not set up")]
    Off,
    #[error("too many sign-in starts from this address")]
    Throttled(std::time::Duration),
    #[error("the provider cannot be reached or its discovery failed: {0}")]
    Unavailable(String),
    #[error("the provider answered with an error: {0}")]
    Provider(String),
    #[error("the sign-in's state is unknown, expired, used or from another browser")]
    State,
    #[error("the provider's tokens did not check out: {0}")]
    Token(String),
    #[error("no account for this identity, and accounts are not created through the provider")]
    NoAccount,
    #[error("the provider has not verified this email, which belongs to an account")]
    UnverifiedEmail,
    #[error("an account has this email and linking by email is off")]
    EmailTaken,
    #[error("the provider gave no usable email for a new account")]
    NoEmail,
    #[error("the account with this email is an administrator's or has a second factor, and is never linked by email")]
    Protected,
    #[error("the account is disabled")]
    Disabled,
    #[error("this identity at the provider is linked to another account")]
    IdentityTaken,
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("{0}")]
    Auth(#[from] crate::backend::auth::AuthError),
}

impl SsoError {
    /// The short code of `/login?error=`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Off => "sso_off",
            Self::Throttled(_) => "sso_throttled",
            Self::Unavailable(_) => "sso_unavailable",
            Self::Provider(_) => "sso_provider",
            Self::State => "sso_state",
            Self::Token(_) => "sso_token",
            Self::NoAccount => "sso_no_account",
            Self::UnverifiedEmail => "sso_unverified_email",
            Self::EmailTaken => "sso_email_taken",
            Self::NoEmail => "sso_no_email",
            Self::Protected => "sso_link_from_profile",
            Self::Disabled => "sso_disabled",
            Self::IdentityTaken => "sso_identity_taken",
            Self::Database(_) | Self::Auth(_) => "sso_failed",
        }
    }
}

impl From<super::rules::Refusal> for SsoError {
    fn from(refusal: super::rules::Refusal) -> Self {
        use super::rules::Refusal;
        match refusal {
            Refusal::NoAccount => Self::NoAccount,
            Refusal::UnverifiedEmail => Self::UnverifiedEmail,
            Refusal::EmailTaken => Self::EmailTaken,
            Refusal::NoEmail => Self::NoEmail,
            Refusal::Protected => Self::Protected,
        }
    }
}
