use super::split_route::split_route;
use crate::api::account::get_me;
use crate::api::admin::{
    get_registration, list_invitations, list_users, ChangeAccount, InviteUser, SetRegistration,
    WithdrawInvitation,
};
use crate::api::{self, ApiFailure};
use crate::components::admin_only::AdminOnly;
use crate::components::csrf_field::CsrfField;
use crate::components::form_outcome_notice::FormOutcomeNotice;
use crate::components::submissions::{self, Submissions};
use crate::contract::admin::{AccountAction, Invitation, RegistrationSetting, UserSummary};
use crate::domain::role::Role;
use crate::domain::timestamp;
use leptos::ev::SubmitEvent;
use leptos::form::FromFormData;
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
    // Its own, read again alone when the address asks for another page.
    let submissions = submissions::page_data();
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
                <AdminPanel registration users invitations my_id submissions/>
            }.into_any(),
        }})}
        </Transition>
    }
}

/// The page once loaded: the lists are kept here and replaced by each
/// write's answer, so the sections below (a backup being watched) stay as
/// they are. Every write is a form that posts without JavaScript too;
/// each account-level one asks for the password again, in its own form.
#[component]
fn AdminPanel(
    registration: RegistrationSetting,
    users: Vec<UserSummary>,
    invitations: Vec<Invitation>,
    my_id: Option<i64>,
    submissions: api::PageResource<Result<submissions::Loaded, ApiFailure>>,
) -> impl IntoView {
    let users = RwSignal::new(users);
    let invitations = RwSignal::new(invitations);
    let open = RwSignal::new(registration.open);
    let new_link = RwSignal::new(None::<String>);
    let status = RwSignal::new(None::<String>);
    let change = ServerAction::<ChangeAccount>::new();
    let invite = ServerAction::<InviteUser>::new();
    let withdraw = ServerAction::<WithdrawInvitation>::new();
    let set_open = ServerAction::<SetRegistration>::new();
    // Each form's refusal, shown beside it: a refusal the address carries
    // (a post without JavaScript) is heard as the form is made.
    let change_error = RwSignal::new(None::<String>);
    let invite_error = RwSignal::new(None::<String>);
    let registration_error = RwSignal::new(None::<String>);
    let users_form = NodeRef::<leptos::html::Form>::new();
    let invite_form = NodeRef::<leptos::html::Form>::new();
    let registration_password = NodeRef::<leptos::html::Input>::new();
    let clear = |form: NodeRef<leptos::html::Form>| {
        if let Some(form) = form.get_untracked() {
            form.reset();
        }
    };
    // What the last press asked, for the words once it is done (an action
    // forgets its input when it answers).
    let asked = RwSignal::new(None::<AccountAction>);
    Effect::new(move || {
        if let Some(input) = change.input().get() {
            let chosen = input.change.unwrap_or_default().chosen();
            asked.set(chosen.map(|(_, action)| action));
        }
    });
    api::each_answer(change, move |answer| match answer {
        Ok(now) => {
            users.set(now);
            change_error.set(None);
            clear(users_form);
            status.set(asked.get_untracked().map(|action| done(action).to_owned()));
        }
        Err(failure) => change_error.set(Some(failure.message())),
    });
    api::each_answer(invite, move |answer| match answer {
        Ok(made) => {
            invite_error.set(None);
            clear(invite_form);
            invitations.update(|list| list.insert(0, made.invitation));
            new_link.set(Some(made.link));
        }
        Err(failure) => invite_error.set(Some(failure.message())),
    });
    api::each_answer(withdraw, move |answer| match answer {
        Ok(now) => invitations.set(now),
        Err(failure) => invite_error.set(Some(failure.message())),
    });
    api::each_answer(set_open, move |answer| match answer {
        Ok(setting) => {
            registration_error.set(None);
            // Not the whole form: its box keeps what was just saved.
            if let Some(field) = registration_password.get_untracked() {
                field.set_value("");
            }
            open.set(setting.open);
            status.set(Some(
                if setting.open {
                    "Anyone who can reach this Tally may now create an account."
                } else {
                    "Accounts are by invitation only."
                }
                .to_owned(),
            ));
        }
        Err(failure) => registration_error.set(Some(failure.message())),
    });
    // The invitation form posts to `/admin/invite` without JavaScript,
    // whose answer is a page showing the link once; with it, the same
    // fields go to the server function and the link shows here.
    let send_invite = move |event: SubmitEvent| {
        if let Ok(input) = InviteUser::from_event(&event) {
            event.prevent_default();
            invite.dispatch(input);
        }
    };

    view! {
        <p role="status">{move || status.get()}</p>
        <FormOutcomeNotice/>
        <section class="card" aria-labelledby="users-title">
            <h2 id="users-title">"Users"</h2>
            <ActionForm action=change node_ref=users_form>
                // Enter in the password field submits with the form's
                // first button: this one, disabled, so Enter does nothing
                // rather than act on the first account of the table.
                <button type="submit" disabled hidden tabindex="-1" aria-hidden="true"></button>
                <CsrfField/>
                <div class="field">
                    <label for="admin-password">"Your password"</label>
                    <input
                        id="admin-password"
                        name="confirm[currentPassword]"
                        type="password"
                        autocomplete="current-password"
                        aria-describedby="admin-password-hint"
                    />
                    <p id="admin-password-hint" class="hint">
                        "Enabling, disabling and resetting a second factor each ask for it again. No API token can do these."
                    </p>
                </div>
                <p class="field-error" role="alert">{move || change_error.get()}</p>
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
                                                view! { <button type="submit" name="change[enable]" value=id class="button button--quiet"
                                                    aria-label=format!("Enable {email}")>"Enable"</button> }.into_any()
                                            } else {
                                                view! { <button type="submit" name="change[disable]" value=id class="button button--quiet"
                                                    aria-label=format!("Disable {email}") hidden=is_me>"Disable"</button> }.into_any()
                                            }}
                                            {has_factor.then(|| view! {
                                                <button type="submit" name="change[resetSecondFactor]" value=id class="button button--quiet"
                                                    aria-label=format!("Reset second factor of {}", user.email)>
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
            </ActionForm>
        </section>
        <section class="card" aria-labelledby="invite-title">
            <h2 id="invite-title">"Invite someone"</h2>
            {move || new_link.get().map(|link| view! {
                <div class="notice" role="status">
                    <p>"Send this link to the person you invite. It works once, for 7 days, and will not be shown again:"</p>
                    <code data-testid="invitation-link">{link}</code>
                </div>
            })}
            <form class="inline-form" method="post" action=INVITE_FORM node_ref=invite_form on:submit=send_invite>
                <CsrfField/>
                <label for="invite-email">"Their email (optional: limits the link to this address)"</label>
                <input id="invite-email" name="request[email]" type="email"/>
                <label for="invite-role" class="visually-hidden">"Role"</label>
                <select id="invite-role" name="request[role]">
                    <option value=Role::User.as_str() selected>{Role::User.label()}</option>
                    <option value=Role::Admin.as_str()>{Role::Admin.label()}</option>
                </select>
                <label for="invite-password">"Your password, to invite"</label>
                <input id="invite-password" name="request[currentPassword]" type="password"
                    autocomplete="current-password"/>
                <button type="submit" class="button">"Create invitation link"</button>
            </form>
            <p class="field-error" role="alert">{move || invite_error.get()}</p>
            <h3>"Open invitations"</h3>
            <ul class="token-list">
                {move || invitations.get().into_iter().map(|invitation| view! {
                    <li>
                        <span>{invitation.email.unwrap_or_else(|| "anyone with the link".into())}</span>
                        <span class="hint">{format!("{}, expires {}", invitation.role.as_str(), timestamp::day(&invitation.expires_at))}</span>
                        <ActionForm action=withdraw attr:class="inline-form">
                            <CsrfField/>
                            <input type="hidden" name="id" value=invitation.id/>
                            <button type="submit" class="button button--quiet">"Withdraw"</button>
                        </ActionForm>
                    </li>
                }).collect_view()}
            </ul>
        </section>
        <Submissions data=submissions/>
        <section class="card" aria-labelledby="registration-title">
            <h2 id="registration-title">"Registration"</h2>
            <p data-testid="registration-state">{move || registration_words(open.get())}</p>
            <ActionForm action=set_open>
                <CsrfField/>
                <div class="check-field">
                    <input id="open-registration" name="open" value="on" type="checkbox" checked=registration.open/>
                    <label for="open-registration">"Let anyone who can reach this Tally create an account"</label>
                </div>
                <div class="field">
                    <label for="registration-password">"Your password, to change registration"</label>
                    <input id="registration-password" name="confirm[currentPassword]" type="password"
                        autocomplete="current-password" node_ref=registration_password/>
                </div>
                <button type="submit" class="button">"Save registration"</button>
                <p class="field-error" role="alert">{move || registration_error.get()}</p>
            </ActionForm>
        </section>
    }
}

/// Where the invitation form posts without JavaScript (a page of its own
/// shows the link once).
const INVITE_FORM: &str = "/admin/invite";

/// The words once an account change is done.
fn done(action: AccountAction) -> &'static str {
    match action {
        AccountAction::Enable => "Account enabled.",
        AccountAction::Disable => "Account disabled; its sessions ended.",
        AccountAction::ResetSecondFactor => {
            "Second factor removed; they can sign in with their password and set it up again."
        }
    }
}

/// Registration as it is in force.
fn registration_words(open: bool) -> &'static str {
    if open {
        "Open: anyone who can reach this Tally may create an account."
    } else {
        "By invitation only."
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
