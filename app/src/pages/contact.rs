use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::contact::SendLead;
use crate::components::submission_form::{FormState, SubmitRow};
use crate::components::text_field::TextField;
use crate::domain::contact::{LeadForm, COMPANY_MAX, MESSAGE_MAX, NAME_MAX, PHONE_MAX};

/// `/contact`: the sales lead form. Checked in the browser with the rules
/// the server applies (`domain::contact`), then posted to the `send_lead`
/// server function; without JavaScript the browser posts it itself and
/// comes back to `/contact?sent=<id>`, or to the form with what the server
/// refused.
#[component]
pub fn ContactPage() -> impl IntoView {
    let name = RwSignal::new(String::new());
    let email = RwSignal::new(String::new());
    let company = RwSignal::new(String::new());
    let phone = RwSignal::new(String::new());
    let message = RwSignal::new(String::new());
    let form = FormState::new();
    let send = ServerAction::<SendLead>::new();
    form.follow(send, move |created| form.sent.set(Some(created.id)));
    let sent_without_script = use_query_map().with_untracked(|query| query.get("sent").is_some());
    let check = move || {
        LeadForm {
            name: name.get_untracked(),
            email: email.get_untracked(),
            message: message.get_untracked(),
            company: Some(company.get_untracked()),
            phone: Some(phone.get_untracked()),
            captcha_token: None,
        }
        .validate()
        .map(|_| ())
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
                when=move || form.sent.get().is_none() && !sent_without_script
                fallback=move || view! {
                    <div class="notice" role="status" data-testid="contact-sent">
                        <h2>"Thank you, your message is with us."</h2>
                        <p>{move || {
                            let to = email.get();
                            if to.trim().is_empty() {
                                "We will reply to the address you gave.".to_owned()
                            } else {
                                format!("We will reply to {}.", to.trim())
                            }
                        }}</p>
                    </div>
                }
            >
                <noscript>
                    <p class="hint">"If this site asks for a bot check, sending needs JavaScript; you can also write to sales@tally.example."</p>
                </noscript>
                <ActionForm action=send attr:novalidate=true>
                    <TextField id="name" name="form[name]" label="Your name" value=name error=form.error_for("name") autocomplete="name" required=true maxlength=NAME_MAX/>
                    <TextField id="email" name="form[email]" label="Email" kind="email" value=email error=form.error_for("email") autocomplete="email" required=true maxlength=254/>
                    <TextField id="company" name="form[company]" label="Company or household" value=company error=form.error_for("company") autocomplete="organization" maxlength=COMPANY_MAX/>
                    <TextField id="phone" name="form[phone]" label="Phone" kind="tel" value=phone error=form.error_for("phone") autocomplete="tel" maxlength=PHONE_MAX/>
                    <TextField id="message" name="form[message]" label="How can we help?" value=message error=form.error_for("message") multiline=true required=true maxlength=MESSAGE_MAX/>
                    <SubmitRow form=form check=check/>
                </ActionForm>
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
