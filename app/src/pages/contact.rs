use super::split_route::split_route;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::submission_form::{FormState, SubmitRow};
use crate::components::text_field::TextField;
use crate::domain::contact::{LeadForm, COMPANY_MAX, MESSAGE_MAX, NAME_MAX, PHONE_MAX};

/// `/contact`: the sales lead form. Checked in the browser with the rules
/// the server applies (`domain::contact`), then sent through the `send_lead` server function.
#[component]
pub fn ContactPage() -> impl IntoView {
    let name = RwSignal::new(String::new());
    let email = RwSignal::new(String::new());
    let company = RwSignal::new(String::new());
    let phone = RwSignal::new(String::new());
    let message = RwSignal::new(String::new());
    let form = FormState::new();

    let submit = move |event: SubmitEvent| {
        event.prevent_default();
        let lead = LeadForm {
            name: name.get_untracked(),
            email: email.get_untracked(),
            message: message.get_untracked(),
            company: Some(company.get_untracked()),
            phone: Some(phone.get_untracked()),
            captcha_token: form.captcha_token(),
        };
        let checked = lead.validate().map(|_| ());
        form.submit(crate::api::contact::send_lead(lead), checked);
    };

    view! {
        <Title text="Contact sales"/>
        <section class="auth card" aria-labelledby="contact-title">
            <h1 id="contact-title">"Talk to us about Tally"</h1>
            <p>
                "Running Tally for a household, a club or a small office? Tell us what you track and "
                "we will answer within two working days."
            </p>
            <Show
                when=move || form.sent.get().is_none()
                fallback=move || view! {
                    <div class="notice" role="status" data-testid="contact-sent">
                        <h2>"Thank you, your message is with us."</h2>
                        <p>{move || format!("We will reply to {}.", email.get().trim())}</p>
                    </div>
                }
            >
                <noscript>
                    <p class="field-error">"Sending this form needs JavaScript. You can also write to sales@tally.example."</p>
                </noscript>
                <form on:submit=submit novalidate>
                    <TextField id="name" label="Your name" value=name error=form.error_for("name") autocomplete="name" required=true maxlength=NAME_MAX/>
                    <TextField id="email" label="Email" kind="email" value=email error=form.error_for("email") autocomplete="email" required=true maxlength=254/>
                    <TextField id="company" label="Company or household" value=company error=form.error_for("company") autocomplete="organization" maxlength=COMPANY_MAX/>
                    <TextField id="phone" label="Phone" kind="tel" value=phone error=form.error_for("phone") autocomplete="tel" maxlength=PHONE_MAX/>
                    <TextField id="message" label="How can we help?" value=message error=form.error_for("message") multiline=true required=true maxlength=MESSAGE_MAX/>
                    <SubmitRow form=form/>
                </form>
            </Show>
        </section>
    }
}

/// `ContactPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct ContactRoute;

split_route!(ContactRoute => ContactPage in public_pages);
