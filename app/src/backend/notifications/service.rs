//! Reminders and notifications as the routes and server functions call
//! them: one function per use case.

use std::sync::Arc;

use secrecy::ExposeSecret;
use serde_json::{Map, Value};
use sqlx::SqlitePool;

use super::error::NotifyError;
use super::notifier::{Notifier, CHANNEL_SECRET, MAIL_PASSWORD};
use super::store::{self, ChannelRow, NewRow, StoredSettings};
use super::transport::{email, http, signature, Secrets};
use super::{deliver, render};
use crate::backend::auth::admin::ConfirmedAdmin;
use crate::backend::auth::token::{random_token, sha256_hex};
use crate::backend::settings_changes;
use crate::contract::account::User;
use crate::contract::notifications::{
    AdminNotifications, CalendarFeed, CalendarFeedState, Channel, ChannelChange,
    ChannelSettingsInput, ChannelSettingsShown, Channels, Deliveries, DeliveryResult,
    DeliveryStatus, NewChannel, NotificationPreferences, SmtpChange, SmtpSecurity, TestSent,
};
use crate::domain::notification::{
    check_bot_token, check_chat_id, check_lead_days, check_overdue_repeat, check_topic, check_url,
    ChannelKind, Event, EVENTS, NAME_MAX, NTFY_DEFAULT_SERVER, SETTING_MAX,
};

/// The most channels one account may have.
pub const MAX_CHANNELS: i64 = 20;
/// The most log rows one page holds.
pub const PAGE_MAX: i64 = 200;

/// A channel as its owner sees it.
pub fn shown(row: &ChannelRow) -> Channel {
    let settings = row.settings();
    Channel {
        id: row.id,
        kind: row.kind,
        name: row.name.clone(),
        events: row.events.clone(),
        settings: ChannelSettingsShown {
            address: settings.address,
            server_url: settings.server_url,
            topic: settings.topic,
            chat_id: settings.chat_id,
            url: settings.url,
            secret_set: row.secret.is_some(),
        },
        confirmed: row.confirmed_at.is_some(),
        last_success_at: row.last_success_at.clone(),
        last_error: row.last_error.clone(),
        last_error_at: row.last_error_at.clone(),
        created_at: row.created_at.clone(),
        secret: None,
    }
}

pub async fn list(pool: &SqlitePool, user: i64) -> Result<Channels, NotifyError> {
    Ok(Channels {
        channels: store::channels(pool, user)
            .await?
            .iter()
            .map(shown)
            .collect(),
    })
}

fn trimmed(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
}

fn long(field: &'static str, value: &Option<String>) -> Result<(), NotifyError> {
    if value.as_ref().is_some_and(|text| text.len() > SETTING_MAX) {
        return Err(NotifyError::invalid(field, "that is too long"));
    }
    Ok(())
}

/// What a kind's settings come to: the stored part and the secret part
/// (as a JSON object to seal). `kept` is the secret already stored, for a
/// change that leaves a secret out.
fn settings_for(
    notifier: &Notifier,
    kind: ChannelKind,
    input: &ChannelSettingsInput,
    kept: &Map<String, Value>,
    creating: bool,
) -> Result<(StoredSettings, Map<String, Value>), NotifyError> {
    for (field, value) in [
        ("address", &input.address),
        ("serverUrl", &input.server_url),
        ("topic", &input.topic),
        ("token", &input.token),
        ("webhookUrl", &input.webhook_url),
        ("botToken", &input.bot_token),
        ("chatId", &input.chat_id),
        ("url", &input.url),
    ] {
        long(field, value)?;
    }
    let allow_http = notifier.settings.allow_http;
    let mut stored = StoredSettings::default();
    let mut secret = kept.clone();
    let mut put = |key: &str, value: Option<String>| {
        if let Some(value) = value {
            secret.insert(key.to_owned(), Value::String(value));
        }
    };
    match kind {
        ChannelKind::Email => {
            if let Some(address) = trimmed(&input.address) {
                if email::mailbox(&address).is_none() || address.contains(['<', '>']) {
                    return Err(NotifyError::invalid("address", "enter one email address"));
                }
                stored.address = Some(address);
            }
        }
        ChannelKind::Ntfy => {
            let server = trimmed(&input.server_url).unwrap_or_else(|| NTFY_DEFAULT_SERVER.into());
            check_url("serverUrl", &server, allow_http)?;
            let topic = trimmed(&input.topic)
                .ok_or_else(|| NotifyError::invalid("topic", "enter the topic to publish to"))?;
            check_topic(&topic)?;
            stored.server_url = Some(server);
            stored.topic = Some(topic);
            put("token", trimmed(&input.token));
        }
        ChannelKind::Gotify => {
            let server = trimmed(&input.server_url).ok_or_else(|| {
                NotifyError::invalid("serverUrl", "enter your Gotify server's address")
            })?;
            check_url("serverUrl", &server, allow_http)?;
            stored.server_url = Some(server);
            put("token", trimmed(&input.token));
            if !secret.contains_key("token") {
                return Err(NotifyError::invalid("token", "enter the application token"));
            }
        }
        ChannelKind::Discord => {
            if let Some(url) = trimmed(&input.webhook_url) {
                check_url("webhookUrl", &url, allow_http)?;
                put("webhookUrl", Some(url));
            }
            if !secret.contains_key("webhookUrl") {
                return Err(NotifyError::invalid(
                    "webhookUrl",
                    "paste the channel's webhook URL",
                ));
            }
        }
        ChannelKind::Telegram => {
            if let Some(token) = trimmed(&input.bot_token) {
                check_bot_token(&token)?;
                put("botToken", Some(token));
            }
            if !secret.contains_key("botToken") {
                return Err(NotifyError::invalid("botToken", "paste the bot's token"));
            }
            let chat = trimmed(&input.chat_id)
                .ok_or_else(|| NotifyError::invalid("chatId", "enter the chat id"))?;
            check_chat_id(&chat)?;
            stored.chat_id = Some(chat);
        }
        ChannelKind::Webhook => {
            let url = trimmed(&input.url)
                .ok_or_else(|| NotifyError::invalid("url", "enter the address to post to"))?;
            check_url("url", &url, allow_http)?;
            stored.url = Some(url);
            if creating {
                put("signingSecret", Some(signature::new_secret()));
            }
        }
    }
    Ok((stored, secret))
}

/// The guard's word on every address the channel would call, before it is
/// saved: a disallowed one is a 400 naming its field.
async fn vet(
    notifier: &Notifier,
    kind: ChannelKind,
    stored: &StoredSettings,
    secret: &Map<String, Value>,
) -> Result<(), NotifyError> {
    let mut addresses: Vec<(&'static str, String)> = Vec::new();
    match kind {
        ChannelKind::Email => {}
        ChannelKind::Ntfy | ChannelKind::Gotify => {
            if let Some(server) = &stored.server_url {
                addresses.push(("serverUrl", server.clone()));
            }
        }
        ChannelKind::Discord => {
            if let Some(Value::String(url)) = secret.get("webhookUrl") {
                addresses.push(("webhookUrl", url.clone()));
            }
        }
        ChannelKind::Telegram => {}
        ChannelKind::Webhook => {
            if let Some(url) = &stored.url {
                addresses.push(("url", url.clone()));
            }
        }
    }
    for (field, address) in addresses {
        let url = http::parse_url(&address, notifier.settings.allow_http)
            .map_err(|failed| NotifyError::invalid(field, failed.error))?;
        notifier
            .transports
            .outbound
            .vet(&url)
            .await
            .map_err(|refused| {
                NotifyError::invalid(
                    field,
                    format!("Tally does not send to that address: {refused}"),
                )
            })?;
    }
    Ok(())
}

fn check_name(name: &str) -> Result<String, NotifyError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > NAME_MAX {
        return Err(NotifyError::invalid(
            "name",
            format!("give the channel a name of 1 to {NAME_MAX} characters"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(NotifyError::invalid("name", "use no control characters"));
    }
    Ok(name.to_owned())
}

fn check_events(events: &Option<Vec<Event>>) -> Result<Vec<Event>, NotifyError> {
    let mut chosen = events.clone().unwrap_or_else(|| EVENTS.to_vec());
    chosen.sort();
    chosen.dedup();
    if chosen.is_empty() {
        return Err(NotifyError::invalid("events", "choose at least one event"));
    }
    Ok(chosen)
}

fn seal(notifier: &Notifier, secret: &Map<String, Value>) -> Result<Option<String>, NotifyError> {
    if secret.is_empty() {
        return Ok(None);
    }
    Ok(Some(notifier.keyring.seal(
        CHANNEL_SECRET,
        &Value::Object(secret.clone()).to_string(),
    )?))
}

fn opened(notifier: &Notifier, row: &ChannelRow) -> Map<String, Value> {
    row.secret
        .as_deref()
        .and_then(|sealed| notifier.keyring.open(CHANNEL_SECRET, sealed).ok())
        .and_then(|plain| serde_json::from_str::<Map<String, Value>>(plain.expose_secret()).ok())
        .unwrap_or_default()
}

/// The channel's secrets for one send.
pub fn secrets(notifier: &Notifier, row: &ChannelRow) -> Secrets {
    Secrets::from_map(&opened(notifier, row))
}

pub async fn create(
    notifier: &Notifier,
    pool: &SqlitePool,
    user: &User,
    request: NewChannel,
) -> Result<Channel, NotifyError> {
    let name = check_name(&request.name)?;
    let events = check_events(&request.events)?;
    let (stored, secret) =
        settings_for(notifier, request.kind, &request.settings, &Map::new(), true)?;
    vet(notifier, request.kind, &stored, &secret).await?;
    // An email to another address than the account's waits for its link.
    let other_address = stored
        .address
        .as_deref()
        .filter(|address| !address.eq_ignore_ascii_case(&user.email));
    let confirm_token = other_address.map(|_| random_token());
    let sealed = seal(notifier, &secret)?;
    let today = crate::backend::bills::today_for(pool, user.id).await?;
    let mut tx = crate::backend::db::write(pool).await?;
    let count = store::count_channels(&mut tx, user.id).await?;
    if count >= MAX_CHANNELS {
        return Err(NotifyError::TooManyChannels(count));
    }
    let id = store::insert_channel(
        &mut tx,
        NewRow {
            user: user.id,
            kind: request.kind,
            name: &name,
            events: &events,
            settings: &stored,
            secret: sealed,
            confirmed: confirm_token.is_none(),
            confirm_hash: confirm_token.as_deref().map(sha256_hex),
        },
    )
    .await?;
    store::start_reminders(&mut tx, user.id, today).await?;
    let row = store::channel(&mut tx, user.id, id)
        .await?
        .ok_or_else(|| NotifyError::NotFound("the channel just made is gone".into()))?;
    tx.commit().await?;
    if let (Some(address), Some(token)) = (other_address, confirm_token) {
        send_confirmation(notifier, pool, address, &token).await;
    }
    let mut answer = shown(&row);
    if request.kind == ChannelKind::Webhook {
        answer.secret = secret
            .get("signingSecret")
            .and_then(Value::as_str)
            .map(str::to_owned);
    }
    Ok(answer)
}

/// Sends the link that confirms an email channel's address; a failure is
/// logged (the channel shows "waiting for confirmation" either way).
async fn send_confirmation(notifier: &Notifier, pool: &SqlitePool, address: &str, token: &str) {
    let Ok(Some(server)) = notifier.mail_server(pool).await else {
        tracing::warn!("an email channel needs confirming, but no mail server is set up");
        return;
    };
    let link = format!("{}/notifications/confirm/{token}", notifier.public_base_url);
    let line = "Confirm that Tally may send reminders to this address by opening this link:";
    let message = render::Message {
        id: sha256_hex(token)[..32].to_owned(),
        title: "Tally: confirm this address for reminders".into(),
        text: format!("{line}\n{link}\n\nIf you did not ask for this, ignore this message.\n"),
        html: format!(
            "<p>{}</p><p><a href=\"{}\">Confirm this address</a></p><p>If you did not ask for this, ignore this message.</p>",
            render::escape(line),
            render::escape(&link)
        ),
        click_url: link.clone(),
        urgent: false,
        items: Vec::new(),
    };
    if let Err(failed) = email::send(
        &notifier.transports.outbound,
        &server,
        address,
        &message,
        &notifier.transports.message_host,
    )
    .await
    {
        tracing::warn!(error = %failed.error, "the confirmation email could not be sent");
    }
}

/// Confirms the email channel a link was sent for.
pub async fn confirm(pool: &SqlitePool, token: &str) -> Result<bool, NotifyError> {
    Ok(store::confirm_channel(pool, &sha256_hex(token)).await?)
}

pub async fn change(
    notifier: &Notifier,
    pool: &SqlitePool,
    user: &User,
    id: i64,
    request: ChannelChange,
) -> Result<Channel, NotifyError> {
    let mut conn = pool.acquire().await?;
    let row = store::channel(&mut conn, user.id, id)
        .await?
        .ok_or_else(|| NotifyError::NotFound(format!("no channel {id}")))?;
    drop(conn);
    let name = match &request.name {
        Some(name) => check_name(name)?,
        None => row.name.clone(),
    };
    let events = match &request.events {
        Some(_) => check_events(&request.events)?,
        None => row.events.clone(),
    };
    let (stored, secret) = match &request.settings {
        Some(input) => {
            // What the change leaves out of the stored settings stays.
            let old = row.settings();
            let merged = ChannelSettingsInput {
                address: input.address.clone().or(old.address),
                server_url: input.server_url.clone().or(old.server_url),
                topic: input.topic.clone().or(old.topic),
                chat_id: input.chat_id.clone().or(old.chat_id),
                url: input.url.clone().or(old.url),
                token: input.token.clone(),
                webhook_url: input.webhook_url.clone(),
                bot_token: input.bot_token.clone(),
            };
            let (stored, secret) =
                settings_for(notifier, row.kind, &merged, &opened(notifier, &row), false)?;
            vet(notifier, row.kind, &stored, &secret).await?;
            (stored, Some(secret))
        }
        None => (row.settings(), None),
    };
    if stored.address.is_some() && stored.address != row.settings().address {
        return Err(NotifyError::invalid(
            "address",
            "an email channel's address cannot change; add a new channel for another address",
        ));
    }
    let sealed = match &secret {
        Some(secret) => Some(seal(notifier, secret)?),
        None => None,
    };
    let mut tx = crate::backend::db::write(pool).await?;
    store::update_channel(&mut tx, id, &name, &events, &stored, sealed).await?;
    let row = store::channel(&mut tx, user.id, id)
        .await?
        .ok_or_else(|| NotifyError::NotFound(format!("no channel {id}")))?;
    tx.commit().await?;
    Ok(shown(&row))
}

pub async fn remove(pool: &SqlitePool, user: i64, id: i64) -> Result<(), NotifyError> {
    if store::delete_channel(pool, user, id).await? {
        Ok(())
    } else {
        Err(NotifyError::NotFound(format!("no channel {id}")))
    }
}

/// "Send test": a delivery row of its own, sent by the run's own code.
/// Only to a confirmed channel, as the runs send only to those: an email
/// address other than the account's has not said it wants Tally's mail
/// until its link is opened, and a test to it would make the server's SMTP
/// mail any address on request. At most `test_limit::BURST` per person per
/// 15 minutes; a refused test (no such channel, not confirmed) is not
/// counted, since nothing goes out.
pub async fn test(
    notifier: &Notifier,
    pool: &SqlitePool,
    user: &User,
    id: i64,
) -> Result<TestSent, NotifyError> {
    let mut tx = crate::backend::db::write(pool).await?;
    let row = store::channel(&mut tx, user.id, id)
        .await?
        .ok_or_else(|| NotifyError::NotFound(format!("no channel {id}")))?;
    if row.confirmed_at.is_none() {
        return Err(NotifyError::Unconfirmed);
    }
    notifier.admit_test(user.id)?;
    let delivery = store::record_test(&mut tx, user.id, id).await?;
    tx.commit().await?;
    let mail = notifier.mail_server(pool).await?;
    let result = deliver::send_rows(
        notifier,
        pool,
        &row,
        &[deliver::Claimed {
            id: delivery,
            event: None,
            line: "Test message".into(),
        }],
        &user.email,
        mail.as_ref(),
    )
    .await?;
    Ok(TestSent {
        delivery: match result {
            Ok(()) => DeliveryResult {
                status: DeliveryStatus::Sent,
                error: None,
            },
            Err(error) => DeliveryResult {
                status: DeliveryStatus::Failed,
                error: Some(error),
            },
        },
    })
}

pub async fn preferences(
    pool: &SqlitePool,
    user: i64,
) -> Result<NotificationPreferences, NotifyError> {
    Ok(store::preferences(pool, user).await?.0)
}

pub async fn set_preferences(
    pool: &SqlitePool,
    user: i64,
    preferences: NotificationPreferences,
) -> Result<NotificationPreferences, NotifyError> {
    check_lead_days(preferences.lead_days)?;
    check_overdue_repeat(preferences.overdue_repeat_days)?;
    store::set_preferences(pool, user, &preferences).await?;
    Ok(preferences)
}

/// The log, newest first; `page_token` is the last row id of the page
/// before.
pub async fn deliveries(
    pool: &SqlitePool,
    user: i64,
    page_token: Option<&str>,
    page_size: Option<i64>,
) -> Result<Deliveries, NotifyError> {
    let before = match page_token.filter(|token| !token.is_empty()) {
        Some(token) => Some(
            token
                .parse::<i64>()
                .map_err(|_| NotifyError::invalid("pageToken", "not a page token of this list"))?,
        ),
        None => None,
    };
    let size = page_size.unwrap_or(50);
    if !(1..=PAGE_MAX).contains(&size) {
        return Err(NotifyError::invalid(
            "pageSize",
            format!("choose 1 to {PAGE_MAX}"),
        ));
    }
    let mut rows = store::deliveries(pool, user, before, size + 1).await?;
    let next_page_token = if rows.len() > usize::try_from(size).unwrap_or(usize::MAX) {
        rows.pop();
        rows.last().map(|row| row.id.to_string())
    } else {
        None
    };
    Ok(Deliveries {
        deliveries: rows,
        next_page_token,
    })
}

/// What the sealed feed token is bound to: a sealed value opens only as
/// what it was sealed for.
const FEED_TOKEN: &str = "calendar_feeds.token_sealed";

/// The address of the feed whose token is `token`.
fn feed_url(notifier: &Notifier, token: &str) -> String {
    format!("{}/calendar/{token}.ics", notifier.public_base_url)
}

/// A new calendar feed (replacing any other) and its address. The token
/// is kept sealed beside its hash, so the owner can see the address again
/// (it is a capability they hold; replacing it is how it is revoked).
pub async fn create_feed(
    notifier: &Notifier,
    pool: &SqlitePool,
    user: i64,
) -> Result<CalendarFeed, NotifyError> {
    let token = random_token();
    let sealed = notifier.keyring.seal_token(FEED_TOKEN, &token);
    store::set_feed(pool, user, &sha256_hex(&token), sealed.as_deref()).await?;
    Ok(CalendarFeed {
        url: feed_url(notifier, &token),
    })
}

pub async fn delete_feed(pool: &SqlitePool, user: i64) -> Result<(), NotifyError> {
    if store::delete_feed(pool, user).await? {
        Ok(())
    } else {
        Err(NotifyError::NotFound("there is no calendar feed".into()))
    }
}

/// Whether the user has a feed, since when, and its address when it can
/// be shown (its sealed token opens under the database key).
pub async fn feed_state(
    notifier: &Notifier,
    pool: &SqlitePool,
    user: i64,
) -> Result<CalendarFeedState, NotifyError> {
    let Some((created_at, sealed)) = store::feed(pool, user).await? else {
        return Ok(CalendarFeedState {
            created_at: None,
            url: None,
        });
    };
    let url = sealed
        .and_then(|sealed| notifier.keyring.open_token(FEED_TOKEN, &sealed))
        .map(|token| feed_url(notifier, &token));
    Ok(CalendarFeedState {
        created_at: Some(created_at),
        url,
    })
}

/// The email server and the schedule, for Admin.
pub async fn admin(
    notifier: &Notifier,
    pool: &SqlitePool,
) -> Result<AdminNotifications, NotifyError> {
    let last = store::last_run(pool).await?;
    let totals = store::totals(pool).await?;
    Ok(AdminNotifications {
        smtp: notifier.mail_shown(pool).await?,
        reminder_hour: i64::from(notifier.settings.reminder_hour),
        time_zone: jiff::tz::TimeZone::system()
            .iana_name()
            .unwrap_or("UTC")
            .to_owned(),
        last_run_at: last.as_ref().map(|run| run.started_at.clone()),
        next_run_at: super::schedule::next_run(notifier.settings.reminder_hour)
            .map(|at| at.to_string()),
        last_operation: last.as_ref().and_then(|run| run.operation.clone()),
        last_sent: last.as_ref().map_or(0, |run| run.sent),
        last_failed: last.as_ref().map_or(0, |run| run.failed),
        last_error: last.and_then(|run| run.last_error).or(totals.3),
    })
}

/// Saves the email server an administrator typed (the environment's, when
/// set, still wins; the page says so). Only `admin`, who has just typed
/// their password again (`by`), saves it (no token): every reminder and
/// confirmation link goes through it. The change is listed for Admin →
/// Status (fields, never values) in the same transaction, and mailed to
/// every administrator through the server in force before it, so a
/// server of someone else's does not get to swallow the news of itself.
pub async fn set_mail(
    notifier: &Arc<Notifier>,
    pool: &SqlitePool,
    by: &ConfirmedAdmin,
    change: SmtpChange,
) -> Result<AdminNotifications, NotifyError> {
    let host = change.host.trim().to_owned();
    if host.is_empty() || host.len() > 253 || host.contains(['/', ' ', '@']) {
        return Err(NotifyError::invalid(
            "host",
            "enter the mail server's host name",
        ));
    }
    let port = u16::try_from(change.port)
        .ok()
        .filter(|port| *port > 0)
        .ok_or_else(|| NotifyError::invalid("port", "choose a port from 1 to 65535"))?;
    if email::mailbox(&change.from).is_none() {
        return Err(NotifyError::invalid(
            "from",
            "enter the address mail is sent from",
        ));
    }
    let (_, addresses) = notifier
        .transports
        .outbound
        .vet_host(&host, port)
        .await
        .map_err(|refused| {
            NotifyError::invalid(
                "host",
                format!("Tally does not send to that mail server: {refused}"),
            )
        })?;
    if change.security == SmtpSecurity::None
        && addresses
            .iter()
            .any(|address| crate::backend::outbound::classify(address.ip()).is_none())
    {
        return Err(NotifyError::invalid(
            "security",
            "none is only for a mail server on this machine or an allowed private address; use starttls or tls",
        ));
    }
    let password = match change.password.as_deref().filter(|p| !p.is_empty()) {
        Some(password) => Some(notifier.keyring.seal(MAIL_PASSWORD, password)?),
        None => None,
    };
    let keep = password.is_none() && change.password.is_none();
    let row = store::MailRow {
        host,
        port: i64::from(port),
        username: change.username.trim().to_owned(),
        password,
        from_address: change.from.trim().to_owned(),
        tls: change.security.name().to_owned(),
    };
    let before = notifier.mail_server(pool).await?;
    let fields = changed_mail_fields(store::mail_settings(pool).await?.as_ref(), &row, keep);
    let mut tx = crate::backend::db::write(pool).await?;
    store::set_mail_settings(&mut tx, &row, keep).await?;
    let recorded =
        settings_changes::record(&mut tx, by.user(), settings_changes::Area::Mail, &fields, 0)
            .await?;
    tx.commit().await?;
    tracing::info!(changed = ?fields, by = by.user().id, "mail server changed");
    if let Some(recorded) = recorded {
        settings_changes::announce(notifier, pool, before, recorded).await;
    }
    admin(notifier, pool).await
}

/// The fields of the mail server a save changes, by their API names (for
/// the list of changes; never a value). A password typed counts as changed:
/// it is sealed anew and cannot be compared.
fn changed_mail_fields(
    before: Option<&store::MailRow>,
    after: &store::MailRow,
    keep_password: bool,
) -> Vec<&'static str> {
    let differs = |pick: fn(&store::MailRow) -> String| before.map(pick) != Some(pick(after));
    let password = !keep_password
        && (after.password.is_some() || before.is_some_and(|row| row.password.is_some()));
    [
        ("host", differs(|row| row.host.clone())),
        ("port", differs(|row| row.port.to_string())),
        ("security", differs(|row| row.tls.clone())),
        ("username", differs(|row| row.username.clone())),
        ("password", password),
        ("from", differs(|row| row.from_address.clone())),
    ]
    .into_iter()
    .filter(|(_, changed)| *changed)
    .map(|(field, _)| field)
    .collect()
}

/// "Send test email" on Admin → Notifications.
pub async fn test_email(
    notifier: &Notifier,
    pool: &SqlitePool,
    admin_user: &User,
    to: Option<String>,
) -> Result<TestSent, NotifyError> {
    let to = to
        .map(|to| to.trim().to_owned())
        .filter(|to| !to.is_empty())
        .unwrap_or_else(|| admin_user.email.clone());
    if email::mailbox(&to).is_none() {
        return Err(NotifyError::invalid("to", "enter one email address"));
    }
    let Some(server) = notifier.mail_server(pool).await? else {
        return Err(NotifyError::invalid(
            "smtp",
            "set up the email server first",
        ));
    };
    let message = render::message(
        sha256_hex(&random_token())[..32].to_owned(),
        vec![render::Item {
            event: None,
            line: "Test email".into(),
        }],
        &notifier.public_base_url,
    );
    let sent = email::send(
        &notifier.transports.outbound,
        &server,
        &to,
        &message,
        &notifier.transports.message_host,
    )
    .await;
    notifier.count(ChannelKind::Email, sent.is_ok());
    Ok(TestSent {
        delivery: match sent {
            Ok(_) => DeliveryResult {
                status: DeliveryStatus::Sent,
                error: None,
            },
            Err(failed) => DeliveryResult {
                status: DeliveryStatus::Failed,
                error: Some(failed.error),
            },
        },
    })
}

/// Admin → Status's notifications rows: (label, value, `ok`/`warn`/
/// `error`/`info`).
pub async fn status_rows(
    notifier: &Notifier,
    pool: &SqlitePool,
) -> Result<Vec<(&'static str, String, &'static str)>, NotifyError> {
    let mail = notifier.mail_shown(pool).await?;
    let last = store::last_run(pool).await?;
    let (sent_day, failed_day, last_send, last_error) = store::totals(pool).await?;
    Ok(vec![
        match mail {
            Some(mail) => (
                "Email",
                format!(
                    "{}:{} ({}){}",
                    mail.host,
                    mail.port,
                    mail.security.name(),
                    if mail.from_environment {
                        ", from SMTP_* in the environment"
                    } else {
                        ""
                    }
                ),
                "ok",
            ),
            None => (
                "Email",
                "not set up (Admin → Notifications)".to_owned(),
                "warn",
            ),
        },
        match &last {
            Some(run) => (
                "Last run",
                format!(
                    "{}: {} sent, {} failed",
                    run.started_at, run.sent, run.failed
                ),
                if run.failed > 0 { "warn" } else { "ok" },
            ),
            None => ("Last run", "none yet".to_owned(), "info"),
        },
        (
            "Last 24 hours",
            format!("{sent_day} sent, {failed_day} failed"),
            if failed_day > 0 { "warn" } else { "info" },
        ),
        (
            "Last send",
            last_send.unwrap_or_else(|| "none yet".to_owned()),
            "info",
        ),
        match last_error {
            Some(error) => ("Last error", error, "error"),
            None => ("Last error", "none".to_owned(), "ok"),
        },
    ])
}
