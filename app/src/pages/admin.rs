use super::split_route::split_route;
use crate::api::account::get_me;
use crate::api::admin::{
    change_account, get_registration, invite_user, list_invitations, list_users, set_registration,
    withdraw_invitation,
};
use crate::api::{self, ApiFailure};
use crate::components::admin_only::AdminOnly;
use crate::components::submissions::Submissions;
use crate::contract::admin::{
    AccountAction, Invitation, Invite, RegistrationChange, RegistrationSetting, UserSummary,
};
use crate::contract::two_factor::CurrentPassword;
use crate::domain::role::Role;
use crate::domain::timestamp;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

/// `/admin`: the users of this Tally (disable, enable, reset a second
/// factor), invitation links and open registration. The server checks the
/// role on every call; this page only shows what it answers. Rendered on
/// the server with its data (blocking resources).
#[component]
pub fn AdminPage() -> impl IntoView {
    let users = api::page_data(list_users);
    let invitations = api::page_data(list_invitations);
    let registration = api::page_data(get_registration);
    let me = api::page_data(get_me);
    let loaded = move || async move {
        let registration = registration.await?;
        let users = users.await?;
        let invitations = invitations.await?;
        let my_id = me.await.ok().map(|me| me.user.id);
        Ok::<_, ApiFailure>((registration, users, invitations, my_id))
    };

    view! {
        <Title text="Administration"/>
        <h1>"Administration"</h1>
        <nav aria-label="Administration" class="actions">
            <A href="/admin/status">"Status"</A>
            <A href="/admin/backups">"Backups"</A>
            <A href="/admin/bank">"Bank Sync"</A>
            <A href="/admin/notifications">"Notifications"</A>
            <A href="/admin/authentication">"Authentication"</A>
        </nav>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
        {move || Suspend::new(async move { match loaded().await {
            Err(failure) => view! { <AdminOnly failure/> }.into_any(),
            Ok((registration, users, invitations, my_id)) => view! {
                <AdminPanel registration users invitations my_id/>
            }.into_any(),
        }})}
        </Transition>
    }
}

/// The page once loaded: the lists are kept here and asked again after a
/// change, so the sections below (a backup being watched) stay as they are.
#[component]
fn AdminPanel(
    registration: RegistrationSetting,
    users: Vec<UserSummary>,
    invitations: Vec<Invitation>,
    my_id: Option<i64>,
) -> impl IntoView {
    let users = RwSignal::new(users);
    let invitations = RwSignal::new(invitations);
    let invite_email = RwSignal::new(String::new());
    let invite_role = RwSignal::new(Role::User);
    let new_link = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let status = RwSignal::new(None::<String>);
    // Account-level changes are confirmed with the password each time.
    let password = RwSignal::new(String::new());
    let confirmation = move || CurrentPassword {
        current_password: password.get_untracked(),
    };
    let open = RwSignal::new(registration.open);

    let reload_users = move || {
        leptos::task::spawn_local(async move {
            match list_users().await {
                Ok(list) => users.set(list),
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    let reload_invitations = move || {
        leptos::task::spawn_local(async move {
            match list_invitations().await {
                Ok(list) => invitations.set(list),
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    let act = move |user: i64, action: AccountAction, done: &'static str| {
        let confirm = confirmation();
        leptos::task::spawn_local(async move {
            match change_account(user, action, confirm).await {
                Ok(()) => {
                    password.set(String::new());
                    error.set(None);
                    status.set(Some(done.to_owned()));
                    reload_users();
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    let invite = move |event: SubmitEvent| {
        event.prevent_default();
        let email = invite_email.get_untracked().trim().to_owned();
        let request = Invite {
            email: (!email.is_empty()).then_some(email),
            role: Some(invite_role.get_untracked()),
            current_password: password.get_untracked(),
        };
        leptos::task::spawn_local(async move {
            match invite_user(request).await {
                Ok(made) => {
                    password.set(String::new());
                    error.set(None);
                    new_link.set(Some(made.link));
                    invite_email.set(String::new());
                    reload_invitations();
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    let withdraw = move |id: i64| {
        leptos::task::spawn_local(async move {
            match withdraw_invitation(id).await {
                Ok(()) => reload_invitations(),
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    let set_open = move |ev| {
        let wanted = event_target_checked(&ev);
        let setting = RegistrationChange {
            open: wanted,
            current_password: password.get_untracked(),
        };
        leptos::task::spawn_local(async move {
            match set_registration(setting).await {
                Ok(setting) => {
                    password.set(String::new());
                    error.set(None);
                    open.set(setting.open);
                    status.set(Some(if setting.open {
                        "Anyone who can reach this Tally may now create an account.".to_owned()
                    } else {
                        "Accounts are by invitation only.".to_owned()
                    }));
                }
                Err(failure) => {
                    // The box shows what is in force, not what was asked.
                    open.set(!wanted);
                    error.set(Some(ApiFailure::from(failure).message()));
                }
            }
        });
    };

    view! {
        <p class="field-error" role="alert">{move || error.get()}</p>
        <p role="status">{move || status.get()}</p>
        <section class="card" aria-labelledby="confirm-title">
            <h2 id="confirm-title">"Confirm account changes"</h2>
            <div class="field">
                <label for="admin-password">"Your password"</label>
                <input
                    id="admin-password"
                    type="password"
                    autocomplete="current-password"
                    aria-describedby="admin-password-hint"
                    prop:value=move || password.get()
                    on:input=move |ev| password.set(event_target_value(&ev))
                />
                <p id="admin-password-hint" class="hint">
                    "Enabling, disabling, resetting a second factor, inviting and opening registration each ask for it again. No API token can do these."
                </p>
            </div>
        </section>
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
                            <th scope="col">"Last active"</th>
                            <th scope="col">"Status"</th>
                            <th scope="col">"Actions"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || users.get().into_iter().map(|user| {
                            let id = user.id;
                            let factors = match (user.totp_enabled, user.security_keys) {
                                (false, 0) => "none".to_owned(),
                                (true, 0) => "app".to_owned(),
                                (false, keys) => format!("{keys} key(s)"),
                                (true, keys) => format!("app, {keys} key(s)"),
                            };
                            let has_factor = user.totp_enabled || user.security_keys > 0;
                            let email = user.email.clone();
                            let is_me = my_id == Some(id);
                            view! {
                                <tr>
                                    <td>{user.email.clone()}</td>
                                    <td>{user.name.clone()}</td>
                                    <td>{user.role.as_str()}</td>
                                    <td>{factors}</td>
                                    <td>{last_active(&user)}</td>
                                    <td>{if user.disabled { "disabled" } else { "active" }}</td>
                                    <td class="actions">
                                        {if user.disabled {
                                            view! { <button type="button" class="button button--quiet" aria-label=format!("Enable {email}")
                                                on:click=move |_| act(id, AccountAction::Enable, "Account enabled.")>"Enable"</button> }.into_any()
                                        } else {
                                            view! { <button type="button" class="button button--quiet" aria-label=format!("Disable {email}") hidden=is_me
                                                on:click=move |_| act(id, AccountAction::Disable, "Account disabled; its sessions ended.")>"Disable"</button> }.into_any()
                                        }}
                                        {has_factor.then(|| view! {
                                            <button type="button" class="button button--quiet" aria-label=format!("Reset second factor of {}", user.email)
                                                on:click=move |_| act(id, AccountAction::ResetSecondFactor, "Second factor removed; they can sign in with their password and set it up again.")>
                                                "Reset second factor"
                                            </button>
                                        })}
                                    </td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
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
                {move || invitations.get().into_iter().map(|invitation| {
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
        // Loads its own data in the browser.
        <Submissions/>
        <section class="card" aria-labelledby="registration-title">
            <h2 id="registration-title">"Registration"</h2>
            <div class="check-field">
                <input id="open-registration" type="checkbox" prop:checked=move || open.get() on:change=set_open/>
                <label for="open-registration">"Let anyone who can reach this Tally create an account"</label>
            </div>
        </section>
    }
}

/// `AdminPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct AdminRoute;

/// When the user was last here: the later of their last sign-in and
/// their sessions' last request, so someone who joined through an
/// invitation (signed in without a sign-in of the history) shows too.
fn last_active(user: &UserSummary) -> String {
    let latest = match (&user.last_sign_in_at, &user.last_seen_at) {
        (Some(signed_in), Some(seen)) => Some(signed_in.max(seen)),
        (one, other) => one.as_ref().or(other.as_ref()),
    };
    latest.map_or_else(|| "never".into(), |at| timestamp::minute(at))
}

split_route!(AdminRoute => AdminPage in admin);
