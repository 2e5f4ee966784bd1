use crate::api;
use crate::components::maintenance::Maintenance;
use crate::components::submissions::Submissions;
use crate::contract::account::Me;
use crate::contract::admin::{Invitation, Invite, Invited, RegistrationSetting, UserSummary};
use crate::domain::role::Role;
use crate::domain::timestamp;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

/// `/admin`: the users of this Tally (disable, enable, reset a second
/// factor), invitation links and open registration. The server checks the
/// role on every call; this page only shows what it answers.
#[component]
pub fn AdminPage() -> impl IntoView {
    let users = LocalResource::new(|| api::get_json::<Vec<UserSummary>>("/api/admin/users"));
    let invitations =
        LocalResource::new(|| api::get_json::<Vec<Invitation>>("/api/admin/invitations"));
    let registration =
        LocalResource::new(|| api::get_json::<RegistrationSetting>("/api/admin/registration"));
    let me = LocalResource::new(|| api::get_json::<Me>("/api/auth/me"));
    let my_id = move || me.get().and_then(Result::ok).map(|body| body.user.id);
    let invite_email = RwSignal::new(String::new());
    let invite_role = RwSignal::new(Role::User);
    let new_link = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let status = RwSignal::new(None::<String>);

    let act = move |path: String, done: &'static str| {
        leptos::task::spawn_local(async move {
            match api::send_json::<_, serde_json::Value>("POST", &path, &serde_json::json!({}))
                .await
            {
                Ok(_) => {
                    error.set(None);
                    status.set(Some(done.to_owned()));
                    users.refetch();
                }
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };
    let invite = move |event: SubmitEvent| {
        event.prevent_default();
        let email = invite_email.get_untracked().trim().to_owned();
        let body = Invite {
            email: (!email.is_empty()).then_some(email),
            role: Some(invite_role.get_untracked()),
        };
        leptos::task::spawn_local(async move {
            match api::send_json::<_, Invited>("POST", "/api/admin/invitations", &body).await {
                Ok(made) => {
                    error.set(None);
                    new_link.set(made.map(|m| m.link));
                    invite_email.set(String::new());
                    invitations.refetch();
                }
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };
    let withdraw = move |id: i64| {
        leptos::task::spawn_local(async move {
            match api::delete(&format!("/api/admin/invitations/{id}")).await {
                Ok(()) => invitations.refetch(),
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };
    let set_open = move |ev| {
        let body = RegistrationSetting {
            open: event_target_checked(&ev),
        };
        leptos::task::spawn_local(async move {
            match api::send_json::<_, RegistrationSetting>("PUT", "/api/admin/registration", &body)
                .await
            {
                Ok(_) => status.set(Some(if body.open {
                    "Anyone who can reach this Tally may now create an account.".to_owned()
                } else {
                    "Accounts are by invitation only.".to_owned()
                })),
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };

    view! {
        <Title text="Administration"/>
        <h1>"Administration"</h1>
        <p class="field-error" role="alert">{move || error.get()}</p>
        <p role="status">{move || status.get()}</p>
        {move || match users.get() {
            Some(Err(failure)) if matches!(failure.status(), Some(401) | Some(403)) => view! {
                <p>"This page is for administrators. " <A href="/login">"Sign in"</A> " with an administrator account."</p>
            }.into_any(),
            Some(Err(failure)) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
            None => view! { <p aria-busy="true">"Loading…"</p> }.into_any(),
            Some(Ok(list)) => view! {
                {view! {
                <section class="card" aria-labelledby="users-title">
                    <h2 id="users-title">"Users"</h2>
                    <div class="table-wrap">
                        <table class="data-table" data-testid="users">
                            <thead>
                                <tr>
                                    <th scope="col">"Email"</th>
                                    <th scope="col">"Name"</th>
                                    <th scope="col">"Role"</th>
                                    <th scope="col">"Second factor"</th>
                                    <th scope="col">"Last sign-in"</th>
                                    <th scope="col">"Status"</th>
                                    <th scope="col">"Actions"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {list.into_iter().map(|user| {
                                    let id = user.id;
                                    let factors = match (user.totp_enabled, user.security_keys) {
                                        (false, 0) => "none".to_owned(),
                                        (true, 0) => "app".to_owned(),
                                        (false, keys) => format!("{keys} key(s)"),
                                        (true, keys) => format!("app, {keys} key(s)"),
                                    };
                                    let has_factor = user.totp_enabled || user.security_keys > 0;
                                    let email = user.email.clone();
                                    let is_me = move || my_id() == Some(id);
                                    view! {
                                        <tr>
                                            <td>{user.email.clone()}</td>
                                            <td>{user.name.clone()}</td>
                                            <td>{user.role.as_str()}</td>
                                            <td>{factors}</td>
                                            <td>{user.last_sign_in_at.map(|at| timestamp::minute(&at)).unwrap_or_else(|| "never".into())}</td>
                                            <td>{if user.disabled { "disabled" } else { "active" }}</td>
                                            <td class="actions">
                                                {if user.disabled {
                                                    view! { <button type="button" class="button button--quiet" aria-label=format!("Enable {email}")
                                                        on:click=move |_| act(format!("/api/admin/users/{id}/enable"), "Account enabled.")>"Enable"</button> }.into_any()
                                                } else {
                                                    view! { <button type="button" class="button button--quiet" aria-label=format!("Disable {email}") hidden=is_me
                                                        on:click=move |_| act(format!("/api/admin/users/{id}/disable"), "Account disabled; its sessions ended.")>"Disable"</button> }.into_any()
                                                }}
                                                <Show when=move || has_factor>
                                                    <button type="button" class="button button--quiet" aria-label=format!("Reset second factor of {}", user.email)
                                                        on:click=move |_| act(format!("/api/admin/users/{id}/reset-second-factor"), "Second factor removed; they can sign in with their password and set it up again.")>
                                                        "Reset second factor"
                                                    </button>
                                                </Show>
                                            </td>
                                        </tr>
                                    }.into_any()
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                </section>
                }.into_any()}
                {view! {
                <section class="card" aria-labelledby="invite-title">
                    <h2 id="invite-title">"Invite someone"</h2>
                    {move || new_link.get().map(|link| view! {
                        <div class="notice" role="status">
                            <p>"Send this link to the person you invite. It works once, for 7 days, and will not be shown again:"</p>
                            <code data-testid="invitation-link">{link}</code>
                        </div>
                    })}
                    <form class="inline-form" on:submit=invite>
                        <label for="invite-email">"Their email (optional: limits the link to this address)"</label>
                        <input id="invite-email" type="email" prop:value=move || invite_email.get()
                            on:input=move |ev| invite_email.set(event_target_value(&ev))/>
                        <label for="invite-role" class="visually-hidden">"Role"</label>
                        <select id="invite-role" on:change=move |ev| invite_role.set(Role::parse(&event_target_value(&ev)).unwrap_or_default())>
                            <option value=Role::User.as_str() selected>{Role::User.label()}</option>
                            <option value=Role::Admin.as_str()>{Role::Admin.label()}</option>
                        </select>
                        <button type="submit" class="button">"Create invitation link"</button>
                    </form>
                    <h3>"Open invitations"</h3>
                    <ul class="token-list">
                        {move || invitations.get().and_then(Result::ok).unwrap_or_default().into_iter().map(|invitation| {
                            let id = invitation.id;
                            view! {
                                <li>
                                    <span>{invitation.email.unwrap_or_else(|| "anyone with the link".into())}</span>
                                    <span class="hint">{format!("{}, expires {}", invitation.role.as_str(), timestamp::day(&invitation.expires_at))}</span>
                                    <button type="button" class="button button--quiet" on:click=move |_| withdraw(id)>"Withdraw"</button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </section>
                }.into_any()}
                {view! { <Submissions/> }.into_any()}
                {view! { <Maintenance/> }.into_any()}
                {view! {
                <section class="card" aria-labelledby="registration-title">
                    <h2 id="registration-title">"Registration"</h2>
                    <div class="check-field">
                        <input id="open-registration" type="checkbox"
                            prop:checked=move || registration.get().and_then(Result::ok).is_some_and(|r| r.open)
                            on:change=set_open/>
                        <label for="open-registration">"Let anyone who can reach this Tally create an account"</label>
                    </div>
                </section>
                }.into_any()}
            }.into_any(),
        }}
    }
}
