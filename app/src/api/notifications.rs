//! Profile → Notifications and Admin → Notifications: server functions
//! over `backend::notifications::service`, the same use cases as
//! `/api/notifications/…`. The writes take form fields, so each page's
//! `ActionForm` posts them as they are without JavaScript too (the server
//! lets such a post through when its `Origin` is this site).

// A form's fields are a server function's arguments, one each.
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use super::CsrfClient;
use crate::contract::error::ErrorBody;
use crate::contract::notifications::{
    AdminNotifications, CalendarFeed, Channel, NotificationsPage, TestSent,
};
use crate::contract::two_factor::CurrentPassword;

#[cfg(feature = "ssr")]
use crate::domain::form_field::{given, required, whole};

/// The events ticked on a form: one checkbox per event, named as the
/// event, in the order of [`EVENTS`](crate::domain::notification::EVENTS).
#[cfg(feature = "ssr")]
fn ticked(ticks: [Option<String>; 6]) -> Vec<crate::domain::notification::Event> {
    crate::domain::notification::EVENTS
        .into_iter()
        .zip(ticks)
        .filter_map(|(event, tick)| tick.map(|_| event))
        .collect()
}

/// Everything Profile → Notifications shows; `older` pages the log back
/// (the page token of the page before).
#[server(prefix = "/api/fn", endpoint = "notifications/page", input = GetUrl)]
pub async fn get_notifications(older: Option<String>) -> Result<NotificationsPage, ErrorBody> {
    use crate::backend::notifications::service;
    let me = super::signed_in::as_declared::<GetNotifications>().await?;
    let notifier = &me.services.notifier;
    let user = me.current.user.id;
    let load = async {
        Ok::<_, crate::backend::notifications::NotifyError>(NotificationsPage {
            channels: service::list(me.pool(), user).await?.channels,
            preferences: service::preferences(me.pool(), user).await?,
            calendar: service::feed_state(notifier, me.pool(), user).await?,
            deliveries: service::deliveries(me.pool(), user, older.as_deref(), Some(20)).await?,
            email_ready: notifier.mail_server(me.pool()).await?.is_some(),
        })
    };
    Ok(load.await?)
}

/// Adds a channel (the fields of its kind; the rest are left empty).
#[server(prefix = "/api/fn", endpoint = "notifications/add-channel", client = CsrfClient)]
pub async fn add_channel(
    kind: String,
    name: String,
    address: Option<String>,
    server_url: Option<String>,
    topic: Option<String>,
    token: Option<String>,
    webhook_url: Option<String>,
    bot_token: Option<String>,
    chat_id: Option<String>,
    url: Option<String>,
    due_soon: Option<String>,
    overdue: Option<String>,
    autopay_failed: Option<String>,
    bank_sync_failed: Option<String>,
    bank_sync_recovered: Option<String>,
    price_changed: Option<String>,
) -> Result<Channel, ErrorBody> {
    use crate::contract::notifications::{ChannelSettingsInput, NewChannel};
    use crate::domain::notification::ChannelKind;
    let me = super::signed_in::as_declared::<AddChannel>().await?;
    let kind = required(
        "kind",
        ChannelKind::parse(&kind),
        "choose email, ntfy, gotify, discord, telegram or webhook",
    )?;
    let request = NewChannel {
        kind,
        name,
        events: Some(ticked([
            due_soon,
            overdue,
            autopay_failed,
            bank_sync_failed,
            bank_sync_recovered,
            price_changed,
        ])),
        settings: ChannelSettingsInput {
            address: given(address),
            server_url: given(server_url),
            topic: given(topic),
            token: given(token),
            webhook_url: given(webhook_url),
            bot_token: given(bot_token),
            chat_id: given(chat_id),
            url: given(url),
        },
    };
    Ok(crate::backend::notifications::service::create(
        &me.services.notifier,
        me.pool(),
        &me.current.user,
        request,
    )
    .await?)
}

/// "Send test": the scheduled path, one message.
#[server(prefix = "/api/fn", endpoint = "notifications/test-channel", client = CsrfClient)]
pub async fn test_channel(id: i64) -> Result<TestSent, ErrorBody> {
    let me = super::signed_in::as_declared::<TestChannel>().await?;
    Ok(crate::backend::notifications::service::test(
        &me.services.notifier,
        me.pool(),
        &me.current.user,
        id,
    )
    .await?)
}

/// Renames a channel and changes the events it takes.
#[server(prefix = "/api/fn", endpoint = "notifications/change-channel", client = CsrfClient)]
pub async fn change_channel(
    id: i64,
    name: String,
    due_soon: Option<String>,
    overdue: Option<String>,
    autopay_failed: Option<String>,
    bank_sync_failed: Option<String>,
    bank_sync_recovered: Option<String>,
    price_changed: Option<String>,
) -> Result<Channel, ErrorBody> {
    use crate::contract::notifications::ChannelChange;
    let me = super::signed_in::as_declared::<ChangeChannel>().await?;
    let change = ChannelChange {
        name: Some(name),
        events: Some(ticked([
            due_soon,
            overdue,
            autopay_failed,
            bank_sync_failed,
            bank_sync_recovered,
            price_changed,
        ])),
        settings: None,
    };
    Ok(crate::backend::notifications::service::change(
        &me.services.notifier,
        me.pool(),
        &me.current.user,
        id,
        change,
    )
    .await?)
}

#[server(prefix = "/api/fn", endpoint = "notifications/remove-channel", client = CsrfClient)]
pub async fn remove_channel(id: i64) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<RemoveChannel>().await?;
    Ok(crate::backend::notifications::service::remove(me.pool(), me.current.user.id, id).await?)
}

/// Saves when and how reminders come (checkboxes: present when ticked).
#[server(prefix = "/api/fn", endpoint = "notifications/save-preferences", client = CsrfClient)]
pub async fn save_notification_preferences(
    lead_days: i64,
    digest: Option<String>,
    include_verified_autopay: Option<String>,
    overdue_repeat_days: Option<String>,
) -> Result<(), ErrorBody> {
    use crate::contract::notifications::NotificationPreferences;
    let me = super::signed_in::as_declared::<SaveNotificationPreferences>().await?;
    let repeat = whole(
        "overdueRepeatDays",
        overdue_repeat_days,
        "enter a number of days, or leave it empty",
    )?;
    crate::backend::notifications::service::set_preferences(
        me.pool(),
        me.current.user.id,
        NotificationPreferences {
            lead_days,
            digest: digest.is_some(),
            include_verified_autopay: include_verified_autopay.is_some(),
            overdue_repeat_days: repeat,
        },
    )
    .await?;
    Ok(())
}

/// A new private calendar feed; its address is answered once.
#[server(prefix = "/api/fn", endpoint = "notifications/create-calendar", client = CsrfClient)]
pub async fn create_calendar() -> Result<CalendarFeed, ErrorBody> {
    let me = super::signed_in::as_declared::<CreateCalendar>().await?;
    Ok(crate::backend::notifications::service::create_feed(
        &me.services.notifier,
        me.pool(),
        me.current.user.id,
    )
    .await?)
}

#[server(prefix = "/api/fn", endpoint = "notifications/delete-calendar", client = CsrfClient)]
pub async fn delete_calendar() -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<DeleteCalendar>().await?;
    Ok(crate::backend::notifications::service::delete_feed(me.pool(), me.current.user.id).await?)
}

/// Admin → Notifications: the email server and the runs.
#[server(prefix = "/api/fn", endpoint = "admin/notifications", input = GetUrl)]
pub async fn get_admin_notifications() -> Result<AdminNotifications, ErrorBody> {
    let me = super::signed_in::as_declared::<GetAdminNotifications>().await?;
    Ok(crate::backend::notifications::service::admin(&me.services.notifier, me.pool()).await?)
}

/// Saves the email server (the password left empty keeps the stored one),
/// with the administrator's own password asked again
/// (`confirm[currentPassword]`).
#[server(prefix = "/api/fn", endpoint = "admin/notifications/save-mail", client = CsrfClient)]
pub async fn save_mail_server(
    host: String,
    port: i64,
    security: String,
    username: Option<String>,
    password: Option<String>,
    from: String,
    confirm: CurrentPassword,
) -> Result<AdminNotifications, ErrorBody> {
    use crate::contract::notifications::{SmtpChange, SmtpSecurity};
    let (services, admin) =
        super::signed_in::confirmed_administrator(&confirm.current_password).await?;
    let security = required(
        "security",
        SmtpSecurity::parse(&security),
        "choose starttls, tls or none",
    )?;
    Ok(crate::backend::notifications::service::set_mail(
        &services.notifier,
        &services.pool,
        &admin,
        SmtpChange {
            host,
            port,
            security,
            username: username.unwrap_or_default(),
            password: given(password),
            from,
            // Checked above: the service takes the proof, not the password.
            current_password: String::new(),
        },
    )
    .await?)
}

#[server(prefix = "/api/fn", endpoint = "admin/notifications/test-email", client = CsrfClient)]
pub async fn send_test_email(to: Option<String>) -> Result<TestSent, ErrorBody> {
    let me = super::signed_in::as_declared::<SendTestEmail>().await?;
    Ok(crate::backend::notifications::service::test_email(
        &me.services.notifier,
        me.pool(),
        &me.current.user,
        given(to),
    )
    .await?)
}

/// Starts the reminders run now (or answers with the one running): its
/// operation's name.
#[server(prefix = "/api/fn", endpoint = "admin/notifications/run", client = CsrfClient)]
pub async fn run_reminders_now() -> Result<String, ErrorBody> {
    let me = super::signed_in::as_declared::<RunRemindersNow>().await?;
    let record = crate::backend::notifications::run::start(
        &me.services.operations,
        &me.services.notifier,
        Some(me.current.user.id),
    )
    .await?;
    Ok(record.to_operation().name)
}
