use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;

use crate::api::notifications::{
    get_notifications, AddChannel, ChangeChannel, CreateCalendar, DeleteCalendar, RemoveChannel,
    SaveNotificationPreferences, TestChannel,
};
use crate::api::ApiFailure;
use crate::components::csrf_field::CsrfField;
use crate::contract::error::ErrorBody;
use crate::contract::notifications::{Channel, DeliveryStatus, NotificationsPage};
use crate::domain::notification::{ChannelKind, Event, CHANNEL_KINDS, EVENTS, LEAD_DAYS_MAX};

/// What a write came to, as the page says it.
fn outcome<T>(result: Option<Result<T, ErrorBody>>) -> Option<Result<T, String>> {
    result.map(|result| result.map_err(|error| ApiFailure::from(error).message()))
}

/// The fields of one kind of channel.
fn kind_fields(kind: ChannelKind) -> AnyView {
    let field = |id: &'static str,
                 name: &'static str,
                 label: &'static str,
                 kind: &'static str,
                 hint: &'static str| {
        view! {
            <div class="field">
                <label for=id>{label}</label>
                <input id=id name=name type=kind autocomplete="off" maxlength="2048"
                    aria-describedby=format!("{id}-hint")/>
                <p id=format!("{id}-hint") class="hint">{hint}</p>
            </div>
        }
    };
    match kind {
        ChannelKind::Email => field("channel-address", "address", "Email address", "email",
            "Leave empty for your account's address; another address gets a link to confirm it first.").into_any(),
        ChannelKind::Ntfy => view! {
            {field("channel-server", "server_url", "ntfy server", "url", "https://ntfy.sh unless you run your own.")}
            {field("channel-topic", "topic", "Topic", "text", "Letters, digits, - and _.")}
            {field("channel-token", "token", "Access token (optional)", "password", "Stored sealed; never shown again.")}
        }.into_any(),
        ChannelKind::Gotify => view! {
            {field("channel-server", "server_url", "Gotify server", "url", "Your Gotify server's address.")}
            {field("channel-token", "token", "Application token", "password", "Stored sealed; never shown again.")}
        }.into_any(),
        ChannelKind::Discord => field("channel-webhook", "webhook_url", "Discord webhook URL", "password",
            "Server Settings → Integrations → Webhooks. Stored sealed.").into_any(),
        ChannelKind::Telegram => view! {
            {field("channel-bot", "bot_token", "Bot token", "password", "From @BotFather. Stored sealed.")}
            {field("channel-chat", "chat_id", "Chat id", "text", "A number like 123456789, or @channelname.")}
        }.into_any(),
        ChannelKind::Webhook => field("channel-url", "url", "URL", "url",
            "Tally posts signed JSON (Standard Webhooks); the signing secret is shown once.").into_any(),
    }
}

/// One checkbox per event, named as the event (the server function's
/// fields), ticked when `chosen` has it.
#[component]
fn EventChoice(chosen: Vec<Event>) -> impl IntoView {
    view! {
        <fieldset class="checks">
            <legend>"Tell me when"</legend>
            {EVENTS.into_iter().map(|event| view! {
                <label><input type="checkbox" name=event.name() checked=chosen.contains(&event)/>
                    " " {event.label()}</label>
            }).collect_view()}
        </fieldset>
    }
}

fn when(at: &Option<String>) -> String {
    at.as_deref()
        .map(|at| at.get(..16).unwrap_or(at).replace('T', " "))
        .unwrap_or_default()
}

#[component]
fn ChannelRow(
    channel: Channel,
    test: ServerAction<TestChannel>,
    change: ServerAction<ChangeChannel>,
    remove: ServerAction<RemoveChannel>,
) -> impl IntoView {
    let id = channel.id;
    let takes = if channel.events.len() == EVENTS.len() {
        "Every event".to_owned()
    } else {
        channel
            .events
            .iter()
            .map(|event| event.label())
            .collect::<Vec<_>>()
            .join("; ")
    };
    let name_id = format!("channel-{id}-name");
    let (name, chosen) = (channel.name.clone(), channel.events.clone());
    let remove_label = format!("Remove {}", channel.name);
    let last = match (&channel.last_success_at, &channel.last_error) {
        (_, Some(error)) if channel.last_error_at > channel.last_success_at => {
            format!("Last error {}: {error}", when(&channel.last_error_at))
        }
        (Some(_), _) => format!("Last sent {}", when(&channel.last_success_at)),
        _ => "Nothing sent yet".to_owned(),
    };
    let failing = channel.last_error_at > channel.last_success_at;
    view! {
        <li class="channel" data-testid=format!("channel-{id}")>
            <div>
                <strong>{channel.name.clone()}</strong> " · " {channel.kind.label()}
                {(!channel.confirmed).then(|| view! { " · " <em>"waiting for the confirmation link"</em> })}
                <p class=if failing { "field-error" } else { "hint" } data-testid="channel-last">{last}</p>
                <p class="hint" data-testid="channel-events">{takes}</p>
                <details class="channel-edit">
                    <summary>"Change"</summary>
                    <ActionForm action=change>
                        <CsrfField/>
                        <input type="hidden" name="id" value=id/>
                        <div class="field">
                            <label for=name_id.clone()>"Rename to"</label>
                            <input id=name_id name="name" type="text" required maxlength="100" value=name/>
                        </div>
                        <EventChoice chosen/>
                        <button type="submit" class="button">"Save changes"</button>
                    </ActionForm>
                </details>
            </div>
            <div class="actions">
                <ActionForm action=test>
                    <CsrfField/>
                    <input type="hidden" name="id" value=id/>
                    <button type="submit" class="button button--quiet">"Send test"</button>
                </ActionForm>
                <ActionForm action=remove>
                    <CsrfField/>
                    <input type="hidden" name="id" value=id/>
                    <button type="submit" class="button button--quiet" aria-label=remove_label>"Remove"</button>
                </ActionForm>
            </div>
        </li>
    }
}

#[component]
fn Loaded(
    page: NotificationsPage,
    add: ServerAction<AddChannel>,
    test: ServerAction<TestChannel>,
    change: ServerAction<ChangeChannel>,
    remove: ServerAction<RemoveChannel>,
    older: Option<String>,
    preferences: ServerAction<SaveNotificationPreferences>,
    create_calendar: ServerAction<CreateCalendar>,
    delete_calendar: ServerAction<DeleteCalendar>,
) -> impl IntoView {
    let kind = RwSignal::new(ChannelKind::Ntfy);
    let prefs = page.preferences.clone();
    let has_feed = page.calendar.created_at.is_some();
    let kept_url = page.calendar.url.clone();
    view! {
        <section class="card" aria-labelledby="channels-title">
            <h2 id="channels-title">"Channels"</h2>
            {if page.channels.is_empty() {
                view! { <p>"No channels yet: add one below and Tally will remind you of what is due."</p> }.into_any()
            } else {
                view! {
                    <ul class="channel-list">
                        {page.channels.into_iter().map(|channel| view! { <ChannelRow channel test change remove/> }).collect_view()}
                    </ul>
                }.into_any()
            }}
            <p role="status" data-testid="test-result">{move || outcome(test.value().get()).map(|result| match result {
                Ok(sent) if sent.delivery.status == DeliveryStatus::Sent => "Test sent.".to_owned(),
                Ok(sent) => format!("The test was not delivered: {}", sent.delivery.error.unwrap_or_default()),
                Err(message) => message,
            })}</p>
            <p class="field-error" role="alert">{move || outcome(change.value().get()).and_then(Result::err)}</p>
        </section>

        <section class="card" aria-labelledby="add-channel-title">
            <h2 id="add-channel-title">"Add a channel"</h2>
            {(!page.email_ready).then(|| view! {
                <p class="hint">"Email needs the administrator to set up an email server first (Admin → Notifications)."</p>
            })}
            <ActionForm action=add>
                <CsrfField/>
                <div class="field">
                    <label for="channel-kind">"Kind"</label>
                    <select id="channel-kind" name="kind"
                        on:change=move |ev| {
                            if let Some(chosen) = ChannelKind::parse(&event_target_value(&ev)) {
                                kind.set(chosen);
                            }
                        }>
                        {CHANNEL_KINDS.into_iter().map(|option| view! {
                            <option value=option.name() selected=move || kind.get() == option>{option.label()}</option>
                        }).collect_view()}
                    </select>
                </div>
                <div class="field">
                    <label for="channel-name">"Name"</label>
                    <input id="channel-name" name="name" type="text" required maxlength="100" placeholder="My phone"/>
                </div>
                {move || kind_fields(kind.get())}
                <EventChoice chosen=EVENTS.to_vec()/>
                <noscript><p class="hint">"Without JavaScript, fill in the fields of the kind you chose; the others are ignored."</p></noscript>
                <p class="field-error" role="alert">{move || outcome(add.value().get()).and_then(Result::err)}</p>
                {move || outcome(add.value().get()).and_then(Result::ok).and_then(|channel| channel.secret).map(|secret| view! {
                    <div class="notice" role="status">
                        <p>"Your webhook's signing secret; copy it now, it will not be shown again:"</p>
                        <code data-testid="webhook-secret">{secret}</code>
                    </div>
                })}
                <button type="submit" class="button" disabled=move || add.pending().get()>"Add channel"</button>
            </ActionForm>
        </section>

        <section class="card" aria-labelledby="reminder-prefs-title">
            <h2 id="reminder-prefs-title">"When and how"</h2>
            <ActionForm action=preferences>
                <CsrfField/>
                <div class="field">
                    <label for="lead-days">"Remind me this many days before a due date"</label>
                    <input id="lead-days" name="lead_days" type="number" inputmode="numeric" min="0" max=LEAD_DAYS_MAX
                        value=prefs.lead_days required/>
                </div>
                <div class="field">
                    <label><input type="checkbox" name="digest" checked=prefs.digest/>
                        " One message per run with everything (a digest), rather than one per bill"</label>
                </div>
                <div class="field">
                    <label><input type="checkbox" name="include_verified_autopay" checked=prefs.include_verified_autopay/>
                        " Also remind me of bills whose autopay the bank has confirmed"</label>
                </div>
                <div class="field">
                    <label for="overdue-repeat">"Remind me again this many days after a bill became overdue (empty: once)"</label>
                    <input id="overdue-repeat" name="overdue_repeat_days" type="number" inputmode="numeric" min="1" max="30"
                        value=prefs.overdue_repeat_days.map(|days| days.to_string()).unwrap_or_default()/>
                </div>
                <p class="field-error" role="alert">{move || outcome(preferences.value().get()).and_then(Result::err)}</p>
                <button type="submit" class="button">"Save"</button>
            </ActionForm>
        </section>

        <section class="card" aria-labelledby="calendar-title">
            <h2 id="calendar-title">"Calendar feed"</h2>
            <p>"Subscribe to your bills from Google Calendar, Apple Calendar or Thunderbird with a private address. Anyone with the address can read it: replace or revoke it here."</p>
            {move || match outcome(create_calendar.value().get()) {
                Some(Ok(feed)) => Some(view! {
                    <div class="notice" role="status">
                        <p>"Your feed's address. Add it to your calendar app as a subscription (an address it replaced no longer works):"</p>
                        <code data-testid="calendar-url">{feed.url}</code>
                    </div>
                }.into_any()),
                Some(Err(message)) => Some(view! { <p class="field-error" role="alert">{message}</p> }.into_any()),
                // The address stays viewable to its owner.
                None => match kept_url.clone() {
                    Some(url) => Some(view! {
                        <div class="notice">
                            <p>"Your feed's address. Add it to your calendar app as a subscription:"</p>
                            <code data-testid="calendar-url">{url}</code>
                        </div>
                    }.into_any()),
                    None => has_feed.then(|| view! {
                        <p class="hint" data-testid="calendar-url-unknown">"This feed was made before Tally kept feed addresses. Replace it to see its address here."</p>
                    }.into_any()),
                },
            }}
            <div class="actions">
                <ActionForm action=create_calendar>
                    <CsrfField/>
                    <button type="submit" class="button">{if has_feed { "Replace the feed's address" } else { "Create a calendar feed" }}</button>
                </ActionForm>
                {has_feed.then(|| view! {
                    <ActionForm action=delete_calendar>
                        <CsrfField/>
                        <button type="submit" class="button button--quiet">"Revoke"</button>
                    </ActionForm>
                })}
            </div>
        </section>

        <section class="card" aria-labelledby="deliveries-title">
            <h2 id="deliveries-title">"Recently sent"</h2>
            {if page.deliveries.deliveries.is_empty() {
                view! { <p>"Nothing sent yet. Reminders appear here once a channel above has sent one."</p> }.into_any()
            } else {
                view! {
                    <table class="table">
                        <thead><tr><th scope="col">"When"</th><th scope="col">"What"</th><th scope="col">"Result"</th></tr></thead>
                        <tbody>
                            {page.deliveries.deliveries.into_iter().map(|delivery| view! {
                                <tr>
                                    <td>{when(&Some(delivery.at.clone()))}</td>
                                    <td>{delivery.line.clone()}</td>
                                    <td>{match delivery.error.clone() {
                                        Some(error) => format!("{} after {} attempts: {error}", delivery.status, delivery.attempts),
                                        None => delivery.status.clone(),
                                    }}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any()
            }}
            <p class="actions">
                {older.is_some().then(|| view! { <A href="/profile/notifications#deliveries-title">"Newest"</A> })}
                {page.deliveries.next_page_token.map(|token| view! {
                    <A href=format!("/profile/notifications?older={token}#deliveries-title")>"Older"</A>
                })}
            </p>
        </section>
    }
}

/// `/profile/notifications`: channels (add, test, change, remove, each
/// one's last result and events), when and how reminders come, the
/// calendar feed, and the log (`?older=<token>` pages it back).
#[component]
pub fn NotificationsSettingsPage() -> impl IntoView {
    let add = ServerAction::<AddChannel>::new();
    let test = ServerAction::<TestChannel>::new();
    let change = ServerAction::<ChangeChannel>::new();
    let remove = ServerAction::<RemoveChannel>::new();
    let preferences = ServerAction::<SaveNotificationPreferences>::new();
    let create_calendar = ServerAction::<CreateCalendar>::new();
    let delete_calendar = ServerAction::<DeleteCalendar>::new();
    let query = use_query_map();
    let older = move || query.read().get("older").filter(|token| !token.is_empty());
    let page = crate::api::page_resource(
        move || {
            (
                older(),
                add.version().get(),
                test.version().get(),
                change.version().get(),
                remove.version().get(),
                preferences.version().get(),
                create_calendar.version().get(),
                delete_calendar.version().get(),
            )
        },
        |(older, ..)| async move { get_notifications(older).await.map_err(ApiFailure::from) },
    );
    view! {
        <Title text="Notifications"/>
        <h1>"Notifications"</h1>
        <p><A href="/profile">"Profile"</A></p>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(page) => view! {
                        <Loaded page add test change remove older=older() preferences create_calendar delete_calendar/>
                    }.into_any(),
                    Err(failure) if failure.status() == Some(401) => view! {
                        <p>"You are signed out. " <A href="/login?next=%2Fprofile%2Fnotifications">"Sign in"</A></p>
                    }.into_any(),
                    Err(failure) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// The page as a route whose code is left out of the first download.
pub struct NotificationsRoute;

split_route!(NotificationsRoute => NotificationsSettingsPage in app);
