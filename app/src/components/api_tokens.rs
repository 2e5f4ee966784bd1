use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::api;

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TokenInfo {
    id: i64,
    name: String,
    created_at: String,
    last_used_at: Option<String>,
}

#[derive(Deserialize)]
struct Created {
    token: String,
}

#[derive(Serialize)]
struct NewToken {
    name: String,
}

/// Personal API tokens: list, create (the token is shown once), revoke.
#[component]
pub fn ApiTokens() -> impl IntoView {
    let tokens = LocalResource::new(|| api::get_json::<Vec<TokenInfo>>("/api/tokens"));
    let name = RwSignal::new(String::new());
    let shown_once = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);

    let create = move |event: SubmitEvent| {
        event.prevent_default();
        let body = NewToken {
            name: name.get_untracked().trim().to_owned(),
        };
        if body.name.is_empty() {
            error.set(Some("name: give the token a name".into()));
            return;
        }
        leptos::task::spawn_local(async move {
            match api::send_json::<_, Created>("POST", "/api/tokens", &body).await {
                Ok(created) => {
                    shown_once.set(created.map(|c| c.token));
                    name.set(String::new());
                    error.set(None);
                    tokens.refetch();
                }
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };
    let revoke = move |id: i64| {
        leptos::task::spawn_local(async move {
            match api::delete(&format!("/api/tokens/{id}")).await {
                Ok(()) => tokens.refetch(),
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };

    view! {
        <section class="card" aria-labelledby="tokens-title">
            <h2 id="tokens-title">"API tokens"</h2>
            <p>"Scripts and other programs use a token in an " <code>"Authorization: Bearer"</code> " header."</p>
            {move || {
                shown_once
                    .get()
                    .map(|token| {
                        view! {
                            <div class="notice" role="status">
                                <p>"Copy your new token now; it will not be shown again:"</p>
                                <code data-testid="new-token">{token}</code>
                            </div>
                        }
                    })
            }}
            <form class="inline-form" on:submit=create>
                <label for="token-name">"Token name"</label>
                <input
                    id="token-name"
                    type="text"
                    maxlength="100"
                    prop:value=move || name.get()
                    on:input=move |ev| name.set(event_target_value(&ev))
                />
                <button type="submit" class="button">"Create token"</button>
            </form>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <ul class="token-list">
                {move || {
                    tokens
                        .get()
                        .and_then(Result::ok)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|token| {
                            let id = token.id;
                            view! {
                                <li>
                                    <strong>{token.name}</strong>
                                    " · created " {token.created_at}
                                    " · last used " {token.last_used_at.unwrap_or_else(|| "never".into())}
                                    <button type="button" class="button button--quiet" on:click=move |_| revoke(id)>
                                        "Revoke"
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </section>
    }
}
