//! What the contact and support forms share: the per-field error list, the
//! sending state and the bot check (the provider's widget when the server
//! has one configured, a notice in development when it has none).

use leptos::prelude::*;

use crate::api::{self, ApiFailure};
use crate::contract::contact::Created;
use crate::contract::error::ErrorBody;
use crate::domain::validation::FieldViolation;

/// The form's state: field errors (from the shared rules or the server),
/// a general error, sending, the id once stored, and the bot-check widget
/// (its id once the provider has drawn it).
#[derive(Clone, Copy)]
pub struct FormState {
    pub violations: RwSignal<Vec<FieldViolation>>,
    pub error: RwSignal<Option<String>>,
    pub sending: RwSignal<bool>,
    pub sent: RwSignal<Option<i64>>,
    bot_check: RwSignal<bool>,
    widget: RwSignal<Option<String>>,
}

impl FormState {
    pub fn new() -> Self {
        Self {
            violations: RwSignal::new(Vec::new()),
            error: RwSignal::new(None),
            sending: RwSignal::new(false),
            sent: RwSignal::new(None),
            bot_check: RwSignal::new(false),
            widget: RwSignal::new(None),
        }
    }

    /// The visitor's bot-check answer, for the request's `captchaToken`.
    pub fn captcha_token(self) -> Option<String> {
        self.widget
            .get_untracked()
            .and_then(|id| api::captcha::token(&id))
    }

    /// The error for one field, as a signal for `TextField`.
    pub fn error_for(self, field: &'static str) -> Signal<Option<String>> {
        Signal::derive(move || {
            self.violations.with(|all| {
                all.iter()
                    .find(|violation| violation.field == field)
                    .map(|violation| violation.description.clone())
            })
        })
    }

    /// Sends the form (`sending`, a server function's call not yet
    /// started) unless the shared rules already refuse it.
    pub fn submit<F>(self, sending: F, checked: Result<(), Vec<FieldViolation>>)
    where
        F: std::future::Future<Output = Result<Created, ErrorBody>> + 'static,
    {
        if self.sending.get_untracked() {
            return;
        }
        let mut problems = checked.err().unwrap_or_default();
        if self.bot_check.get_untracked() && self.captcha_token().is_none() {
            problems.push(FieldViolation {
                field: "captchaToken".into(),
                description: "complete the bot check first".into(),
            });
        }
        if !problems.is_empty() {
            self.violations.set(problems);
            self.error.set(Some("Please fix the marked fields.".into()));
            return;
        }
        self.violations.set(Vec::new());
        self.error.set(None);
        self.sending.set(true);
        leptos::task::spawn_local(async move {
            let result = sending.await;
            self.sending.set(false);
            match result {
                Ok(created) => self.sent.set(Some(created.id)),
                Err(failure) => self.failed(failure.into()),
            }
        });
    }

    fn failed(self, failure: ApiFailure) {
        // The provider verifies a token once: ask the visitor for a new one.
        if let Some(id) = self.widget.get_untracked() {
            api::captcha::reset(&id);
        }
        if let ApiFailure::Answered { violations, .. } = &failure {
            if !violations.is_empty() {
                self.violations.set(violations.clone());
                self.error.set(Some("Please fix the marked fields.".into()));
                return;
            }
        }
        self.error.set(Some(failure.message()));
    }
}

impl Default for FormState {
    fn default() -> Self {
        Self::new()
    }
}

/// The bot check: the provider's widget when the server has one, a notice
/// in development when it has none.
#[component]
pub fn BotCheck(form: FormState) -> impl IntoView {
    let config = api::BrowserResource::new(api::contact::get_contact_config);
    let holder = NodeRef::<leptos::html::Div>::new();
    let problem = RwSignal::new(None::<String>);
    let started = StoredValue::new(false);
    Effect::new(move |_| {
        let Some(Ok(config)) = config.get() else {
            return;
        };
        form.bot_check.set(config.bot_check);
        let (Some(site_key), Some(script_url), Some(element)) = (
            config.captcha_site_key,
            config.captcha_script_url,
            holder.get(),
        ) else {
            return;
        };
        if started.get_value() {
            return;
        }
        started.set_value(true);
        leptos::task::spawn_local(async move {
            match api::captcha::render(&element, &site_key, &script_url).await {
                Ok(id) => form.widget.set(Some(id)),
                Err(message) => problem.set(Some(message)),
            }
        });
    });
    let on = move || {
        config
            .get()
            .and_then(Result::ok)
            .map(|config| config.bot_check)
    };
    view! {
        <div
            class="captcha"
            role="group"
            aria-label="Bot check"
            aria-describedby="captchaToken-error"
            hidden=move || on() != Some(true)
            data-testid="bot-check"
        >
            <div node_ref=holder></div>
            <p class="field-error" id="captchaToken-error">
                {move || problem.get().or_else(|| form.error_for("captchaToken").get())}
            </p>
        </div>
    }
}

/// The end of a public form: the bot check, the form's general error, and
/// the send button (disabled while sending).
#[component]
pub fn SubmitRow(form: FormState) -> impl IntoView {
    view! {
        <BotCheck form=form/>
        <p class="field-error" role="alert">{move || form.error.get()}</p>
        <button type="submit" class="button" disabled=move || form.sending.get()>
            {move || if form.sending.get() { "Sending…" } else { "Send" }}
        </button>
    }
}
