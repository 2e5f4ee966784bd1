use std::collections::BTreeSet;

use leptos::prelude::*;

use crate::api::upload::upload_answer;
use crate::contract::data::Imported;
use crate::contract::history::{HistoryPreview, HistorySheets};

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

/// A query value, percent-encoded.
fn encoded(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(byte).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

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

/// Data → Import history from a spreadsheet: an `.xlsx` workbook's sheet of
/// bills or of payments, its columns mapped, every row previewed with a
/// box to leave it out, then imported all or nothing.
#[component]
pub fn HistoryImportCard() -> impl IntoView {
    let file = NodeRef::<leptos::html::Input>::new();
    let sheets = RwSignal::new(None::<HistorySheets>);
    let sheet = RwSignal::new(String::new());
    let kind = RwSignal::new("bills".to_owned());
    let mapping = RwSignal::new(Vec::<(String, Option<usize>)>::new());
    let preview = RwSignal::new(None::<HistoryPreview>);
    let chosen = RwSignal::new(BTreeSet::<usize>::new());
    let error = RwSignal::new(None::<String>);
    let done = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);

    let columns = move || {
        sheets.with(|found| {
            found
                .as_ref()
                .and_then(|found| {
                    found
                        .sheets
                        .iter()
                        .find(|candidate| candidate.name == sheet.get())
                })
                .map(|found| found.columns.clone())
                .unwrap_or_default()
        })
    };
    let fields = move || {
        if kind.get() == "payments" {
            PAYMENT_FIELDS
        } else {
            BILL_FIELDS
        }
    };
    let guess_mapping = move || {
        let columns = columns();
        mapping.set(
            fields()
                .iter()
                .map(|(field, _)| ((*field).to_owned(), guess(field, &columns)))
                .collect(),
        );
        preview.set(None);
    };
    let query = move || {
        let mut parts = vec![
            format!("sheet={}", encoded(&sheet.get_untracked())),
            format!("kind={}", kind.get_untracked()),
        ];
        for (field, column) in mapping.get_untracked() {
            if let Some(column) = column {
                parts.push(format!("{field}={column}"));
            }
        }
        parts.join("&")
    };

    let choose = move |_| {
        let Some(input) = file.get() else { return };
        sheets.set(None);
        preview.set(None);
        done.set(None);
        error.set(None);
        busy.set(true);
        leptos::task::spawn_local(async move {
            let answer =
                upload_answer::<HistorySheets>(&input, "/api/data/history/sheets", 200).await;
            busy.set(false);
            match answer {
                Ok(Some(found)) => {
                    sheet.set(
                        found
                            .sheets
                            .first()
                            .map(|first| first.name.clone())
                            .unwrap_or_default(),
                    );
                    sheets.set(Some(found));
                    guess_mapping();
                }
                Ok(None) => {}
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };
    let look = move |_| {
        let Some(input) = file.get() else { return };
        error.set(None);
        done.set(None);
        busy.set(true);
        leptos::task::spawn_local(async move {
            let url = format!("/api/data/history/preview?{}", query());
            let answer = upload_answer::<HistoryPreview>(&input, &url, 200).await;
            busy.set(false);
            match answer {
                Ok(Some(found)) => {
                    chosen.set(
                        found
                            .rows
                            .iter()
                            .filter(|row| row.import)
                            .map(|row| row.line)
                            .collect(),
                    );
                    preview.set(Some(found));
                }
                Ok(None) => error.set(Some("Choose the workbook again.".into())),
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };
    let take = move |_| {
        let Some(input) = file.get() else { return };
        let lines: Vec<String> = chosen
            .get_untracked()
            .iter()
            .map(usize::to_string)
            .collect();
        error.set(None);
        busy.set(true);
        leptos::task::spawn_local(async move {
            let url = format!(
                "/api/data/history/import?{}&rows={}",
                query(),
                lines.join(",")
            );
            let answer = upload_answer::<Imported>(&input, &url, 201).await;
            busy.set(false);
            match answer {
                Ok(Some(imported)) => {
                    preview.set(None);
                    done.set(Some(format!("Imported {} rows.", imported.imported)));
                }
                Ok(None) => error.set(Some("Choose the workbook again.".into())),
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };

    view! {
        <section class="card" aria-labelledby="history-title">
            <h2 id="history-title">"Import history from a spreadsheet"</h2>
            <p class="hint">"An Excel workbook (.xlsx) with a sheet of bills or of payments, a heading in its first row. Say which column is which, check every row, leave out any you like; nothing is saved until you import."</p>
            <div class="field">
                <label for="history-file">"Workbook"</label>
                <input id="history-file" type="file" accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" node_ref=file on:change=choose/>
            </div>
            {move || sheets.get().map(|found| view! {
                <div class="field">
                    <label for="history-sheet">"Sheet"</label>
                    <select id="history-sheet" on:change=move |ev| { sheet.set(event_target_value(&ev)); guess_mapping(); }>
                        {found.sheets.iter().map(|candidate| view! {
                            <option value=candidate.name.clone() selected=candidate.name == sheet.get_untracked()>
                                {format!("{} ({} rows)", candidate.name, candidate.rows)}
                            </option>
                        }).collect_view()}
                    </select>
                </div>
                <div class="field">
                    <label for="history-kind">"Its rows are"</label>
                    <select id="history-kind" on:change=move |ev| { kind.set(event_target_value(&ev)); guess_mapping(); }>
                        <option value="bills">"Bills"</option>
                        <option value="payments">"Payments"</option>
                    </select>
                </div>
                {move || {
                    let columns = columns();
                    fields().iter().map(|(field, label)| {
                        let field = (*field).to_owned();
                        let id = format!("history-map-{field}");
                        let current = mapping.with(|all| all.iter().find(|(name, _)| *name == field).and_then(|(_, column)| *column));
                        let for_change = field.clone();
                        view! {
                            <div class="field">
                                <label for=id.clone()>{*label}</label>
                                <select id=id on:change=move |ev| {
                                    let column = event_target_value(&ev).parse::<usize>().ok();
                                    mapping.update(|all| {
                                        if let Some(slot) = all.iter_mut().find(|(name, _)| *name == for_change) {
                                            slot.1 = column;
                                        }
                                    });
                                    preview.set(None);
                                }>
                                    <option value="" selected=current.is_none()>"(none)"</option>
                                    {columns.iter().enumerate().map(|(index, heading)| view! {
                                        <option value=index.to_string() selected=current == Some(index)>{heading.clone()}</option>
                                    }).collect_view()}
                                </select>
                            </div>
                        }
                    }).collect_view()
                }}
                <button type="button" class="button" on:click=look disabled=move || busy.get()>"Preview"</button>
            })}
            <p class="field-error" role="alert" data-testid="history-error">{move || error.get()}</p>
            <p role="status" data-testid="history-done">{move || done.get()}</p>
            {move || preview.get().map(|found| view! {
                <p data-testid="history-summary">{format!("{} of {} rows marked to import.", found.ready, found.rows.len())}</p>
                <div class="table-wrap"><table class="data-table" data-testid="history-rows">
                    <thead><tr><th scope="col">"Import"</th><th scope="col">"Row"</th><th scope="col">"Becomes"</th><th scope="col">"Problems"</th></tr></thead>
                    <tbody>
                        {found.rows.iter().map(|row| {
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
                                    <td><input type="checkbox" aria-label=format!("Import row {line}") disabled=blocked
                                        prop:checked=move || chosen.with(|all| all.contains(&line))
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            chosen.update(|all| { if on { all.insert(line); } else { all.remove(&line); } });
                                        }/></td>
                                    <td>{line}</td>
                                    <td>{row.summary.clone()}</td>
                                    <td class=if blocked { "field-error" } else { "hint" }>{note}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table></div>
                <button type="button" class="button" on:click=take disabled=move || busy.get() || chosen.with(BTreeSet::is_empty)>
                    {move || match chosen.with(BTreeSet::len) {
                        1 => "Import 1 row".to_owned(),
                        n => format!("Import {n} rows"),
                    }}
                </button>
            })}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_names_travel_encoded_and_headings_suggest_columns() {
        assert_eq!(
            encoded("Bills 2025/26 & co"),
            "Bills%202025%2F26%20%26%20co"
        );
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
