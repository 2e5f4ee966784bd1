use crate::api;
use crate::api::account::{SaveAccount, SetPassword};
use crate::components::csrf_field::CsrfField;
use crate::components::form_refusal::FormRefusal;
use crate::contract::account::User;
use crate::domain::form_outcome::FormOutcome;
use crate::domain::password_policy;
use leptos::prelude::*;

/// Name and email (a new email needs the current password). A form posting
/// to `account/save`, so it works without JavaScript (the browser comes
/// back to Profile); the inputs carry their values as attributes too, so
/// the server-rendered page shows them before (or without) JavaScript.
/// The password field is always there: without JavaScript the page cannot
/// know the email is being changed, and an unchanged email ignores it.
#[component]
pub fn AccountDetails(user: User) -> impl IntoView {
    let original_email = user.email.clone();
    let name = RwSignal::new(user.name.clone());
    let email = RwSignal::new(user.email.clone());
    let current = RwSignal::new(String::new());
    let status = RwSignal::new(None::<String>);
    let refusal = FormRefusal::new();
    let email_changed = {
        let original = original_email.clone();
        move || !email.get().trim().eq_ignore_ascii_case(&original)
    };

    let save = ServerAction::<SaveAccount>::new();
    api::each_answer(save, move |answer| match answer {
        Ok(_) => {
            refusal.clear();
            current.set(String::new());
            status.set(Some("Saved.".into()));
        }
        Err(failure) => {
            status.set(None);
            refusal.heard(&failure);
        }
    });
    let pending = save.pending();
    let shown_email = original_email.clone();

    view! {
        <section class="card" aria-labelledby="account-title">
            <h2 id="account-title">"Account"</h2>
            <p>"Role: " {user.role.as_str()}</p>
            <ActionForm action=save attr:novalidate=true>
                <CsrfField/>
                <div class="field">
                    <label for="profile-name">"Name"</label>
                    <input id="profile-name" name="request[name]" type="text" maxlength="200" autocomplete="name"
                        aria-invalid=refusal.marks("name")
                        value=user.name.clone()
                        prop:value=move || name.get()
                        on:input=move |ev| name.set(event_target_value(&ev))/>
                </div>
                <div class="field">
                    <label for="profile-email">"Email"</label>
                    <input id="profile-email" name="request[email]" data-testid="profile-email" type="email" autocomplete="email"
                        aria-invalid=refusal.marks("email")
                        value=shown_email
                        prop:value=move || email.get()
                        on:input=move |ev| email.set(event_target_value(&ev))/>
                </div>
                <div class="field">
                    <label for="profile-current-password">"Current password (to change your email)"</label>
                    <input id="profile-current-password" name="request[currentPassword]" type="password" autocomplete="current-password"
                        aria-invalid=refusal.marks("currentPassword")
                        aria-describedby="profile-current-password-hint"
                        prop:value=move || current.get()
                        on:input=move |ev| current.set(event_target_value(&ev))/>
                    <p class="hint" id="profile-current-password-hint">{move || if email_changed() {
                        "Needed: the email changes."
                    } else {
                        "Only needed when you change the email."
                    }}</p>
                </div>
                <p class="field-error" role="alert">{move || refusal.message()}</p>
                <p role="status">{move || status.get()}</p>
                <button type="submit" class="button" disabled=move || pending.get()>"Save"</button>
            </ActionForm>
        </section>
        <ChangePassword email=original_email/>
    }
}

/// A new password, checked as it is typed with the server's own policy;
/// every other session ends when it changes. A form posting to
/// `account/password`, so it works without JavaScript too (the browser
/// comes back to Profile, which says the password changed).
#[component]
fn ChangePassword(email: String) -> impl IntoView {
    let current = RwSignal::new(String::new());
    let new_password = RwSignal::new(String::new());
    let status = RwSignal::new(None::<String>);
    let refusal = FormRefusal::new();
    let email = StoredValue::new(email);
    let problem = move || {
        let typed = new_password.get();
        (!typed.is_empty())
            .then(|| email.with_value(|email| password_policy::check(&typed, email).err()))
            .flatten()
            .map(|problem| problem.to_string())
    };

    let change = ServerAction::<SetPassword>::new();
    api::each_answer(change, move |answer| match answer {
        Ok(()) => {
            refusal.clear();
            current.set(String::new());
            new_password.set(String::new());
            status.set(Some(FormOutcome::PasswordChanged.message().into()));
        }
        Err(failure) => {
            status.set(None);
            refusal.heard(&failure);
        }
    });
    let pending = change.pending();
    view! {
        <section class="card" aria-labelledby="password-title">
            <h2 id="password-title">"Password"</h2>
            <p class="hint" data-testid="password-revokes">"A new password signs you out everywhere else and revokes your API tokens: scripts using one need a new token."</p>
            <ActionForm action=change attr:novalidate=true>
                <CsrfField/>
                <div class="field">
                    <label for="password-current">"Current password"</label>
                    <input id="password-current" name="request[currentPassword]" type="password" autocomplete="current-password"
                        aria-invalid=refusal.marks("currentPassword")
                        prop:value=move || current.get()
                        on:input=move |ev| current.set(event_target_value(&ev))/>
                </div>
                <div class="field">
                    <label for="password-new">"New password"</label>
                    <input id="password-new" name="request[newPassword]" type="password" autocomplete="new-password"
                        aria-describedby="password-new-hint"
                        aria-invalid=move || (problem().is_some() || refusal.blames("newPassword")).then_some("true")
                        prop:value=move || new_password.get()
                        on:input=move |ev| new_password.set(event_target_value(&ev))/>
                    <p id="password-new-hint" class="hint">
                        {move || problem().unwrap_or_else(|| format!("At least {} characters.", password_policy::MIN_CHARS))}
                    </p>
                </div>
                <p class="field-error" role="alert">{move || refusal.message()}</p>
                <p role="status">{move || status.get()}</p>
                <button type="submit" class="button" disabled=move || pending.get()>"Change password"</button>
            </ActionForm>
        </section>
    }
}
