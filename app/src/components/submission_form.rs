//! What the contact and support forms share: the per-field error list, the
//! sending state and the bot-check notice.

use leptos::prelude::*;
use serde::Deserialize;

use crate::api::{self, ApiFailure};
use crate::domain::contact::FieldViolation;

/// The form's state: field errors (from the shared rules or the server),
/// a general error, sending, and the id once stored.
#[derive(Clone, Copy)]
pub struct FormState {
    pub violations: RwSignal<Vec<FieldViolation>>,
    pub error: RwSignal<Option<String>>,
    pub sending: RwSignal<bool>,
    pub sent: RwSignal<Option<i64>>,
}

impl FormState {
    pub fn new() -> Self {
        Self {
            violations: RwSignal::new(Vec::new()),
            error: RwSignal::new(None),
            sending: RwSignal::new(false),
            sent: RwSignal::new(None),
        }
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

    /// Posts `body` to `path` unless the shared rules already refuse it.
    pub fn submit<B: serde::Serialize + 'static>(
        self,
        path: &'static str,
        body: B,
        checked: Result<(), Vec<FieldViolation>>,
    ) {
        if self.sending.get_untracked() {
            return;
        }
        if let Err(problems) = checked {
            self.violations.set(problems);
            self.error.set(Some("Please fix the marked fields.".into()));
            return;
        }
        self.violations.set(Vec::new());
        self.error.set(None);
        self.sending.set(true);
        leptos::task::spawn_local(async move {
            let result = api::send_json::<_, Created>("POST", path, &body).await;
            self.sending.set(false);
            match result {
                Ok(created) => self.sent.set(Some(created.map_or(0, |c| c.id))),
                Err(failure) => self.failed(failure),
            }
        });
    }

    fn failed(self, failure: ApiFailure) {
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

#[derive(Deserialize)]
struct Created {
    id: i64,
}

#[derive(Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContactConfig {
    bot_check: bool,
}

/// Says when the server runs without a bot check (a development setup).
#[component]
pub fn BotCheckNotice() -> impl IntoView {
    let config = LocalResource::new(|| api::get_json::<ContactConfig>("/api/contact/config"));
    move || {
        config
            .get()
            .and_then(Result::ok)
            .filter(|config| !config.bot_check)
            .map(|_| {
                view! {
                    <p class="hint" data-testid="bot-check-off">
                        "Development setup: the bot check is off on this server (no CAPTCHA_* settings)."
                    </p>
                }
            })
    }
}

/// The end of a public form: the bot-check notice, the form's general
/// error, and the send button (disabled while sending).
#[component]
pub fn SubmitRow(form: FormState) -> impl IntoView {
    view! {
        <BotCheckNotice/>
        <p class="field-error" role="alert">{move || form.error.get()}</p>
        <button type="submit" class="button" disabled=move || form.sending.get()>
            {move || if form.sending.get() { "Sending…" } else { "Send" }}
        </button>
    }
}
