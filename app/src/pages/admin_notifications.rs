use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::api::notifications::{
    get_admin_notifications, RunRemindersNow, SaveMailServer, SendTestEmail,
};
use crate::api::ApiFailure;
use crate::components::csrf_field::CsrfField;
use crate::contract::error::ErrorBody;
use crate::contract::notifications::{AdminNotifications, DeliveryStatus, SmtpSecurity};

fn failure<T>(result: Option<Result<T, ErrorBody>>) -> Option<String> {
    result
        .and_then(Result::err)
        .map(|error| ApiFailure::from(error).message())
}

#[component]
fn Loaded(
    state: AdminNotifications,
    save: ServerAction<SaveMailServer>,
    test: ServerAction<SendTestEmail>,
    run: ServerAction<RunRemindersNow>,
) -> impl IntoView {
    let smtp = state.smtp.clone();
    let from_environment = smtp.as_ref().is_some_and(|smtp| smtp.from_environment);
    let security = smtp
        .as_ref()
        .map_or(SmtpSecurity::Starttls, |smtp| smtp.security);
    view! {
        <section class="card" aria-labelledby="mail-title">
            <h2 id="mail-title">"Email server"</h2>
            {from_environment.then(|| view! {
                <p class="notice">"Set by SMTP_* in the server's environment, which wins over this form."</p>
            })}
            <ActionForm action=save>
                <CsrfField/>
                <div class="field">
                    <label for="smtp-host">"Host"</label>
                    <input id="smtp-host" name="host" type="text" required autocomplete="off"
                        value=smtp.as_ref().map(|s| s.host.clone()).unwrap_or_default()/>
                </div>
                <div class="field">
                    <label for="smtp-port">"Port"</label>
                    <input id="smtp-port" name="port" type="number" inputmode="numeric" min="1" max="65535" required
                        value=smtp.as_ref().map_or(587, |s| s.port)/>
                </div>
                <div class="field">
                    <label for="smtp-security">"Security"</label>
                    <select id="smtp-security" name="security">
                        <option value="starttls" selected=security == SmtpSecurity::Starttls>"STARTTLS (port 587)"</option>
                        <option value="tls" selected=security == SmtpSecurity::Tls>"TLS (port 465)"</option>
                        <option value="none" selected=security == SmtpSecurity::None>"None (this machine or an allowed private address only)"</option>
                    </select>
                </div>
                <div class="field">
                    <label for="smtp-username">"Username"</label>
                    <input id="smtp-username" name="username" type="text" autocomplete="off"
                        value=smtp.as_ref().map(|s| s.username.clone()).unwrap_or_default()/>
                </div>
                <div class="field">
                    <label for="smtp-password">"Password"</label>
                    <input id="smtp-password" name="password" type="password" autocomplete="new-password"
                        aria-describedby="smtp-password-hint"/>
                    <p id="smtp-password-hint" class="hint">{if smtp.as_ref().is_some_and(|s| s.password_set) {
                        "A password is stored (sealed). Leave empty to keep it."
                    } else {
                        "Stored sealed; never shown again."
                    }}</p>
                </div>
                <div class="field">
                    <label for="smtp-from">"Send from"</label>
                    <input id="smtp-from" name="from" type="text" required placeholder="Tally <tally@example.com>"
                        value=smtp.as_ref().map(|s| s.from.clone()).unwrap_or_default()/>
                </div>
                // Asked again at every save: every confirmation link goes
                // through this server, so an open session alone does not do.
                <div class="field">
                    <label for="smtp-current-password">"Your password, to save the email server"</label>
                    <input id="smtp-current-password" name="confirm[currentPassword]" type="password"
                        autocomplete="current-password" aria-describedby="smtp-current-password-hint"/>
                    <p id="smtp-current-password-hint" class="hint">
                        "Your own Tally password, not the mail server's. Every change is listed on Admin → Status and mailed to every administrator through the server in use before it."
                    </p>
                </div>
                <p class="field-error" role="alert">{move || failure(save.value().get())}</p>
                <button type="submit" class="button">"Save"</button>
            </ActionForm>
            <ActionForm action=test>
                <CsrfField/>
                <div class="field">
                    <label for="test-to">"Send a test email to (empty: your address)"</label>
                    <input id="test-to" name="to" type="email" autocomplete="email"/>
                </div>
                <button type="submit" class="button button--quiet">"Send test email"</button>
                <p role="status">{move || test.value().get().map(|result| match result {
                    Ok(sent) if sent.delivery.status == DeliveryStatus::Sent => "Test email sent.".to_owned(),
                    Ok(sent) => format!("Not sent: {}", sent.delivery.error.unwrap_or_default()),
                    Err(error) => ApiFailure::from(error).message(),
                })}</p>
            </ActionForm>
        </section>
        <section class="card" aria-labelledby="runs-title">
            <h2 id="runs-title">"Daily run"</h2>
            <p>{format!("Every day at {:02}:00 ({}), and at start-up when that day's run was missed.", state.reminder_hour, state.time_zone)}</p>
            <dl class="facts">
                <dt>"Last run"</dt><dd>{state.last_run_at.clone().unwrap_or_else(|| "none yet".into())}</dd>
                <dt>"Sent / failed"</dt><dd>{format!("{} / {}", state.last_sent, state.last_failed)}</dd>
                <dt>"Next run"</dt><dd>{state.next_run_at.clone().unwrap_or_default()}</dd>
                <dt>"Last error"</dt><dd>{state.last_error.clone().unwrap_or_else(|| "none".into())}</dd>
            </dl>
            <ActionForm action=run>
                <CsrfField/>
                <button type="submit" class="button">"Run now"</button>
            </ActionForm>
            {move || run.value().get().map(|result| match result {
                Ok(name) => view! { <p role="status">"Started: " <A href="/operations">{name}</A></p> }.into_any(),
                Err(error) => view! { <p class="field-error" role="alert">{ApiFailure::from(error).message()}</p> }.into_any(),
            })}
        </section>
    }
}

/// `/admin/notifications`: the email server (the environment wins), a test
/// email, and the daily run (last, next, run now).
#[component]
pub fn AdminNotificationsPage() -> impl IntoView {
    let save = ServerAction::<SaveMailServer>::new();
    let test = ServerAction::<SendTestEmail>::new();
    let run = ServerAction::<RunRemindersNow>::new();
    let state = crate::api::page_resource(
        move || (save.version().get(), run.version().get()),
        |_| async move { get_admin_notifications().await.map_err(ApiFailure::from) },
    );
    view! {
        <Title text="Admin: notifications"/>
        <h1>"Notifications"</h1>
        <p><A href="/admin">"Admin"</A></p>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match state.await {
                    Ok(state) => view! { <Loaded state save test run/> }.into_any(),
                    Err(failure) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
                }
            })}
        </Transition>
    }
}

pub struct AdminNotificationsRoute;

split_route!(AdminNotificationsRoute => AdminNotificationsPage in admin);
