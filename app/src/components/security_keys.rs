use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use serde::Deserialize;

use crate::api::{self, ApiFailure};
use crate::domain::timestamp;

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct KeyInfo {
    id: i64,
    name: String,
    created_at: String,
    last_used_at: Option<String>,
}

#[derive(Deserialize)]
struct Started {
    ceremony: String,
    options: serde_json::Value,
}

/// Options from the server, the key's credential back, under a name.
async fn register_key(name: String) -> Result<(), ApiFailure> {
    let started = api::send_json::<_, Started>(
        "POST",
        "/api/auth/security-keys/options",
        &serde_json::json!({}),
    )
    .await?
    .ok_or(ApiFailure::Unavailable)?;
    let credential = api::security_key::create(&started.options).await?;
    api::send_json::<_, KeyInfo>(
        "POST",
        "/api/auth/security-keys",
        &serde_json::json!({ "ceremony": started.ceremony, "name": name, "credential": credential }),
    )
    .await?;
    Ok(())
}

/// Hardware security keys: register (named), list, remove. While any is
/// registered, sign-in asks for one after the password.
#[component]
pub fn SecurityKeys() -> impl IntoView {
    let keys = LocalResource::new(|| api::get_json::<Vec<KeyInfo>>("/api/auth/security-keys"));
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
    let remove = move |id: i64| {
        leptos::task::spawn_local(async move {
            match api::delete(&format!("/api/auth/security-keys/{id}")).await {
                Ok(()) => keys.refetch(),
                Err(failure) => error.set(Some(failure.message())),
            }
        });
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
                            let id = key.id;
                            let label = format!("Remove {}", key.name);
                            view! {
                                <li>
                                    <strong>{key.name.clone()}</strong>
                                    <span class="hint">
                                        {format!("added {}", timestamp::day(&key.created_at))}
                                        {key.last_used_at.map(|at| format!(", last used {}", timestamp::day(&at)))}
                                    </span>
                                    <button type="button" class="button button--quiet" aria-label=label on:click=move |_| remove(id)>
                                        "Remove"
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
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
