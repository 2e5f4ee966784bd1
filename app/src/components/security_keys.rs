use crate::api::{self, ApiFailure};
use crate::contract::security_keys::{RegisterKey, RemoveKey};
use crate::domain::timestamp;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;

/// Options from the server, the key's credential back, under a name.
async fn register_key(name: String) -> Result<(), ApiFailure> {
    let started = api::security_keys::start_key_registration().await?;
    let credential = api::security_key::create(&started.options).await?;
    api::security_keys::finish_key_registration(RegisterKey {
        ceremony: started.ceremony,
        name,
        credential,
    })
    .await?;
    Ok(())
}

/// Hardware security keys: register (named), list, remove. While any is
/// registered, sign-in asks for one after the password.
#[component]
pub fn SecurityKeys() -> impl IntoView {
    let keys = api::BrowserResource::new(|| async {
        api::security_keys::get_security_keys()
            .await
            .map_err(ApiFailure::from)
    });
    let name = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let pending = RwSignal::new(false);

    let add = move |event: SubmitEvent| {
        event.prevent_default();
        let chosen = name.get_untracked().trim().to_owned();
        if chosen.is_empty() {
            error.set(Some(
                "Give the key a name, such as “Blue key on my keyring”.".into(),
            ));
            return;
        }
        pending.set(true);
        error.set(None);
        leptos::task::spawn_local(async move {
            let result = register_key(chosen).await;
            pending.set(false);
            match result {
                Ok(()) => {
                    name.set(String::new());
                    keys.refetch();
                }
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };
    // The key being removed (id and name): removing one asks for the
    // password first, as the account gets weaker.
    let removing = RwSignal::new(None::<(i64, String)>);
    let password = RwSignal::new(String::new());
    let confirm_removal = move |event: SubmitEvent| {
        event.prevent_default();
        let Some((id, _)) = removing.get_untracked() else {
            return;
        };
        let body = RemoveKey {
            current_password: Some(password.get_untracked()),
        };
        leptos::task::spawn_local(async move {
            match api::security_keys::remove_security_key(id, body).await {
                Ok(()) => {
                    removing.set(None);
                    password.set(String::new());
                    error.set(None);
                    keys.refetch();
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    let cancel_removal = move |_| {
        removing.set(None);
        password.set(String::new());
        error.set(None);
    };

    view! {
        <section class="card" aria-labelledby="keys-title">
            <h2 id="keys-title">"Security keys"</h2>
            <p>"A hardware key (FIDO2/WebAuthn) you touch after entering your password."</p>
            <ul class="token-list" data-testid="security-keys">
                {move || {
                    keys.get()
                        .and_then(Result::ok)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|key| {
                            let chosen = (key.id, key.name.clone());
                            let label = format!("Remove {}", key.name);
                            view! {
                                <li>
                                    <strong>{key.name.clone()}</strong>
                                    <span class="hint">
                                        {format!("added {}", timestamp::day(&key.created_at))}
                                        {key.last_used_at.map(|at| format!(", last used {}", timestamp::day(&at)))}
                                    </span>
                                    <button
                                        type="button"
                                        class="button button--quiet"
                                        aria-label=label
                                        on:click=move |_| {
                                            password.set(String::new());
                                            removing.set(Some(chosen.clone()));
                                        }
                                    >
                                        "Remove"
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
            {move || {
                removing
                    .get()
                    .map(|(_, key_name)| {
                        view! {
                            <form class="inline-form" method="post" on:submit=confirm_removal>
                                <label for="key-remove-password">
                                    {format!("Your password, to remove {key_name}")}
                                </label>
                                <input
                                    id="key-remove-password"
                                    type="password"
                                    autocomplete="current-password"
                                    prop:value=move || password.get()
                                    on:input=move |ev| password.set(event_target_value(&ev))
                                />
                                <button type="submit" class="button">"Remove key"</button>
                                <button type="button" class="button button--quiet" on:click=cancel_removal>
                                    "Cancel"
                                </button>
                            </form>
                        }
                    })
            }}
            <form class="inline-form" on:submit=add>
                <label for="key-name">"Name of the new key"</label>
                <input
                    id="key-name"
                    type="text"
                    maxlength="100"
                    prop:value=move || name.get()
                    on:input=move |ev| name.set(event_target_value(&ev))
                />
                <button type="submit" class="button" disabled=move || pending.get()>
                    {move || if pending.get() { "Touch your key…" } else { "Add security key" }}
                </button>
            </form>
            <p class="field-error" role="alert">{move || error.get()}</p>
        </section>
    }
}
