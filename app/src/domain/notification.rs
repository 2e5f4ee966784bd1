//! Reminders and notifications: the events Tally tells people about, the
//! kinds of channel it tells them through, and the rules for what a
//! channel's settings may be. Shared by the browser (the form checks as it
//! is typed) and the server (which checks again).

use serde::{Deserialize, Serialize};

/// What happened, as event names are written on the wire (snake_case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// An unpaid occurrence is due within the lead time.
    DueSoon,
    /// A due date passed unpaid.
    Overdue,
    /// Bank sync flagged a failed or returned autopay debit.
    AutopayFailed,
    /// A bank connection's sync failed (once per run of failures).
    BankSyncFailed,
    /// A connection that was failing works again.
    BankSyncRecovered,
    /// A bill was charged a different amount than expected.
    PriceChanged,
}

pub const EVENTS: [Event; 6] = [
    Event::DueSoon,
    Event::Overdue,
    Event::AutopayFailed,
    Event::BankSyncFailed,
    Event::BankSyncRecovered,
    Event::PriceChanged,
];

impl Event {
    pub fn name(self) -> &'static str {
        match self {
            Self::DueSoon => "due_soon",
            Self::Overdue => "overdue",
            Self::AutopayFailed => "autopay_failed",
            Self::BankSyncFailed => "bank_sync_failed",
            Self::BankSyncRecovered => "bank_sync_recovered",
            Self::PriceChanged => "price_changed",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        EVENTS.into_iter().find(|event| event.name() == name)
    }

    /// The words a person reads on the page.
    pub fn label(self) -> &'static str {
        match self {
            Self::DueSoon => "A bill is due soon",
            Self::Overdue => "A bill is overdue",
            Self::AutopayFailed => "An autopay debit failed",
            Self::BankSyncFailed => "A bank connection stopped syncing",
            Self::BankSyncRecovered => "A bank connection works again",
            Self::PriceChanged => "A bill was charged a different amount",
        }
    }
}

/// Where a message goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChannelKind {
    Email,
    Ntfy,
    Gotify,
    Discord,
    Telegram,
    Webhook,
}

pub const CHANNEL_KINDS: [ChannelKind; 6] = [
    ChannelKind::Email,
    ChannelKind::Ntfy,
    ChannelKind::Gotify,
    ChannelKind::Discord,
    ChannelKind::Telegram,
    ChannelKind::Webhook,
];

impl ChannelKind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Ntfy => "ntfy",
            Self::Gotify => "gotify",
            Self::Discord => "discord",
            Self::Telegram => "telegram",
            Self::Webhook => "webhook",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        CHANNEL_KINDS.into_iter().find(|kind| kind.name() == name)
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Email => "Email",
            Self::Ntfy => "ntfy",
            Self::Gotify => "Gotify",
            Self::Discord => "Discord",
            Self::Telegram => "Telegram",
            Self::Webhook => "Webhook (signed)",
        }
    }
}

/// ntfy's public server, when a channel names none.
pub const NTFY_DEFAULT_SERVER: &str = "https://ntfy.sh";
/// The lead time's bounds and default, in days.
pub const LEAD_DAYS_MAX: i64 = 14;
pub const LEAD_DAYS_DEFAULT: i64 = 3;
/// The second overdue reminder's bounds, in days after the first.
pub const OVERDUE_REPEAT_MAX: i64 = 30;
/// An event older than this is stale: no longer sent, nor retried.
pub const STALE_DAYS: i64 = 7;
/// The longest channel name, and the most characters of any setting.
pub const NAME_MAX: usize = 100;
pub const SETTING_MAX: usize = 2048;

/// A field of a channel's settings that is wrong, named as on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingProblem {
    pub field: &'static str,
    pub description: String,
}

impl SettingProblem {
    fn new(field: &'static str, description: impl Into<String>) -> Self {
        Self {
            field,
            description: description.into(),
        }
    }
}

/// An `http(s)://host…` address, as a channel's URL field must be. The
/// outbound guard decides later whether Tally may call it.
pub fn check_url(field: &'static str, text: &str, allow_http: bool) -> Result<(), SettingProblem> {
    let text = text.trim();
    if text.is_empty() {
        return Err(SettingProblem::new(field, "enter the address"));
    }
    if text.len() > SETTING_MAX {
        return Err(SettingProblem::new(field, "that address is too long"));
    }
    let rest = if let Some(rest) = text.strip_prefix("https://") {
        rest
    } else if let Some(rest) = text.strip_prefix("http://") {
        if !allow_http {
            return Err(SettingProblem::new(
                field,
                "use an https:// address (plain http is allowed only when the administrator set NOTIFY_ALLOW_HTTP=true)",
            ));
        }
        rest
    } else {
        return Err(SettingProblem::new(
            field,
            "enter an address starting with https://",
        ));
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty() || host.contains(char::is_whitespace) {
        return Err(SettingProblem::new(field, "the address names no host"));
    }
    Ok(())
}

/// An ntfy topic: letters, digits, `-` and `_`, at most 64.
pub fn check_topic(topic: &str) -> Result<(), SettingProblem> {
    let ok = !topic.is_empty()
        && topic.len() <= 64
        && topic
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(SettingProblem::new(
            "topic",
            "use 1 to 64 letters, digits, - or _",
        ))
    }
}

/// A Telegram chat id: a number (groups are negative) or `@channelname`.
pub fn check_chat_id(chat_id: &str) -> Result<(), SettingProblem> {
    let numeric = chat_id
        .strip_prefix('-')
        .unwrap_or(chat_id)
        .chars()
        .all(|c| c.is_ascii_digit());
    let named = chat_id.strip_prefix('@').is_some_and(|name| {
        (5..=32).contains(&name.len())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    if (!chat_id.is_empty() && chat_id != "-" && numeric && chat_id.len() <= 20) || named {
        Ok(())
    } else {
        Err(SettingProblem::new(
            "chatId",
            "enter the chat's number (like 123456789 or -1001234567890) or @channelname",
        ))
    }
}

/// A Telegram bot token: `<digits>:<35 or so characters>`.
pub fn check_bot_token(token: &str) -> Result<(), SettingProblem> {
    let ok = token.split_once(':').is_some_and(|(id, secret)| {
        !id.is_empty()
            && id.chars().all(|c| c.is_ascii_digit())
            && (20..=100).contains(&secret.len())
            && secret
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    });
    if ok {
        Ok(())
    } else {
        Err(SettingProblem::new(
            "botToken",
            "paste the token BotFather gave you (digits, a colon, then letters and digits)",
        ))
    }
}

/// The lead time in days.
pub fn check_lead_days(days: i64) -> Result<(), SettingProblem> {
    if (0..=LEAD_DAYS_MAX).contains(&days) {
        Ok(())
    } else {
        Err(SettingProblem::new(
            "leadDays",
            format!("choose 0 to {LEAD_DAYS_MAX} days"),
        ))
    }
}

/// The days before a second overdue reminder, when there is one.
pub fn check_overdue_repeat(days: Option<i64>) -> Result<(), SettingProblem> {
    match days {
        Some(days) if !(1..=OVERDUE_REPEAT_MAX).contains(&days) => Err(SettingProblem::new(
            "overdueRepeatDays",
            format!("choose 1 to {OVERDUE_REPEAT_MAX} days, or none"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_and_kind_names_read_back() {
        for event in EVENTS {
            assert_eq!(Event::parse(event.name()), Some(event));
        }
        for kind in CHANNEL_KINDS {
            assert_eq!(ChannelKind::parse(kind.name()), Some(kind));
        }
        assert_eq!(
            serde_json::to_string(&Event::BankSyncRecovered).unwrap(),
            "\"bank_sync_recovered\""
        );
    }

    #[test]
    fn urls_must_be_https_unless_allowed() {
        assert!(check_url("url", "https://ntfy.example/x", false).is_ok());
        assert_eq!(
            check_url("url", "http://ntfy.example", false)
                .unwrap_err()
                .field,
            "url"
        );
        assert!(check_url("url", "http://ntfy.example", true).is_ok());
        assert!(check_url("url", "ftp://x", true).is_err());
        assert!(check_url("url", "https:///path", true).is_err());
    }

    #[test]
    fn topics_chat_ids_and_bot_tokens() {
        assert!(check_topic("tally-bills_1").is_ok());
        assert!(check_topic("no spaces").is_err());
        assert!(check_chat_id("123456789").is_ok());
        assert!(check_chat_id("-1001234567890").is_ok());
        assert!(check_chat_id("@my_channel").is_ok());
        assert!(check_chat_id("-").is_err());
        assert!(check_chat_id("12ab").is_err());
        assert!(check_bot_token("123456:ABCdefGhIJKlmnoPQRstuVWXyz0123456789").is_ok());
        assert!(check_bot_token("nocolon").is_err());
    }

    #[test]
    fn lead_days_and_the_second_reminder_have_bounds() {
        assert!(check_lead_days(0).is_ok() && check_lead_days(14).is_ok());
        assert!(check_lead_days(15).is_err() && check_lead_days(-1).is_err());
        assert!(check_overdue_repeat(None).is_ok());
        assert!(check_overdue_repeat(Some(0)).is_err());
    }
}
