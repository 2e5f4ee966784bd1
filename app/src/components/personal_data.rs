use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos::web_sys::FormData;

use crate::api::personal_data::{import_whole, ImportWhole, FILE_FIELD};
use crate::api::{each_local_answer, refusal_in_address};
use crate::components::csrf_field::CsrfField;
use crate::components::form_outcome_notice::said_in_address;
use crate::components::submitted_form::submitted_form;
use crate::contract::data::PersonalImported;
use crate::domain::form_outcome::FormOutcome;

/// "1 bill", "2 bills".
fn count(n: i64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn summary(imported: &PersonalImported) -> String {
    format!(
        "Added {}, {}, {}, {} and {}. Your locale, currency and time zone are the file's now.",
        count(imported.bills, "bill", "bills"),
        count(imported.payments, "payment", "payments"),
        count(
            imported.bill_months,
            "this-time change",
            "this-time changes"
        ),
        count(imported.bank_accounts, "bank account", "bank accounts"),
        count(imported.transactions, "transaction", "transactions"),
    )
}

/// What the address says about the last import posted without
/// JavaScript: the words of a success (`?form=…`) or of the refusal Leptos
/// sent the browser back with (for this function only).
fn answered_in_address() -> (Option<String>, Option<String>) {
    let done = said_in_address(FormOutcome::PersonalDataImported).map(str::to_owned);
    let refused = refusal_in_address::<ImportWhole>().map(|failure| failure.message());
    (done, refused)
}

/// Data → Your data, whole: everything that is the person's as one SQLite
/// file, and such a file (from this Tally or another) added to the
/// account. The import is a `multipart/form-data` form posting to the
/// `data/import-whole` server function, so it works without JavaScript;
/// with it, the page posts the same form data and says what was added.
#[component]
pub fn PersonalDataCard() -> impl IntoView {
    let (was_done, was_refused) = answered_in_address();
    let error = RwSignal::new(was_refused);
    let done = RwSignal::new(was_done);
    let import = Action::new_local(|form: &FormData| import_whole(form.clone().into()));
    each_local_answer(import, move |answer| match answer {
        Ok(imported) => {
            error.set(None);
            done.set(Some(summary(&imported)));
        }
        Err(failure) => {
            done.set(None);
            error.set(Some(failure.message()));
        }
    });
    let busy = import.pending();
    let send = move |event: leptos::ev::SubmitEvent| {
        let Some(data) = submitted_form(&event) else {
            return;
        };
        error.set(None);
        done.set(None);
        import.dispatch_local(data);
    };

    view! {
        <section class="card" aria-labelledby="whole-title">
            <h2 id="whole-title">"Your data, whole"</h2>
            <p class="hint">"One SQLite file with your bills, payments, this-time changes, subscription choices, bank accounts and transactions, and your preferences. It holds no password, second factor, token or bank access; a bank connection comes back disconnected."</p>
            <p><a class="button" href="/api/data/export.sqlite" download rel="external">"Download my data"</a></p>
            <form method="post" action=ImportWhole::PATH enctype="multipart/form-data" on:submit=send>
                // First: the server reads the token before the file.
                <CsrfField/>
                <div class="field">
                    <label for="whole-file">"Import my data"</label>
                    <input id="whole-file" name=FILE_FIELD type="file" accept=".sqlite,.db,application/vnd.sqlite3" required/>
                    <p class="hint">"A file \"Download my data\" made, here or on another Tally, up to 64 MB. Everything in it is added to this account, or nothing is."</p>
                </div>
                <button type="submit" class="button" disabled=move || busy.get()>
                    {move || if busy.get() { "Importing…" } else { "Import" }}
                </button>
            </form>
            <p class="field-error" role="alert" data-testid="whole-error">{move || error.get()}</p>
            <p role="status" data-testid="whole-done">{move || done.get()}</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_in_words() {
        let imported = PersonalImported {
            bills: 1,
            payments: 2,
            bill_months: 0,
            bank_accounts: 1,
            transactions: 3,
            subscription_choices: 0,
        };
        assert_eq!(
            summary(&imported),
            "Added 1 bill, 2 payments, 0 this-time changes, 1 bank account and 3 transactions. Your locale, currency and time zone are the file's now."
        );
    }
}
