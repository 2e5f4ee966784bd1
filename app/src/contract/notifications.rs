//! `/api/notifications/…` and `/api/admin/notifications`: channels,
//! preferences, the delivery log, the calendar feed and the email server.
//! Secrets travel one way only: into Tally, never out (except the webhook
//! secret Tally generates, once, in the creation answer).

use serde::{Deserialize, Serialize};

use crate::domain::notification::{ChannelKind, Event};

/// A channel's settings as a client sends them; each kind reads its own
/// fields. Not `Debug`: tokens, the Discord webhook URL and the bot token
/// are secrets.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ChannelSettingsInput {
    /// `email`: where to; the account's address when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// `ntfy` (default `https://ntfy.sh`) and `gotify`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_url: Option<String>,
    /// `ntfy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// `ntfy` (optional access token) and `gotify` (application token).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// `discord`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
    /// `telegram`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_token: Option<String>,
    /// `telegram`: a string (groups are negative numbers, channels `@name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_id: Option<String>,
    /// `webhook`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl std::fmt::Debug for ChannelSettingsInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChannelSettingsInput")
            .field("address", &self.address)
            .field("server_url", &self.server_url)
            .field("topic", &self.topic)
            .field("chat_id", &self.chat_id)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// `POST /api/notifications/channels`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NewChannel {
    pub kind: ChannelKind,
    pub name: String,
    /// Every event when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<Event>>,
    #[serde(default)]
    pub settings: ChannelSettingsInput,
}

/// `PATCH /api/notifications/channels/{id}`: what is given changes; a
/// secret left out is kept.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ChannelChange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<Event>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<ChannelSettingsInput>,
}

/// A channel's settings as Tally shows them: what is not secret, and which
/// secrets are set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ChannelSettingsShown {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Whether a token, webhook URL or bot token is stored (never which).
    pub secret_set: bool,
}

/// A channel, as its owner sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Channel {
    pub id: i64,
    pub kind: ChannelKind,
    pub name: String,
    pub events: Vec<Event>,
    pub settings: ChannelSettingsShown,
    /// `false` while an email channel to another address waits for its link.
    pub confirmed: bool,
    pub last_success_at: Option<String>,
    pub last_error: Option<String>,
    pub last_error_at: Option<String>,
    pub created_at: String,
    /// Only in the answer that created a webhook channel: its signing
    /// secret, `whsec_<base64 of 32 random bytes>`, shown this once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// `GET /api/notifications/channels`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Channels {
    pub channels: Vec<Channel>,
}

/// Whether one message went out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    Sent,
    Failed,
}

/// What one send came to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct DeliveryResult {
    pub status: DeliveryStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `POST /api/notifications/channels/{id}/test`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct TestSent {
    pub delivery: DeliveryResult,
}

/// `GET`/`PUT /api/notifications/preferences`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NotificationPreferences {
    /// 0–14 days before a due date; 3 by default.
    pub lead_days: i64,
    /// One message per channel per run (the default), or one per event.
    pub digest: bool,
    /// Remind of bills whose autopay the bank has verified too.
    pub include_verified_autopay: bool,
    /// Days after the first overdue reminder for a second; none by default.
    #[serde(default)]
    pub overdue_repeat_days: Option<i64>,
}

/// One row of the delivery log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub id: i64,
    pub channel_id: i64,
    /// An event name, or `test`.
    pub event: String,
    /// `pending`, `sent`, `failed` or `stale`.
    pub status: String,
    pub attempts: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_status: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What the message said of it.
    pub line: String,
    pub at: String,
}

/// `GET /api/notifications/deliveries`, newest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Deliveries {
    pub deliveries: Vec<Delivery>,
    /// Pass as `pageToken` for the next page; absent on the last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
}

/// `POST /api/notifications/calendar`: the feed's address, shown once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct CalendarFeed {
    pub url: String,
}

/// Whether the user has a calendar feed, and its address (`url`, `null`
/// for a feed made before Tally kept it: replacing the feed shows one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CalendarFeedState {
    pub created_at: Option<String>,
    pub url: Option<String>,
}

/// How Tally talks to the mail server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SmtpSecurity {
    Starttls,
    Tls,
    None,
}

impl SmtpSecurity {
    pub fn name(self) -> &'static str {
        match self {
            Self::Starttls => "starttls",
            Self::Tls => "tls",
            Self::None => "none",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "starttls" => Some(Self::Starttls),
            "tls" => Some(Self::Tls),
            "none" => Some(Self::None),
            _ => None,
        }
    }
}

/// The email server as Admin shows it (the password never).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SmtpShown {
    pub host: String,
    pub port: i64,
    pub security: SmtpSecurity,
    pub username: String,
    pub from: String,
    pub password_set: bool,
    /// Set by `SMTP_*` in the environment, which wins over this page.
    pub from_environment: bool,
}

/// `GET /api/admin/notifications`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AdminNotifications {
    /// `None` until an email server is configured.
    pub smtp: Option<SmtpShown>,
    /// The hour (0–23, the server's time zone) the daily run starts.
    pub reminder_hour: i64,
    pub time_zone: String,
    pub last_run_at: Option<String>,
    pub next_run_at: Option<String>,
    /// The running (or last) run's operation name.
    pub last_operation: Option<String>,
    pub last_sent: i64,
    pub last_failed: i64,
    pub last_error: Option<String>,
}

/// `PUT /api/admin/notifications`: the email server (the password
/// write-only: left out, the stored one is kept), with the
/// administrator's own password asked again (`currentPassword`): every
/// reminder and confirmation link goes through this server, so a browser
/// session alone, or any API token, does not change it. Not `Debug`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SmtpChange {
    pub host: String,
    #[serde(default = "default_smtp_port")]
    pub port: i64,
    #[serde(default = "default_security")]
    pub security: SmtpSecurity,
    #[serde(default)]
    pub username: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    pub from: String,
    /// The administrator's password, asked again (not the mail server's).
    #[serde(default)]
    pub current_password: String,
}

fn default_smtp_port() -> i64 {
    587
}

fn default_security() -> SmtpSecurity {
    SmtpSecurity::Starttls
}

impl std::fmt::Debug for SmtpChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpChange")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .field("from", &self.from)
            .finish_non_exhaustive()
    }
}

/// `POST /api/admin/notifications/test-email`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct TestEmail {
    /// Where to; the administrator's own address when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

/// Profile → Notifications as it is rendered: the channels, the
/// preferences, whether there is a calendar feed, and the latest sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NotificationsPage {
    pub channels: Vec<Channel>,
    pub preferences: NotificationPreferences,
    pub calendar: CalendarFeedState,
    /// The log, 20 at a time, with the token of the next (older) page.
    pub deliveries: Deliveries,
    /// Whether the administrator set up an email server.
    pub email_ready: bool,
}
