//! Sending one message to one channel, once: every kind's transport. The
//! run and the test button both come here (the same renderer, guard and
//! transport), so a working test means working reminders.

pub mod email;
pub mod http;
pub mod signature;

use secrecy::SecretString;

use super::render::Message;
use super::rules::AttemptFailure;
use super::store::ChannelRow;
use crate::backend::outbound::Outbound;
use crate::domain::notification::{ChannelKind, NTFY_DEFAULT_SERVER};

pub use email::MailServer;

/// An attempt that went out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sent {
    /// The HTTP status (or SMTP reply code) of the answer.
    pub status: Option<u16>,
}

/// An attempt that did not; `error` is fit to show the channel's owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed {
    pub failure: AttemptFailure,
    pub error: String,
}

/// The channel's secrets, opened for one send. Not `Debug`, not
/// `Serialize`.
#[derive(Default)]
pub struct Secrets {
    pub token: Option<SecretString>,
    pub webhook_url: Option<SecretString>,
    pub bot_token: Option<SecretString>,
    /// A webhook's signing secret (`whsec_…`).
    pub signing_secret: Option<SecretString>,
}

impl Secrets {
    /// From the opened JSON object (`token`, `webhookUrl`, `botToken`,
    /// `signingSecret`).
    pub fn from_map(map: &serde_json::Map<String, serde_json::Value>) -> Self {
        let get = |key: &str| {
            map.get(key)
                .and_then(serde_json::Value::as_str)
                .map(|text| SecretString::from(text.to_owned()))
        };
        Self {
            token: get("token"),
            webhook_url: get("webhookUrl"),
            bot_token: get("botToken"),
            signing_secret: get("signingSecret"),
        }
    }
}

/// What every send needs besides the channel.
#[derive(Clone)]
pub struct Transports {
    pub outbound: Outbound,
    /// `NOTIFY_ALLOW_HTTP`.
    pub allow_http: bool,
    /// `TELEGRAM_API_URL` (`https://api.telegram.org`).
    pub telegram_api: String,
    /// The host of `PUBLIC_BASE_URL`, for `Message-ID`s and `EHLO`.
    pub message_host: String,
}

fn missing(what: &str) -> Failed {
    Failed {
        failure: AttemptFailure {
            status: None,
            retry_after: None,
            permanent: true,
        },
        error: format!("the channel has no {what}; edit it and set one"),
    }
}

impl Transports {
    /// One attempt to send `message` through `channel`. `account_email`
    /// is where an email channel without an address goes; `mail` is the
    /// administrator's mail server, when one is set.
    pub async fn send(
        &self,
        channel: &ChannelRow,
        secrets: &Secrets,
        message: &Message,
        account_email: &str,
        mail: Option<&MailServer>,
    ) -> Result<Sent, Failed> {
        use secrecy::ExposeSecret;
        let settings = channel.settings();
        let request = match channel.kind {
            ChannelKind::Email => {
                let Some(mail) = mail else {
                    return Err(Failed {
                        failure: AttemptFailure {
                            status: None,
                            retry_after: None,
                            permanent: false,
                        },
                        error: "email is not set up on this Tally yet; an administrator can set it up in Admin → Notifications".into(),
                    });
                };
                let to = settings.address.as_deref().unwrap_or(account_email);
                return email::send(&self.outbound, mail, to, message, &self.message_host).await;
            }
            ChannelKind::Ntfy => http::ntfy(
                settings
                    .server_url
                    .as_deref()
                    .unwrap_or(NTFY_DEFAULT_SERVER),
                settings.topic.as_deref().ok_or_else(|| missing("topic"))?,
                secrets.token.as_ref().map(|token| token.expose_secret()),
                message,
            ),
            ChannelKind::Gotify => http::gotify(
                settings
                    .server_url
                    .as_deref()
                    .ok_or_else(|| missing("server URL"))?,
                secrets
                    .token
                    .as_ref()
                    .ok_or_else(|| missing("application token"))?
                    .expose_secret(),
                message,
            ),
            ChannelKind::Discord => http::discord(
                secrets
                    .webhook_url
                    .as_ref()
                    .ok_or_else(|| missing("webhook URL"))?
                    .expose_secret(),
                message,
            ),
            ChannelKind::Telegram => http::telegram(
                &self.telegram_api,
                secrets
                    .bot_token
                    .as_ref()
                    .ok_or_else(|| missing("bot token"))?
                    .expose_secret(),
                settings
                    .chat_id
                    .as_deref()
                    .ok_or_else(|| missing("chat id"))?,
                message,
            ),
            ChannelKind::Webhook => http::webhook(
                settings.url.as_deref().ok_or_else(|| missing("URL"))?,
                secrets
                    .signing_secret
                    .as_ref()
                    .ok_or_else(|| missing("signing secret"))?
                    .expose_secret(),
                message,
                jiff::Timestamp::now().as_second(),
            ),
        };
        // Telegram's API base is the administrator's; the channel's fields
        // are the user's. Either way, https unless allowed.
        http::post(&self.outbound, request, self.allow_http).await
    }
}
