use leptos::prelude::*;

use crate::api::upload::upload_answer;
use crate::contract::data::PersonalImported;

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

/// Data → Your data, whole: everything that is the person's as one SQLite
/// file, and such a file (from this Tally or another) added to the
/// account.
#[component]
pub fn PersonalDataCard() -> impl IntoView {
    let file = NodeRef::<leptos::html::Input>::new();
    let error = RwSignal::new(None::<String>);
    let done = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let send = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let Some(input) = file.get() else { return };
        error.set(None);
        done.set(None);
        busy.set(true);
        leptos::task::spawn_local(async move {
            let answer =
                upload_answer::<PersonalImported>(&input, "/api/data/import.sqlite", 200).await;
            busy.set(false);
            match answer {
                Ok(Some(imported)) => done.set(Some(summary(&imported))),
                Ok(None) => error.set(Some(
                    "Choose the file \"Download my data\" made first.".into(),
                )),
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };

    view! {
        <section class="card" aria-labelledby="whole-title">
            <h2 id="whole-title">"Your data, whole"</h2>
            <p class="hint">"One SQLite file with your bills, payments, this-time changes, subscription choices, bank accounts and transactions, and your preferences. It holds no password, second factor, token or bank access; a bank connection comes back disconnected."</p>
            <p><a class="button" href="/api/data/export.sqlite" download rel="external">"Download my data"</a></p>
            <form on:submit=send>
                <div class="field">
                    <label for="whole-file">"Import my data"</label>
                    <input id="whole-file" type="file" accept=".sqlite,.db,application/vnd.sqlite3" node_ref=file required/>
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
