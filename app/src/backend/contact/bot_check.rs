//! The bot check: a Turnstile/hCaptcha-style `siteverify` call (form post of
//! secret, response token and remote IP; JSON `{"success": bool}` back).
//! Off when not configured. A provider that does not answer in time fails
//! the submission closed: better to ask the visitor to retry than to let an
//! unchecked one through.

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

/// How long the provider may take.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// The provider's settings (`CAPTCHA_*`). It holds the secret: its `Debug`
/// leaves the secret out.
#[derive(Clone)]
pub struct BotCheckConfig {
    pub siteverify_url: String,
    pub secret: SecretString,
    pub site_key: String,
    /// The widget script the forms load.
    pub script_url: String,
    /// What the pages' Content-Security-Policy allows for the widget (the
    /// script's origin unless `CAPTCHA_CSP_SOURCES` says otherwise).
    pub csp_sources: Vec<String>,
}

impl std::fmt::Debug for BotCheckConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotCheckConfig")
            .field("siteverify_url", &self.siteverify_url)
            .field("site_key", &self.site_key)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotCheckError {
    #[error("complete the bot check and send the form again")]
    Missing,
    #[error("the bot check failed; complete it again and resend")]
    Failed,
    #[error(
        "the bot check service is not answering; nothing was saved, please try again in a minute"
    )]
    Unavailable,
}

pub struct BotCheck {
    config: Option<BotCheckConfig>,
    client: reqwest::Client,
}

#[derive(Deserialize)]
struct Verdict {
    success: bool,
}

impl BotCheck {
    pub fn new(config: Option<BotCheckConfig>) -> Self {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .build()
            .unwrap_or_default();
        Self { config, client }
    }

    /// The site key for the form's widget, when the check is on.
    pub fn site_key(&self) -> Option<&str> {
        self.config.as_ref().map(|config| config.site_key.as_str())
    }

    /// The widget script the forms load, when the check is on.
    pub fn script_url(&self) -> Option<&str> {
        self.config
            .as_ref()
            .map(|config| config.script_url.as_str())
    }

    /// Verifies the visitor's token; `Ok` when the check is off.
    pub async fn verify(&self, token: Option<&str>, remote_ip: &str) -> Result<(), BotCheckError> {
        let Some(config) = &self.config else {
            return Ok(());
        };
        let token = token
            .map(str::trim)
            .filter(|token| !token.is_empty())
            .ok_or(BotCheckError::Missing)?;
        let answer = self
            .client
            .post(&config.siteverify_url)
            .form(&[
                ("secret", config.secret.expose_secret()),
                ("response", token),
                ("remoteip", remote_ip),
            ])
            .send()
            .await
            .map_err(|error| {
                tracing::warn!(%error, "bot check provider unreachable");
                BotCheckError::Unavailable
            })?;
        if !answer.status().is_success() {
            tracing::warn!(status = %answer.status(), "bot check provider answered with an error");
            return Err(BotCheckError::Unavailable);
        }
        let verdict: Verdict = answer.json().await.map_err(|error| {
            tracing::warn!(%error, "bot check provider answered something unreadable");
            BotCheckError::Unavailable
        })?;
        if verdict.success {
            Ok(())
        } else {
            Err(BotCheckError::Failed)
        }
    }
}
