use crate::api::profile::set_privacy;
use crate::api::ApiFailure;
use crate::contract::account::PrivacySettings;
use leptos::prelude::*;

/// Profile → Privacy: whether sign-ins are located from their IP address.
#[component]
pub fn Privacy(initial: PrivacySettings) -> impl IntoView {
    let enabled = RwSignal::new(initial.geolocation_enabled);
    let saved = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);

    let toggle = move |ev| {
        let settings = PrivacySettings {
            geolocation_enabled: event_target_checked(&ev),
        };
        leptos::task::spawn_local(async move {
            match set_privacy(settings).await {
                Ok(settings) => {
                    error.set(None);
                    enabled.set(settings.geolocation_enabled);
                    saved.set(Some(if settings.geolocation_enabled {
                        "Saved: your next sign-ins will show an approximate location.".into()
                    } else {
                        "Saved: no location lookups for your sign-ins.".into()
                    }));
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };

    view! {
        <section class="card" aria-labelledby="privacy-title">
            <h2 id="privacy-title">"Privacy"</h2>
            <div class="check-field">
                <input
                    id="geolocation-enabled"
                    type="checkbox"
                    aria-describedby="geolocation-hint"
                    prop:checked=move || enabled.get()
                    on:change=toggle
                />
                <label for="geolocation-enabled">"Show where I signed in from"</label>
            </div>
            <p id="geolocation-hint" class="hint">
                "When on, Tally asks the lookup service your administrator configured for the rough location of the address you sign in from. When off, no lookup is made."
            </p>
            <p role="status">{move || saved.get()}</p>
            <p class="field-error" role="alert">{move || error.get()}</p>
        </section>
    }
}
