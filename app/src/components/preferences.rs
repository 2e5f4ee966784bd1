//! Profile → Preferences: the locale money is written in, the currency new
//! bills start with, the time zone that decides what "today" is, and the
//! pay schedule that gives the Tracker its pay periods. A form that posts
//! without JavaScript too.

use leptos::prelude::*;

use crate::api::profile::SavePreferences;
use crate::components::csrf_field::CsrfField;
use crate::components::submission_form::FormState;
use crate::components::text_field::TextField;
use crate::contract::preferences::Preferences;
use crate::domain::money::LOCALES;
use crate::domain::pay_period::PaySchedule;

#[component]
pub fn PreferencesForm(initial: Preferences) -> impl IntoView {
    // A form that posts without JavaScript too: the server answers with
    // the page again, each refused field marked.
    let save = ServerAction::<SavePreferences>::new();
    let form = FormState::new();
    let saved = RwSignal::new(false);
    form.follow(save, move |_| saved.set(true));
    let locale = initial.locale;
    let pay_schedule = initial.pay_schedule;
    let currency = RwSignal::new(initial.currency);
    let time_zone = RwSignal::new(initial.time_zone);
    let payday = RwSignal::new(initial.payday);
    let drift_percent = RwSignal::new(initial.drift_percent.to_string());
    let drift_min = RwSignal::new(format!(
        "{}.{:02}",
        initial.drift_min_minor / 100,
        initial.drift_min_minor % 100
    ));
    view! {
        <section class="card" aria-labelledby="preferences-title">
            <h2 id="preferences-title">"Preferences"</h2>
            <ActionForm action=save attr:class="preferences-form" attr:novalidate=true>
                <CsrfField/>
                <div class="field">
                    <label for="locale">"Write amounts as in"</label>
                    <select id="locale" name="locale">
                        {LOCALES.iter().map(|(tag, name)| view! { <option value=*tag selected=*tag == locale>{*name}</option> }).collect_view()}
                    </select>
                    <p class="field-error">{move || form.error_for("locale").get()}</p>
                </div>
                <TextField id="currency" label="Currency for new bills" value=currency error=form.error_for("currency") required=true maxlength=3/>
                <TextField id="timeZone" name="time_zone" label="Time zone (like Europe/Berlin)" value=time_zone error=form.error_for("timeZone") required=true maxlength=64/>
                <div class="field-row">
                    <TextField id="driftPercent" name="drift_percent" inputmode="numeric" label="Price drift: a charge off by at least this many percent" value=drift_percent error=form.error_for("driftPercent") required=true maxlength=3/>
                    <TextField id="driftMinMinor" name="drift_min" inputmode="decimal" label="and by at least this amount" value=drift_min error=form.error_for("driftMinMinor") required=true maxlength=12/>
                </div>
                <div class="field">
                    <label for="paySchedule">"Pay schedule (for the Tracker's pay periods)"</label>
                    <select id="paySchedule" name="pay_schedule">
                        <option value="" selected=pay_schedule.is_empty()>"None: calendar months only"</option>
                        {PaySchedule::ALL.iter().map(|schedule| view! {
                            <option value=schedule.as_str() selected=schedule.as_str() == pay_schedule>{schedule.to_string()}</option>
                        }).collect_view()}
                    </select>
                    <p class="field-error">{move || form.error_for("paySchedule").get()}</p>
                </div>
                // Shown by the stylesheet for a schedule counted from a
                // payday, so it follows the choice without JavaScript.
                <div class="when-payday">
                    <TextField id="payday" kind="date" label="One payday" value=payday error=form.error_for("payday")/>
                </div>
                <p class="field-error" role="alert">{move || form.error.get()}</p>
                <p role="status">{move || saved.get().then_some("Saved.")}</p>
                <button type="submit" class="button" disabled=move || form.sending.get()>"Save preferences"</button>
            </ActionForm>
        </section>
    }
}
