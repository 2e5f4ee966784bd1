//! `/admin/backups`: Admin → Backups. Take a backup (followed live), the
//! backups with size and age, download one, check that it restores,
//! restore it (confirmed by typing its name; the current database is saved
//! as a backup first), and roll back the newest migration when it has a
//! rollback definition. Administrators only; it arrives with the page, and
//! each write is a form that posts without JavaScript too (an operation
//! it starts is then followed in the Operations viewer).

use super::split_route::split_route;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use leptos_router::hooks::use_query_map;

use crate::api::admin_backups::{
    get_schema_state, list_backup_files, CheckBackupFile, RestoreBackupFile, RollBackMigration,
};
use crate::api::operations::StartMaintenance;
use crate::api::{self, ApiFailure};
use crate::components::admin_only::AdminOnly;
use crate::components::csrf_field::CsrfField;
use crate::components::live_operation::LiveOperationCard;
use crate::contract::admin::{BackupFile, BackupFiles, SchemaState};
use crate::contract::operations::Operation;
use crate::domain::{timestamp, words};

#[component]
pub fn AdminBackupsPage() -> impl IntoView {
    let files = api::page_data(list_backup_files);
    let schema = api::page_data(get_schema_state);
    view! {
        <Title text="Backups · Administration"/>
        <p><A href="/admin">"Administration"</A> " › Backups"</p>
        <h1>"Backups"</h1>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match (files.await, schema.await) {
                    (Ok(files), Ok(schema)) => view! { <Panel files schema/> }.into_any(),
                    (Err(failure), _) | (_, Err(failure)) => view! { <AdminOnly failure/> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// Set once the page's script runs (effects run only in the browser): a
/// button that waits for what is typed is enabled until then, so a form
/// posted without JavaScript goes (the server checks it all the same).
fn live() -> RwSignal<bool> {
    let live = RwSignal::new(false);
    Effect::new(move || live.set(true));
    live
}

#[component]
fn Panel(files: BackupFiles, schema: SchemaState) -> impl IntoView {
    let files = RwSignal::new(files.backups);
    let schema = RwSignal::new(schema);
    let started = RwSignal::new(Vec::<Operation>::new());
    let error = RwSignal::new(None::<String>);
    // The backup whose restore form is open: `?restore=<name>` without
    // JavaScript, the same at once with it.
    let restoring = RwSignal::new(
        use_query_map()
            .with_untracked(|query| query.get("restore").filter(|name| !name.is_empty())),
    );
    // The list again once an operation being watched has ended (no form:
    // live progress).
    let reload = Callback::new(move |()| {
        leptos::task::spawn_local(async move {
            if let Ok(list) = list_backup_files().await {
                files.set(list.backups);
            }
            if let Ok(now) = get_schema_state().await {
                schema.set(now);
            }
        });
    });
    let take = ServerAction::<StartMaintenance>::new();
    let check = ServerAction::<CheckBackupFile>::new();
    let restore = ServerAction::<RestoreBackupFile>::new();
    let answer = move |result: Result<Operation, ApiFailure>| match result {
        Ok(operation) => {
            error.set(None);
            started.update(|all| all.insert(0, operation));
        }
        Err(failure) => error.set(Some(failure.message())),
    };
    api::each_answer(take, answer);
    api::each_answer(check, answer);
    api::each_answer(restore, move |result| {
        if result.is_ok() {
            restoring.set(None);
        }
        answer(result);
    });
    view! {
        <section class="card" aria-labelledby="backups-title">
            <h2 id="backups-title">"Backups"</h2>
            <ActionForm action=take>
                <CsrfField/>
                <input type="hidden" name="task" value="backup"/>
                <p><button type="submit" class="button">"Take a backup"</button></p>
            </ActionForm>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <For each=move || started.get() key=|op| op.name.clone() let:op>
                <LiveOperationCard operation=op on_done=reload/>
            </For>
            {move || {
                let list = files.get();
                if list.is_empty() {
                    view! { <p>"No backups yet. “Take a backup” makes the first."</p> }.into_any()
                } else {
                    view! {
                        <div class="table-wrap"><table class="data-table" data-testid="backup-files">
                            <thead><tr><th>"Name"</th><th>"Size"</th><th>"Taken"</th><th>"Actions"</th></tr></thead>
                            <tbody>{list.into_iter().map(|file| view! {
                                <BackupRow file check restoring/>
                            }).collect_view()}</tbody>
                        </table></div>
                    }.into_any()
                }
            }}
            {move || restoring.get().map(|name| view! { <RestoreForm name restore cancel=restoring/> })}
        </section>
        <SchemaSection schema/>
    }
}

#[component]
fn BackupRow(
    file: BackupFile,
    check: ServerAction<CheckBackupFile>,
    restoring: RwSignal<Option<String>>,
) -> impl IntoView {
    let name = file.name.clone();
    let (for_check, for_restore) = (name.clone(), name.clone());
    // Opening the restore form: a plain GET without JavaScript
    // (`?restore=<name>`), at once with it.
    let open_restore = move |event: SubmitEvent| {
        event.prevent_default();
        restoring.set(Some(for_restore.clone()));
    };
    view! {
        <tr>
            <td>{name.clone()}</td>
            <td>{words::size(file.bytes)}</td>
            <td>
                {file.taken_at.as_deref().map(timestamp::minute)}
                {file.age_seconds.map(|age| format!(" ({} ago)", words::span(age)))}
            </td>
            <td class="actions">
                <a class="button button--quiet" href=format!("/api/admin/backups/{name}") download=name.clone()>"Download"</a>
                <ActionForm action=check attr:class="inline-form">
                    <CsrfField/>
                    <input type="hidden" name="name" value=for_check/>
                    <button type="submit" class="button button--quiet">"Check"</button>
                </ActionForm>
                <form class="inline-form" method="get" action=PATH on:submit=open_restore>
                    <input type="hidden" name="restore" value=name.clone()/>
                    <button type="submit" class="button button--quiet">"Restore…"</button>
                </form>
            </td>
        </tr>
    }
}

/// The page's address.
const PATH: &str = "/admin/backups";

#[component]
fn RestoreForm(
    name: String,
    restore: ServerAction<RestoreBackupFile>,
    cancel: RwSignal<Option<String>>,
) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let expected = name.clone();
    let live = live();
    let matches = move || typed.get().trim() == expected;
    view! {
        <ActionForm action=restore attr:class="card" attr:aria-labelledby="restore-title">
            <CsrfField/>
            <input type="hidden" name="request[backupFile]" value=name.clone()/>
            <h3 id="restore-title">"Restore " {name.clone()}</h3>
            <p class="hint">"Later changes are replaced; the current data is backed up first. Passwords, second factors, sessions, API tokens and invitations stay as they are now: nothing revoked or disabled since the backup comes back."</p>
            <label for="restore-confirm">"Type " <code>{name.clone()}</code> " to confirm"</label>
            <input id="restore-confirm" name="request[confirm]" autocomplete="off" spellcheck="false"
                on:input=move |ev| typed.set(event_target_value(&ev))/>
            <label for="restore-password">"Your password"</label>
            <input id="restore-password" name="request[currentPassword]" type="password"
                autocomplete="current-password"/>
            <div class="actions">
                <button type="submit" class="button" disabled=move || live.get() && !matches()>"Restore this backup"</button>
                <a class="button button--quiet" href=PATH on:click=move |event| {
                    event.prevent_default();
                    cancel.set(None);
                }>"Cancel"</a>
            </div>
        </ActionForm>
    }
}

#[component]
fn SchemaSection(schema: RwSignal<SchemaState>) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let done = RwSignal::new(None::<String>);
    let roll_back = ServerAction::<RollBackMigration>::new();
    let live = live();
    // What was typed, for the words once it is done (an action forgets
    // its input when it answers).
    let asked = RwSignal::new(String::new());
    Effect::new(move || {
        if let Some(input) = roll_back.input().get() {
            asked.set(input.confirm);
        }
    });
    api::each_answer(roll_back, move |answer| match answer {
        Ok(now) => {
            error.set(None);
            typed.set(String::new());
            done.set(Some(format!(
                "Rolled back {}; a restart applies it again.",
                asked.get_untracked()
            )));
            schema.set(now);
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    view! {
        <section class="card" aria-labelledby="schema-title">
            <h2 id="schema-title">"Schema"</h2>
            {move || {
                let now = schema.get();
                let latest = now.latest.clone().unwrap_or_default();
                view! {
                    <p>"Newest migration: " <strong>{latest.clone()}</strong> " " {now.description.clone()}</p>
                    {(now.pending > 0).then(|| view! {
                        <p class="status status--warn">{format!("{} pending: restart to apply.", now.pending)}</p>
                    })}
                    {if now.can_roll_back {
                        let label = format!("Type {latest} to roll it back");
                        view! {
                            <ActionForm action=roll_back>
                                <CsrfField/>
                                <label for="rollback-confirm">{label}</label>
                                <input id="rollback-confirm" name="confirm" autocomplete="off"
                                    prop:value=move || typed.get()
                                    on:input=move |ev| typed.set(event_target_value(&ev))/>
                                <button type="submit" class="button button--quiet"
                                    disabled=move || live.get() && typed.get().trim() != latest>"Roll back"</button>
                            </ActionForm>
                        }.into_any()
                    } else {
                        view! { <p class="hint">"No rollback; restore a backup."</p> }.into_any()
                    }}
                }
            }}
            <p class="field-error" role="alert">{move || error.get()}</p>
            <p role="status">{move || done.get()}</p>
        </section>
    }
}

/// `AdminBackupsPage`, or Admin → Status, as one route whose code is left
/// out of the first download: one chunk for both (each split point costs the
/// home page's loader bytes, and they share most of their code).
pub struct AdminBackupsRoute {
    status: bool,
}

split_route! {
    AdminBackupsRoute in admin as AdminBackupsView,
    data {
        let path = leptos_router::hooks::use_location()
            .pathname
            .get_untracked();
        Self {
            status: path.trim_end_matches('/').ends_with("/status"),
        }
    },
    view(this) {
        if this.status {
            view! { <crate::pages::admin_status::AdminStatusPage/> <crate::components::layout::PageLoaded/> }.into_any()
        } else {
            view! { <AdminBackupsPage/> <crate::components::layout::PageLoaded/> }.into_any()
        }
    }
}
