//! `/admin/backups`: Admin → Backups. Take a backup (followed live), the
//! backups with size and age, download one, check that it restores,
//! restore it (confirmed by typing its name; the current database is saved
//! as a backup first), and roll back the newest migration when it has a
//! rollback definition. Administrators only; it arrives with the page.

use super::split_route::split_route;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::api::admin_backups::{
    check_backup_file, get_schema_state, list_backup_files, restore_backup_file,
    roll_back_migration,
};
use crate::api::operations::start_maintenance;
use crate::api::{self, ApiFailure};
use crate::components::admin_only::AdminOnly;
use crate::components::live_operation::LiveOperationCard;
use crate::contract::admin::{BackupFile, BackupFiles, SchemaState};
use crate::contract::operations::Operation;
use crate::contract::operations::{MaintenanceTask, RestoreRequest};
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

#[component]
fn Panel(files: BackupFiles, schema: SchemaState) -> impl IntoView {
    let files = RwSignal::new(files.backups);
    let schema = RwSignal::new(schema);
    let started = RwSignal::new(Vec::<Operation>::new());
    let error = RwSignal::new(None::<String>);
    let restoring = RwSignal::new(None::<String>);
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
    let answer = move |result: Result<Operation, ApiFailure>| match result {
        Ok(operation) => {
            error.set(None);
            started.update(|all| all.insert(0, operation));
        }
        Err(failure) => error.set(Some(failure.message())),
    };
    let take = move |_| {
        leptos::task::spawn_local(async move {
            answer(
                start_maintenance(MaintenanceTask::Backup)
                    .await
                    .map_err(ApiFailure::from),
            );
        });
    };
    let check = Callback::new(move |name: String| {
        leptos::task::spawn_local(async move {
            answer(check_backup_file(name).await.map_err(ApiFailure::from));
        });
    });
    let restore = Callback::new(move |request: RestoreRequest| {
        leptos::task::spawn_local(async move {
            let result = restore_backup_file(request).await.map_err(ApiFailure::from);
            if result.is_ok() {
                restoring.set(None);
            }
            answer(result);
        });
    });
    view! {
        <section class="card" aria-labelledby="backups-title">
            <h2 id="backups-title">"Backups"</h2>
            <p><button class="button" on:click=take>"Take a backup"</button></p>
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
    check: Callback<String>,
    restoring: RwSignal<Option<String>>,
) -> impl IntoView {
    let name = file.name.clone();
    let (for_check, for_restore) = (name.clone(), name.clone());
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
                <button class="button button--quiet" on:click=move |_| check.run(for_check.clone())>"Check"</button>
                <button class="button button--quiet" on:click=move |_| restoring.set(Some(for_restore.clone()))>"Restore…"</button>
            </td>
        </tr>
    }
}

#[component]
fn RestoreForm(
    name: String,
    restore: Callback<RestoreRequest>,
    cancel: RwSignal<Option<String>>,
) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let expected = name.clone();
    let matches = move || typed.get().trim() == expected;
    let submit = {
        let name = name.clone();
        move |event: SubmitEvent| {
            event.prevent_default();
            restore.run(RestoreRequest {
                backup_file: name.clone(),
                confirm: typed.get_untracked(),
                current_password: password.get_untracked(),
            });
        }
    };
    view! {
        <form class="card" method="post" on:submit=submit aria-labelledby="restore-title">
            <h3 id="restore-title">"Restore " {name.clone()}</h3>
            <p class="hint">"Later changes are replaced; the current data is backed up first. Passwords, second factors, sessions, API tokens and invitations stay as they are now: nothing revoked or disabled since the backup comes back."</p>
            <label for="restore-confirm">"Type " <code>{name.clone()}</code> " to confirm"</label>
            <input id="restore-confirm" autocomplete="off" spellcheck="false"
                on:input=move |ev| typed.set(event_target_value(&ev))/>
            <label for="restore-password">"Your password"</label>
            <input id="restore-password" type="password" autocomplete="current-password"
                on:input=move |ev| password.set(event_target_value(&ev))/>
            <p>
                <button type="submit" class="button" disabled=move || !matches()>"Restore this backup"</button>
                " "
                <button type="button" class="button button--quiet" on:click=move |_| cancel.set(None)>"Cancel"</button>
            </p>
        </form>
    }
}

#[component]
fn SchemaSection(schema: RwSignal<SchemaState>) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let done = RwSignal::new(None::<String>);
    let submit = move |event: SubmitEvent| {
        event.prevent_default();
        let confirm = typed.get_untracked();
        leptos::task::spawn_local(async move {
            match roll_back_migration(confirm.clone()).await {
                Ok(now) => {
                    error.set(None);
                    typed.set(String::new());
                    done.set(Some(format!(
                        "Rolled back {confirm}; a restart applies it again."
                    )));
                    schema.set(now);
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
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
                            <form on:submit=submit>
                                <label for="rollback-confirm">{label}</label>
                                <input id="rollback-confirm" autocomplete="off"
                                    prop:value=move || typed.get()
                                    on:input=move |ev| typed.set(event_target_value(&ev))/>
                                <button type="submit" class="button button--quiet"
                                    disabled=move || typed.get().trim() != latest>"Roll back"</button>
                            </form>
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
