use crate::api::profile::SetPrivacy;
use crate::api::ApiFailure;
use crate::components::csrf_field::CsrfField;
use crate::contract::account::PrivacySettings;
use leptos::prelude::*;

/// Profile → Privacy: whether sign-ins are located from their IP address.
/// A form that posts without JavaScript too.
#[component]
pub fn Privacy(initial: PrivacySettings) -> impl IntoView {
    let save = ServerAction::<SetPrivacy>::new();
    let saved = move || {
        save.value().get().and_then(Result::ok).map(|settings| {
            if settings.geolocation_enabled {
                "Saved: your next sign-ins will show an approximate location."
            } else {
                "Saved: no location lookups for your sign-ins."
            }
        })
    };
    let error = move || {
        save.value()
            .get()
            .and_then(Result::err)
            .map(|failure| ApiFailure::from(failure).message())
    };

    view! {
        <section class="card" aria-labelledby="privacy-title">
            <h2 id="privacy-title">"Privacy"</h2>
            <ActionForm action=save>
                <CsrfField/>
                <div class="check-field">
                    <input
                        id="geolocation-enabled"
                        name="geolocation_enabled"
                        value="on"
                        type="checkbox"
                        aria-describedby="geolocation-hint"
                        checked=initial.geolocation_enabled
                    />
                    <label for="geolocation-enabled">"Show where I signed in from"</label>
                </div>
                <p id="geolocation-hint" class="hint">
                    "When on, Tally asks the lookup service your administrator configured for the rough location of the address you sign in from. When off, no lookup is made."
                </p>
                <button type="submit" class="button" aria-busy=move || save.pending().get().then_some("true")>"Save privacy"</button>
                <p role="status">{saved}</p>
                <p class="field-error" role="alert">{error}</p>
            </ActionForm>
        </section>
    }
}
