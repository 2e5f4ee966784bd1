use crate::api;
use crate::contract::account::PrivacySettings;
use leptos::prelude::*;

/// Profile → Privacy: whether sign-ins are located from their IP address.
#[component]
pub fn Privacy() -> impl IntoView {
    let loaded =
        api::BrowserResource::new(|| api::get_json::<PrivacySettings>("/api/profile/privacy"));
    let saved = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);

    let toggle = move |ev| {
        let body = PrivacySettings {
            geolocation_enabled: event_target_checked(&ev),
        };
        leptos::task::spawn_local(async move {
            match api::send_json::<_, PrivacySettings>("PUT", "/api/profile/privacy", &body).await {
                Ok(_) => {
                    error.set(None);
                    saved.set(Some(if body.geolocation_enabled {
                        "Saved: your next sign-ins will show an approximate location.".into()
                    } else {
                        "Saved: no location lookups for your sign-ins.".into()
                    }));
                }
                Err(failure) => error.set(Some(failure.message())),
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
                    prop:checked=move || {
                        loaded.get().and_then(Result::ok).is_some_and(|s| s.geolocation_enabled)
                    }
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
