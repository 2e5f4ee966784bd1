//! What the contact, support and bill forms share: the per-field error
//! list, the sending state, the check before sending, and the bot check
//! (the provider's widget when the server has one configured, a notice in
//! development when it has none). The forms post to their server
//! functions (`ActionForm`, or a form whose submit handler dispatches the
//! same `ServerAction`): without JavaScript the browser posts them itself
//! and the server renders what it refused on the page it sends the
//! browser back to.

use leptos::html::Input;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

use crate::api::{self, ApiFailure};
use crate::contract::error::ErrorBody;
use crate::domain::validation::FieldViolation;

/// The form's state: field errors (from the shared rules or the server),
/// a general error, sending, the id once stored, and the bot-check widget
/// (its id once the provider has drawn it, and the hidden field its
/// answer is sent in).
#[derive(Clone, Copy)]
pub struct FormState {
    pub violations: RwSignal<Vec<FieldViolation>>,
    pub error: RwSignal<Option<String>>,
    pub sending: RwSignal<bool>,
    pub sent: RwSignal<Option<i64>>,
    bot_check: RwSignal<bool>,
    widget: RwSignal<Option<String>>,
    captcha_field: NodeRef<Input>,
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
            captcha_field: NodeRef::new(),
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

    /// Shows what `action` answers: what the server refused on the form
    /// (also on a page the server rendered after a post without
    /// JavaScript, whose error `ServerAction` reads from the address),
    /// `sending` while it runs, and what it stored to `done`.
    pub fn follow<S>(self, action: ServerAction<S>, done: impl Fn(S::Output) + 'static)
    where
        S: ServerFn<Error = ErrorBody> + Clone + Send + Sync + 'static,
        S::Output: Clone + Send + Sync + 'static,
    {
        Effect::new(move || self.sending.set(action.pending().get()));
        api::each_answer(action, move |answer| match answer {
            Ok(output) => {
                self.violations.set(Vec::new());
                self.error.set(None);
                done(output);
            }
            Err(failure) => self.failed(failure),
        });
    }

    /// Runs as the form is about to go (its submit button's click, which
    /// Enter in a field also fires, or the form's own submit handler):
    /// true when it must not, because it is already sending or the shared
    /// rules (`checked`) or the bot check refuse it, which the form then
    /// shows. Otherwise the bot check's answer goes into its hidden field.
    pub fn holds_back(self, checked: Result<(), Vec<FieldViolation>>) -> bool {
        if self.sending.get_untracked() {
            return true;
        }
        let mut problems = checked.err().unwrap_or_default();
        let token = self.captcha_token();
        if self.bot_check.get_untracked() && token.is_none() {
            problems.push(FieldViolation::new(
                "captchaToken",
                "complete the bot check first",
            ));
        }
        if !problems.is_empty() {
            self.violations.set(problems);
            self.error.set(Some("Please fix the marked fields.".into()));
            return true;
        }
        if let (Some(field), Some(token)) = (self.captcha_field.get_untracked(), token) {
            field.set_value(&token);
        }
        self.violations.set(Vec::new());
        self.error.set(None);
        false
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
            <input type="hidden" name="form[captchaToken]" node_ref=form.captcha_field/>
            <p class="field-error" id="captchaToken-error">
                {move || problem.get().or_else(|| form.error_for("captchaToken").get())}
            </p>
        </div>
    }
}

/// The end of a public form: the bot check, the form's general error, and
/// the send button (disabled while sending), which first asks `check` (the
/// shared rules) and the bot check whether the form may go.
#[component]
pub fn SubmitRow(
    form: FormState,
    check: impl Fn() -> Result<(), Vec<FieldViolation>> + 'static,
) -> impl IntoView {
    view! {
        <BotCheck form=form/>
        <p class="field-error" role="alert">{move || form.error.get()}</p>
        <button type="submit" class="button" disabled=move || form.sending.get()
            on:click=move |event| {
                if form.holds_back(check()) {
                    event.prevent_default();
                }
            }>
            {move || if form.sending.get() { "Sending…" } else { "Send" }}
        </button>
    }
}
