use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos::web_sys::FormData;
use leptos_router::hooks::use_query_map;

use crate::api::data::{
    get_kept_bills, preview_bills_file, ImportKeptBills, PreviewBillsFile, FILE_FIELD, FROM_FIELD,
    KEPT_PARAMETER,
};
use crate::api::{each_answer, each_local_answer, page_resource, refusal_in_address, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::components::form_outcome_notice::said_in_address;
use crate::components::open_here::open_here;
use crate::components::submitted_form::{submit_own_form, submitted_form};
use crate::contract::data::ImportPreview;
use crate::domain::form_outcome::FormOutcome;

/// Data → Import bills: Tally's CSV, or another app's export (Wallos,
/// Firefly III, Actual's budget file). The form sends the file once; the
/// server checks every row and keeps the file, and the preview (every row
/// with its problems, and what could not be brought over) is the page at
/// `?bills=<id>`. Nothing is written until "Import these bills", which only
/// a file without problems offers. Both are forms that work without
/// JavaScript; with it, choosing a file checks it at once.
#[component]
pub fn BillImportCard() -> impl IntoView {
    let query = use_query_map();
    let kept = Memo::new(move |_| query.with(|query| query.get(KEPT_PARAMETER)));
    let preview = page_resource(
        move || kept.get(),
        |id| async move {
            match id {
                Some(id) => Some(get_kept_bills(id).await.map_err(ApiFailure::from)),
                None => None,
            }
        },
    );
    let error =
        RwSignal::new(refusal_in_address::<PreviewBillsFile>().map(|failure| failure.message()));
    let done = RwSignal::new(said_in_address(FormOutcome::BillsImported).map(str::to_owned));
    let open = open_here();
    let check = Action::new_local(|form: &FormData| preview_bills_file(form.clone().into()));
    each_local_answer(check, {
        let open = open.clone();
        move |answer| match answer {
            Ok(kept) => open(&crate::api::data::kept_address(&kept.id)),
            Err(failure) => error.set(Some(failure.message())),
        }
    });
    let import = ServerAction::<ImportKeptBills>::new();
    each_answer(import, move |answer| match answer {
        Ok(imported) => {
            done.set(Some(format!("Imported {} bills.", imported.imported)));
            open("/data");
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    let busy = Signal::derive(move || check.pending().get() || import.pending().get());
    let send = move |event: leptos::ev::SubmitEvent| {
        let Some(data) = submitted_form(&event) else {
            return;
        };
        error.set(None);
        done.set(None);
        check.dispatch_local(data);
    };
    view! {
        <section class="card" aria-labelledby="import-title">
            <h2 id="import-title">"Import bills"</h2>
            <p class="hint">"From Tally's CSV export, Wallos's subscription export (JSON or CSV), Firefly III's bill export or Actual's budget file (db.sqlite, or the zip Actual exports). You will see every row, and what could not be brought over, before anything is saved; a file with a problem in any row is not imported."</p>
            <form method="post" action=PreviewBillsFile::PATH enctype="multipart/form-data" on:submit=send>
                // First: the server reads the token before the file.
                <CsrfField/>
                <div class="field">
                    <label for="import-from">"Made by"</label>
                    <select id="import-from" name=FROM_FIELD>
                        <option value="">"Tally (CSV export)"</option>
                        <option value="wallos">"Wallos (JSON or CSV)"</option>
                        <option value="firefly">"Firefly III (bills CSV)"</option>
                        <option value="actual">"Actual (budget file: its schedules)"</option>
                    </select>
                </div>
                <div class="field">
                    <label for="import-file">"CSV file"</label>
                    <input id="import-file" name=FILE_FIELD type="file" accept=".csv,.json,.sqlite,.zip,text/csv,application/json" required on:change=submit_own_form/>
                </div>
                <button type="submit" class="button button--quiet" disabled=busy>"Check the file"</button>
            </form>
            <p class="field-error" role="alert" data-testid="import-error">{move || error.get()}</p>
            <p role="status" data-testid="import-done">{move || done.get()}</p>
            <Transition>
                {move || Suspend::new(async move {
                    match preview.await {
                        None => None,
                        Some(Err(failure)) => Some(view! {
                            <p class="field-error" role="alert" data-testid="import-gone">{failure.message()}</p>
                        }.into_any()),
                        Some(Ok(checked)) => kept.get_untracked().map(|id| view! {
                            <Preview checked id import busy/>
                        }.into_any()),
                    }
                })}
            </Transition>
        </section>
    }
}

/// The kept file's rows, and the form that imports them when none has a
/// problem.
#[component]
fn Preview(
    checked: ImportPreview,
    id: String,
    import: ServerAction<ImportKeptBills>,
    busy: Signal<bool>,
) -> impl IntoView {
    let ready = checked.invalid == 0 && checked.valid > 0;
    view! {
        <p data-testid="import-summary">{format!("{} rows ready, {} with problems.", checked.valid, checked.invalid)}</p>
        {(!checked.not_mapped.is_empty()).then(|| view! {
            <p>"Not brought over:"</p>
            <ul class="token-list" data-testid="import-not-mapped">
                {checked.not_mapped.iter().map(|note| view! { <li>{note.clone()}</li> }).collect_view()}
            </ul>
        })}
        <div class="table-wrap"><table class="data-table" data-testid="import-preview">
            <thead><tr><th scope="col">"Line"</th><th scope="col">"Bill"</th><th scope="col">"Problems"</th></tr></thead>
            <tbody>
                {checked.rows.into_iter().map(|row| view! {
                    <tr>
                        <td>{row.line}</td>
                        <td>{row.name}</td>
                        <td class="field-error">{row.problems.iter().map(|p| format!("{}: {}", p.field, p.description)).collect::<Vec<_>>().join("; ")}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table></div>
        <ActionForm action=import>
            <CsrfField/>
            <input type="hidden" name="id" value=id/>
            <button type="submit" class="button" disabled=move || !ready || busy.get()>
                {if ready { "Import these bills" } else { "Fix the file and choose it again" }}
            </button>
        </ActionForm>
    }
}
