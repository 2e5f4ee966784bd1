use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos::web_sys::FormData;
use leptos_router::hooks::use_query_map;

use crate::api::history::{
    get_kept_preview, get_kept_sheets, kept_address, upload_workbook, ImportKeptHistory,
    UploadWorkbook, FILE_FIELD, KEPT_PARAMETER, STEP_PARAMETER,
};
use crate::api::{each_answer, each_local_answer, page_resource, refusal_in_address, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::components::form_outcome_notice::said_in_address;
use crate::components::open_here::open_here;
use crate::components::submitted_form::{submit_own_form, submitted_form};
use crate::contract::history::{HistoryMapping, HistoryPreview, HistorySheets};
use crate::domain::form_outcome::FormOutcome;

/// The fields a column can be mapped to, per kind: (query name, label).
const BILL_FIELDS: &[(&str, &str)] = &[
    ("name", "Bill name"),
    ("amount", "Amount"),
    ("date", "First due date"),
    ("cadence", "How often"),
    ("category", "Category"),
    ("notes", "Notes"),
    ("autopay", "Autopay (yes/no)"),
];
const PAYMENT_FIELDS: &[(&str, &str)] = &[
    ("bill", "Bill name"),
    ("date", "Day paid"),
    ("amount", "Amount"),
];

/// The column a heading most likely holds, for a first guess at the
/// mapping.
fn guess(field: &str, columns: &[String]) -> Option<usize> {
    // In order of preference: "anchor_date" is the date before "due_day".
    let words: &[&str] = match field {
        "name" | "bill" => &["name", "bill", "payee", "description"],
        "amount" => &["amount", "price", "cost", "sum"],
        "date" => &["date", "due", "paid", "day"],
        "cadence" => &["often", "cadence", "frequency", "cycle", "every"],
        "category" => &["category"],
        "notes" => &["note", "memo", "comment"],
        "autopay" => &["autopay", "automatic"],
        _ => &[],
    };
    let columns: Vec<String> = columns.iter().map(|column| column.to_lowercase()).collect();
    words
        .iter()
        .find_map(|word| columns.iter().position(|column| column.contains(word)))
}

/// What the address asks of the card: the kept workbook, the sheet and
/// what its rows are, and, once the person asks for the preview, which
/// column holds each field.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Asked {
    id: Option<String>,
    sheet: Option<String>,
    kind: String,
    /// `(field, column)` for the fields the address names; read only for
    /// the preview.
    columns: Vec<(String, Option<usize>)>,
    preview: bool,
}

impl Asked {
    fn from_query(query: &leptos_router::params::ParamsMap) -> Self {
        let kind = match query.get(KIND).as_deref() {
            Some("payments") => "payments",
            _ => "bills",
        };
        let preview = query.get(STEP_PARAMETER).as_deref() == Some(PREVIEW_STEP);
        Self {
            id: query.get(KEPT_PARAMETER),
            sheet: query.get(SHEET),
            kind: kind.to_owned(),
            columns: fields_of(kind)
                .iter()
                .map(|(field, _)| {
                    let column = query.get(field).and_then(|value| value.parse().ok());
                    ((*field).to_owned(), column)
                })
                .collect(),
            preview,
        }
    }

    /// The mapping the preview and the import read.
    fn mapping(&self, sheet: &str) -> HistoryMapping {
        let column = |name: &str| {
            self.columns
                .iter()
                .find(|(field, _)| field == name)
                .and_then(|(_, column)| *column)
        };
        HistoryMapping {
            sheet: sheet.to_owned(),
            kind: self.kind.clone(),
            name: column("name"),
            bill: column("bill"),
            amount: column("amount"),
            date: column("date"),
            cadence: column("cadence"),
            category: column("category"),
            notes: column("notes"),
            autopay: column("autopay"),
            rows: None,
        }
    }
}

const SHEET: &str = "sheet";
const KIND: &str = "kind";
const COLUMNS_STEP: &str = "columns";
const PREVIEW_STEP: &str = "preview";

fn fields_of(kind: &str) -> &'static [(&'static str, &'static str)] {
    if kind == "payments" {
        PAYMENT_FIELDS
    } else {
        BILL_FIELDS
    }
}

/// The kept workbook's sheets and, when asked, the preview.
type Shown = (
    Result<HistorySheets, ApiFailure>,
    Option<Result<HistoryPreview, ApiFailure>>,
);

/// Data → Import history from a spreadsheet: an `.xlsx` workbook's sheet of
/// bills or of payments, its columns mapped, every row previewed with a
/// box to leave it out, then imported all or nothing.
///
/// Every step is a form that works without JavaScript. The workbook goes
/// up once and is kept on the server; the address then names it, the
/// sheet and what its rows are (`?history=<id>&sheet=…&kind=…`, a `get`
/// form), and the column of each field once the person asks for the
/// preview (`&step=preview`). The import posts the mapping and the rows
/// left checked. With JavaScript, choosing the workbook, the sheet or the
/// kind sends its form at once.
#[component]
pub fn HistoryImportCard() -> impl IntoView {
    let query = use_query_map();
    let asked = Memo::new(move |_| query.with(Asked::from_query));
    let shown = page_resource(
        move || asked.get(),
        |asked: Asked| async move {
            let id = asked.id.clone()?;
            let sheets = get_kept_sheets(id.clone()).await.map_err(ApiFailure::from);
            let preview = match (&sheets, asked.preview) {
                (Ok(found), true) => {
                    let sheet = chosen_sheet(found, asked.sheet.as_deref());
                    Some(
                        get_kept_preview(id, asked.mapping(&sheet))
                            .await
                            .map_err(ApiFailure::from),
                    )
                }
                _ => None,
            };
            Some::<Shown>((sheets, preview))
        },
    );
    let error =
        RwSignal::new(refusal_in_address::<UploadWorkbook>().map(|failure| failure.message()));
    let done = RwSignal::new(said_in_address(FormOutcome::HistoryImported).map(str::to_owned));
    let open = open_here();
    let upload = Action::new_local(|form: &FormData| upload_workbook(form.clone().into()));
    each_local_answer(upload, {
        let open = open.clone();
        move |answer| match answer {
            Ok(kept) => open(&kept_address(&kept.id)),
            Err(failure) => error.set(Some(failure.message())),
        }
    });
    let import = ServerAction::<ImportKeptHistory>::new();
    each_answer(import, move |answer| match answer {
        Ok(imported) => {
            done.set(Some(format!("Imported {} rows.", imported.imported)));
            open("/data");
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    let busy = Signal::derive(move || upload.pending().get() || import.pending().get());
    let send = move |event: leptos::ev::SubmitEvent| {
        let Some(data) = submitted_form(&event) else {
            return;
        };
        error.set(None);
        done.set(None);
        upload.dispatch_local(data);
    };

    view! {
        <section class="card" aria-labelledby="history-title">
            <h2 id="history-title">"Import history from a spreadsheet"</h2>
            <p class="hint">"An Excel workbook (.xlsx) with a sheet of bills or of payments, a heading in its first row. Say which column is which, check every row, leave out any you like; nothing is saved until you import."</p>
            <form method="post" action=UploadWorkbook::PATH enctype="multipart/form-data" on:submit=send>
                // First: the server reads the token before the file.
                <CsrfField/>
                <div class="field">
                    <label for="history-file">"Workbook"</label>
                    <input id="history-file" name=FILE_FIELD type="file" required
                        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                        on:change=submit_own_form/>
                </div>
                <button type="submit" class="button button--quiet" disabled=busy>"Read the workbook"</button>
            </form>
            <p class="field-error" role="alert" data-testid="history-error">{move || error.get()}</p>
            <p role="status" data-testid="history-done">{move || done.get()}</p>
            <Transition>
                {move || Suspend::new(async move {
                    let wanted = asked.get_untracked();
                    match shown.await {
                        None => None,
                        Some((Err(failure), _)) => Some(view! {
                            <p class="field-error" role="alert" data-testid="history-gone">{failure.message()}</p>
                        }.into_any()),
                        Some((Ok(sheets), preview)) => Some(view! {
                            <Mapping sheets=sheets.clone() asked=wanted.clone()/>
                            {preview.map(|preview| match preview {
                                Ok(preview) => view! {
                                    <Rows preview sheets asked=wanted import busy/>
                                }.into_any(),
                                Err(failure) => view! {
                                    <p class="field-error" role="alert" data-testid="history-refused">{failure.message()}</p>
                                }.into_any(),
                            })}
                        }.into_any()),
                    }
                })}
            </Transition>
        </section>
    }
}

/// The sheet the address names, when the workbook has it; else the first.
fn chosen_sheet(sheets: &HistorySheets, asked: Option<&str>) -> String {
    sheets
        .sheets
        .iter()
        .find(|candidate| Some(candidate.name.as_str()) == asked)
        .or_else(|| sheets.sheets.first())
        .map(|found| found.name.clone())
        .unwrap_or_default()
}

/// The sheet, what its rows are and which column is which: two `get`
/// forms. Choosing the sheet or the kind shows its columns with a first
/// guess from the headings; "Preview" asks for every row read through
/// the mapping.
#[component]
fn Mapping(sheets: HistorySheets, asked: Asked) -> impl IntoView {
    let id = asked.id.clone().unwrap_or_default();
    let sheet = chosen_sheet(&sheets, asked.sheet.as_deref());
    let columns = sheets
        .sheets
        .iter()
        .find(|candidate| candidate.name == sheet)
        .map(|found| found.columns.clone())
        .unwrap_or_default();
    let kind = asked.kind.clone();
    let fields = fields_of(&kind);
    let current = |field: &str| {
        if asked.preview {
            asked
                .columns
                .iter()
                .find(|(name, _)| name == field)
                .and_then(|(_, column)| *column)
        } else {
            guess(field, &columns)
        }
    };
    view! {
        <form method="get" action="/data#history-title" class="inline-form">
            <input type="hidden" name=KEPT_PARAMETER value=id.clone()/>
            <input type="hidden" name=STEP_PARAMETER value=COLUMNS_STEP/>
            <div class="field">
                <label for="history-sheet">"Sheet"</label>
                <select id="history-sheet" name=SHEET on:change=submit_own_form>
                    {sheets.sheets.iter().map(|candidate| view! {
                        <option value=candidate.name.clone() selected=candidate.name == sheet>
                            {format!("{} ({} rows)", candidate.name, candidate.rows)}
                        </option>
                    }).collect_view()}
                </select>
            </div>
            <div class="field">
                <label for="history-kind">"Its rows are"</label>
                <select id="history-kind" name=KIND on:change=submit_own_form>
                    <option value="bills" selected=kind == "bills">"Bills"</option>
                    <option value="payments" selected=kind == "payments">"Payments"</option>
                </select>
            </div>
            <button type="submit" class="button button--quiet">"Show its columns"</button>
        </form>
        <form method="get" action="/data#history-title">
            <input type="hidden" name=KEPT_PARAMETER value=id/>
            <input type="hidden" name=SHEET value=sheet.clone()/>
            <input type="hidden" name=KIND value=kind.clone()/>
            <input type="hidden" name=STEP_PARAMETER value=PREVIEW_STEP/>
            {fields.iter().map(|(field, label)| {
                let chosen = current(field);
                view! {
                    <div class="field">
                        <label for=format!("history-map-{field}")>{*label}</label>
                        <select id=format!("history-map-{field}") name=*field>
                            <option value="" selected=chosen.is_none()>"(none)"</option>
                            {columns.iter().enumerate().map(|(index, heading)| view! {
                                <option value=index.to_string() selected=chosen == Some(index)>{heading.clone()}</option>
                            }).collect_view()}
                        </select>
                    </div>
                }
            }).collect_view()}
            <button type="submit" class="button">"Preview"</button>
        </form>
    }
}

/// Every row read through the mapping, each with a box (checked when the
/// import takes it by default), and the form that imports the checked
/// ones.
#[component]
fn Rows(
    preview: HistoryPreview,
    sheets: HistorySheets,
    asked: Asked,
    import: ServerAction<ImportKeptHistory>,
    busy: Signal<bool>,
) -> impl IntoView {
    let sheet = chosen_sheet(&sheets, asked.sheet.as_deref());
    let mapping = asked.mapping(&sheet);
    let mapped: Vec<(&str, usize)> = mapping
        .columns()
        .into_iter()
        .filter_map(|(field, column)| column.map(|column| (field, column)))
        .collect();
    view! {
        <p data-testid="history-summary">{format!("{} of {} rows marked to import.", preview.ready, preview.rows.len())}</p>
        <ActionForm action=import>
            <CsrfField/>
            <input type="hidden" name="id" value=asked.id.clone().unwrap_or_default()/>
            <input type="hidden" name="mapping[sheet]" value=mapping.sheet.clone()/>
            <input type="hidden" name="mapping[kind]" value=mapping.kind.clone()/>
            {mapped.into_iter().map(|(field, column)| view! {
                <input type="hidden" name=format!("mapping[{field}]") value=column.to_string()/>
            }).collect_view()}
            <div class="table-wrap"><table class="data-table" data-testid="history-rows">
                <thead><tr><th scope="col">"Import"</th><th scope="col">"Row"</th><th scope="col">"Becomes"</th><th scope="col">"Problems"</th></tr></thead>
                <tbody>
                    {preview.rows.iter().map(|row| {
                        let line = row.line;
                        let blocked = !row.problems.is_empty();
                        let note = if blocked {
                            row.problems.iter().map(|p| format!("{}: {}", p.field, p.description)).collect::<Vec<_>>().join("; ")
                        } else if row.duplicate {
                            "already here".to_owned()
                        } else {
                            String::new()
                        };
                        view! {
                            <tr>
                                <td><input type="checkbox" name=format!("chosen[{line}]") value="on"
                                    aria-label=format!("Import row {line}") disabled=blocked checked=row.import/></td>
                                <td>{line}</td>
                                <td>{row.summary.clone()}</td>
                                <td class=if blocked { "field-error" } else { "hint" }>{note}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table></div>
            <button type="submit" class="button" disabled=busy>"Import the checked rows"</button>
        </ActionForm>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_suggest_columns() {
        let columns = [
            "Bill".to_owned(),
            "Monthly cost".into(),
            "Due date".into(),
            "Paid automatically".into(),
        ];
        assert_eq!(guess("name", &columns), Some(0));
        assert_eq!(guess("amount", &columns), Some(1));
        assert_eq!(guess("date", &columns), Some(2));
        assert_eq!(guess("autopay", &columns), Some(3));
        assert_eq!(guess("notes", &columns), None);
        let export = [
            "name".to_owned(),
            "amount".into(),
            "due_day".into(),
            "anchor_date".into(),
        ];
        assert_eq!(guess("date", &export), Some(3));
    }
}
