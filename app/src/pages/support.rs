use super::split_route::split_route;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::submission_form::{FormState, SubmitRow};
use crate::components::text_field::TextField;
use crate::domain::contact::{SupportForm, CATEGORIES, MESSAGE_MAX, NAME_MAX, SUBJECT_MAX};

/// `/support`: the support request form, sent to the `send_support` server function.
#[component]
pub fn SupportPage() -> impl IntoView {
    let name = RwSignal::new(String::new());
    let email = RwSignal::new(String::new());
    let subject = RwSignal::new(String::new());
    let category = RwSignal::new(String::new());
    let message = RwSignal::new(String::new());
    let form = FormState::new();
    let category_error = form.error_for("category");

    let submit = move |event: SubmitEvent| {
        event.prevent_default();
        let request = SupportForm {
            name: name.get_untracked(),
            email: email.get_untracked(),
            subject: subject.get_untracked(),
            message: message.get_untracked(),
            category: Some(category.get_untracked()),
            captcha_token: form.captcha_token(),
        };
        let checked = request.validate().map(|_| ());
        form.submit(crate::api::contact::send_support(request), checked);
    };

    view! {
        <Title text="Support"/>
        <section class="auth card" aria-labelledby="support-title">
            <h1 id="support-title">"Get help with Tally"</h1>
            <p>
                "Something not working, or not sure how to do something? Describe it here; the more "
                "detail (Tally version, what you clicked, what you expected) the faster we can help."
            </p>
            <Show
                when=move || form.sent.get().is_none()
                fallback=move || view! {
                    <div class="notice" role="status" data-testid="support-sent">
                        <h2>{move || format!("Request #{} received.", form.sent.get().unwrap_or_default())}</h2>
                        <p>{move || format!("We will answer at {}.", email.get().trim())}</p>
                    </div>
                }
            >
                <noscript>
                    <p class="field-error">"Sending this form needs JavaScript. You can also write to support@tally.example."</p>
                </noscript>
                <form on:submit=submit novalidate>
                    <TextField id="name" label="Your name" value=name error=form.error_for("name") autocomplete="name" required=true maxlength=NAME_MAX/>
                    <TextField id="email" label="Email" kind="email" value=email error=form.error_for("email") autocomplete="email" required=true maxlength=254/>
                    <TextField id="subject" label="Subject" value=subject error=form.error_for("subject") required=true maxlength=SUBJECT_MAX/>
                    <div class="field">
                        <label for="category">"Category (optional)"</label>
                        <select id="category" name="category"
                            aria-invalid=move || category_error.get().is_some().then_some("true")
                            on:change=move |ev| category.set(event_target_value(&ev))>
                            <option value="">"Choose…"</option>
                            {CATEGORIES.iter().map(|(key, label)| view! { <option value=*key>{*label}</option> }).collect_view()}
                        </select>
                        <p class="field-error">{move || category_error.get()}</p>
                    </div>
                    <TextField id="message" label="What happened?" value=message error=form.error_for("message") multiline=true required=true maxlength=MESSAGE_MAX/>
                    <SubmitRow form=form/>
                </form>
            </Show>
        </section>
    }
}

/// `SupportPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct SupportRoute;

split_route!(SupportRoute => SupportPage in public_pages);
