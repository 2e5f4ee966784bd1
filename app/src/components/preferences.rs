//! Profile → Preferences: the locale money is written in, the currency new
//! bills start with, the time zone that decides what "today" is, and the
//! pay schedule that gives the Tracker its pay periods.

use leptos::ev::SubmitEvent;
use leptos::prelude::*;

use crate::api;
use crate::api::profile::save_preferences;
use crate::components::submission_form::FormState;
use crate::components::text_field::TextField;
use crate::contract::preferences::{Preferences, UpdatePreferences};
use crate::domain::money::LOCALES;
use crate::domain::pay_period::PaySchedule;

#[component]
pub fn PreferencesForm(initial: Preferences) -> impl IntoView {
    let locale = RwSignal::new(initial.locale);
    let currency = RwSignal::new(initial.currency);
    let time_zone = RwSignal::new(initial.time_zone);
    let pay_schedule = RwSignal::new(initial.pay_schedule);
    let payday = RwSignal::new(initial.payday);
    let drift_percent = RwSignal::new(initial.drift_percent.to_string());
    let drift_min = RwSignal::new(format!(
        "{}.{:02}",
        initial.drift_min_minor / 100,
        initial.drift_min_minor % 100
    ));
    let form = FormState::new();
    let saved = RwSignal::new(false);
    let submit = move |event: SubmitEvent| {
        event.prevent_default();
        let preferences = UpdatePreferences {
            locale: locale.get_untracked(),
            currency: currency.get_untracked(),
            time_zone: time_zone.get_untracked(),
            pay_schedule: pay_schedule.get_untracked(),
            payday: payday.get_untracked(),
            // What cannot be read is sent as 0, which the server refuses
            // naming the field.
            drift_percent: Some(drift_percent.get_untracked().trim().parse().unwrap_or(0)),
            drift_min_minor: Some(
                crate::domain::amount::Amount::parse(&drift_min.get_untracked())
                    .map_or(0, crate::domain::amount::Amount::minor),
            ),
        };
        form.sending.set(true);
        saved.set(false);
        leptos::task::spawn_local(async move {
            let answer = save_preferences(preferences)
                .await
                .map_err(api::ApiFailure::from);
            form.sending.set(false);
            match answer {
                Ok(_) => {
                    form.violations.set(Vec::new());
                    form.error.set(None);
                    saved.set(true);
                }
                Err(api::ApiFailure::Answered {
                    violations,
                    message,
                    ..
                }) => {
                    form.violations.set(violations);
                    form.error.set(Some(message));
                }
                Err(failure) => form.error.set(Some(failure.message())),
            }
        });
    };
    view! {
        <section class="card" aria-labelledby="preferences-title">
            <h2 id="preferences-title">"Preferences"</h2>
            <form on:submit=submit novalidate>
                <div class="field">
                    <label for="locale">"Write amounts as in"</label>
                    <select id="locale" prop:value=move || locale.get() on:change=move |ev| locale.set(event_target_value(&ev))>
                        {LOCALES.iter().map(|(tag, name)| view! { <option value=*tag>{*name}</option> }).collect_view()}
                    </select>
                    <p class="field-error">{move || form.error_for("locale").get()}</p>
                </div>
                <TextField id="currency" label="Currency for new bills" value=currency error=form.error_for("currency") required=true maxlength=3/>
                <TextField id="timeZone" label="Time zone (like Europe/Berlin)" value=time_zone error=form.error_for("timeZone") required=true maxlength=64/>
                <div class="field-row">
                    <TextField id="driftPercent" inputmode="numeric" label="Price drift: a charge off by at least this many percent" value=drift_percent error=form.error_for("driftPercent") required=true maxlength=3/>
                    <TextField id="driftMinMinor" inputmode="decimal" label="and by at least this amount" value=drift_min error=form.error_for("driftMinMinor") required=true maxlength=12/>
                </div>
                <div class="field">
                    <label for="paySchedule">"Pay schedule (for the Tracker's pay periods)"</label>
                    <select id="paySchedule" prop:value=move || pay_schedule.get() on:change=move |ev| pay_schedule.set(event_target_value(&ev))>
                        <option value="">"None: calendar months only"</option>
                        {PaySchedule::ALL.iter().map(|schedule| view! { <option value=schedule.as_str()>{schedule.to_string()}</option> }).collect_view()}
                    </select>
                    <p class="field-error">{move || form.error_for("paySchedule").get()}</p>
                </div>
                <Show when=move || PaySchedule::parse(&pay_schedule.get()).is_ok_and(PaySchedule::needs_payday)>
                    <div class="field">
                        <label for="payday">"One payday"</label>
                        <input id="payday" type="date" aria-describedby="payday-error" prop:value=move || payday.get() on:input=move |ev| payday.set(event_target_value(&ev))/>
                        <p class="field-error" id="payday-error">{move || form.error_for("payday").get()}</p>
                    </div>
                </Show>
                <p class="field-error" role="alert">{move || form.error.get()}</p>
                <p role="status">{move || saved.get().then_some("Saved.")}</p>
                <button type="submit" class="button" disabled=move || form.sending.get()>"Save preferences"</button>
            </form>
        </section>
    }
}
