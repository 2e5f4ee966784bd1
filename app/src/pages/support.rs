use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::contact::SendSupport;
use crate::components::submission_form::{FormState, SubmitRow};
use crate::components::text_field::TextField;
use crate::domain::contact::{SupportForm, CATEGORIES, MESSAGE_MAX, NAME_MAX, SUBJECT_MAX};

/// `/support`: the support request form, posted to the `send_support`
/// server function; without JavaScript the browser posts it itself and
/// comes back to `/support?sent=<id>`, or to the form with what the
/// server refused.
#[component]
pub fn SupportPage() -> impl IntoView {
    let name = RwSignal::new(String::new());
    let email = RwSignal::new(String::new());
    let subject = RwSignal::new(String::new());
    let category = RwSignal::new(String::new());
    let message = RwSignal::new(String::new());
    let form = FormState::new();
    let category_error = form.error_for("category");
    let send = ServerAction::<SendSupport>::new();
    form.follow(send, move |created| form.sent.set(Some(created.id)));
    let sent_without_script = use_query_map()
        .with_untracked(|query| query.get("sent").and_then(|id| id.parse::<i64>().ok()));
    let received = move || form.sent.get().or(sent_without_script);
    let check = move || {
        SupportForm {
            name: name.get_untracked(),
            email: email.get_untracked(),
            subject: subject.get_untracked(),
            message: message.get_untracked(),
            category: Some(category.get_untracked()),
            captcha_token: None,
        }
        .validate()
        .map(|_| ())
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
                when=move || received().is_none()
                fallback=move || view! {
                    <div class="notice" role="status" data-testid="support-sent">
                        <h2>{move || format!("Request #{} received.", received().unwrap_or_default())}</h2>
                        <p>{move || {
                            let to = email.get();
                            if to.trim().is_empty() {
                                "We will answer at the address you gave.".to_owned()
                            } else {
                                format!("We will answer at {}.", to.trim())
                            }
                        }}</p>
                    </div>
                }
            >
                <noscript>
                    <p class="hint">"If this site asks for a bot check, sending needs JavaScript; you can also write to support@tally.example."</p>
                </noscript>
                <ActionForm action=send attr:novalidate=true>
                    <TextField id="name" name="form[name]" label="Your name" value=name error=form.error_for("name") autocomplete="name" required=true maxlength=NAME_MAX/>
                    <TextField id="email" name="form[email]" label="Email" kind="email" value=email error=form.error_for("email") autocomplete="email" required=true maxlength=254/>
                    <TextField id="subject" name="form[subject]" label="Subject" value=subject error=form.error_for("subject") required=true maxlength=SUBJECT_MAX/>
                    <div class="field">
                        <label for="category">"Category (optional)"</label>
                        <select id="category" name="form[category]"
                            aria-invalid=move || category_error.get().is_some().then_some("true")
                            on:change=move |ev| category.set(event_target_value(&ev))>
                            <option value="">"Choose…"</option>
                            {CATEGORIES.iter().map(|(key, label)| view! { <option value=*key>{*label}</option> }).collect_view()}
                        </select>
                        <p class="field-error">{move || category_error.get()}</p>
                    </div>
                    <TextField id="message" name="form[message]" label="What happened?" value=message error=form.error_for("message") multiline=true required=true maxlength=MESSAGE_MAX/>
                    <SubmitRow form=form check=check/>
                </ActionForm>
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
