//! The form that creates or edits a bill. What a person types (amounts,
//! the yearly rate) becomes minor units and basis points with the shared
//! rules, then the whole bill is checked with `BillForm::validate`, the
//! rules the server applies again; every bad field shows its message.

use leptos::ev::SubmitEvent;
use leptos::prelude::*;

use crate::api;
use crate::api::bills::{get_catalog, save_bill};
use crate::components::submission_form::FormState;
use crate::components::text_field::TextField;
use crate::contract::bills::{BillRecord, Catalog, CatalogService};
use crate::domain::bill::{BillForm, CATEGORIES};
use crate::domain::money::{minor_to_input, parse_minor, Currency};
use crate::domain::validation::FieldViolation;

impl CatalogService {
    /// What the picker shows and the user types: "Netflix (Streaming)".
    fn label(&self) -> String {
        format!("{} ({})", self.name, self.category)
    }
}

impl Catalog {
    /// The service a typed text names: its label, or its name alone when
    /// only one service has it (case does not matter).
    fn find(&self, text: &str) -> Option<i64> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        if let Some(service) = self
            .services
            .iter()
            .find(|service| service.label().eq_ignore_ascii_case(text))
        {
            return Some(service.id);
        }
        let mut named = self
            .services
            .iter()
            .filter(|service| service.name.eq_ignore_ascii_case(text));
        match (named.next(), named.next()) {
            (Some(service), None) => Some(service.id),
            _ => None,
        }
    }
}

fn typed(field: &str, text: &str, digits: u8, problems: &mut Vec<FieldViolation>) -> Option<i64> {
    match parse_minor(text, digits) {
        Ok(minor) => Some(minor),
        Err(error) => {
            problems.push(FieldViolation {
                field: field.to_owned(),
                description: error.to_string(),
            });
            None
        }
    }
}

/// `existing`: the bill being edited (None creates one). `on_saved` gets the
/// stored bill.
#[component]
pub fn BillFormView(
    existing: Option<BillRecord>,
    default_currency: String,
    today: String,
    on_saved: impl Fn(BillRecord) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let start = existing.clone().unwrap_or_else(|| BillRecord {
        currency: default_currency.clone(),
        cadence: "monthly".into(),
        cadence_interval: 1,
        due_day: today.get(8..10).and_then(|d| d.parse().ok()).unwrap_or(1),
        anchor_date: today.clone(),
        category: "Other".into(),
        active: true,
        ..BillRecord::default()
    });
    let digits = start.currency().digits();
    let editing = existing.as_ref().map(|bill| bill.id);
    let catalog_id = RwSignal::new(start.catalog_id);
    let catalog = api::BrowserResource::new(|| async {
        get_catalog(None).await.map_err(api::ApiFailure::from)
    });
    // What is typed in the searchable picker; filled with the linked
    // service's label once the catalog arrives.
    let catalog_text = RwSignal::new(String::new());
    Effect::new(move || {
        if let (Some(Ok(list)), Some(id)) = (catalog.get(), catalog_id.get_untracked()) {
            if let Some(service) = list.services.iter().find(|service| service.id == id) {
                catalog_text.set(service.label());
            }
        }
    });
    let name = RwSignal::new(start.name.clone());
    let amount = RwSignal::new(if editing.is_some() {
        minor_to_input(start.amount_minor, digits)
    } else {
        String::new()
    });
    let currency = RwSignal::new(start.currency.clone());
    let cadence = RwSignal::new(start.cadence.clone());
    let interval = RwSignal::new(start.cadence_interval.to_string());
    // The due day is the first due date's day, so the two cannot disagree
    // (a bill kept from before with another day keeps it until its first
    // due date changes).
    let (start_anchor, start_due_day) = (start.anchor_date.clone(), start.due_day);
    let anchor = RwSignal::new(start.anchor_date.clone());
    let category = RwSignal::new(start.category.clone());
    let notes = RwSignal::new(start.notes.clone());
    let autopay = RwSignal::new(start.autopay);
    let subscription = RwSignal::new(start.subscription);
    let debt = RwSignal::new(start.debt);
    let balance = RwSignal::new(
        start
            .balance_minor
            .map(|b| minor_to_input(b, digits))
            .unwrap_or_default(),
    );
    let apr = RwSignal::new(
        start
            .apr_basis_points
            .map(|bp| minor_to_input(bp, 2))
            .unwrap_or_default(),
    );
    let minimum = RwSignal::new(
        start
            .minimum_payment_minor
            .map(|m| minor_to_input(m, digits))
            .unwrap_or_default(),
    );
    let form = FormState::new();

    let submit = move |event: SubmitEvent| {
        event.prevent_default();
        if form.sending.get_untracked() {
            return;
        }
        let digits = Currency::parse(&currency.get_untracked()).map_or(2, |c| c.digits());
        let mut problems = Vec::new();
        let amount_minor = typed(
            "amountMinor",
            &amount.get_untracked(),
            digits,
            &mut problems,
        );
        let is_debt = debt.get_untracked();
        let optional =
            |field: &str, text: String, digits: u8, problems: &mut Vec<FieldViolation>| {
                if text.trim().is_empty() {
                    None
                } else {
                    typed(field, &text, digits, problems)
                }
            };
        let balance_minor = if is_debt {
            optional(
                "balanceMinor",
                balance.get_untracked(),
                digits,
                &mut problems,
            )
        } else {
            None
        };
        let apr_basis_points = if is_debt {
            optional("aprBasisPoints", apr.get_untracked(), 2, &mut problems)
        } else {
            None
        };
        let minimum_payment_minor = if is_debt {
            optional(
                "minimumPaymentMinor",
                minimum.get_untracked(),
                digits,
                &mut problems,
            )
        } else {
            None
        };
        let body = BillForm {
            name: name.get_untracked(),
            amount_minor: amount_minor.unwrap_or(0),
            currency: currency.get_untracked(),
            cadence: cadence.get_untracked(),
            cadence_interval: interval.get_untracked().trim().parse().ok(),
            due_day: {
                let anchor = anchor.get_untracked();
                if anchor == start_anchor {
                    start_due_day
                } else {
                    crate::domain::date::Date::parse(anchor.trim())
                        .map_or(0, |date| i64::from(date.day()))
                }
            },
            anchor_date: anchor.get_untracked(),
            category: category.get_untracked(),
            notes: notes.get_untracked(),
            autopay: autopay.get_untracked(),
            subscription: subscription.get_untracked(),
            debt: is_debt,
            balance_minor,
            apr_basis_points,
            minimum_payment_minor,
            catalog_id: if subscription.get_untracked() {
                catalog_id.get_untracked()
            } else {
                None
            },
        };
        if body.catalog_id.is_none()
            && subscription.get_untracked()
            && !catalog_text.get_untracked().trim().is_empty()
        {
            problems.push(FieldViolation {
                field: "catalogId".into(),
                description: "choose a service from the list, or leave it empty".into(),
            });
        }
        if let Err(more) = body.validate() {
            for violation in more {
                if !problems.iter().any(|p| p.field == violation.field) {
                    problems.push(violation);
                }
            }
        }
        if !problems.is_empty() {
            form.violations.set(problems);
            form.error.set(Some("Please fix the marked fields.".into()));
            return;
        }
        form.violations.set(Vec::new());
        form.error.set(None);
        form.sending.set(true);
        leptos::task::spawn_local(async move {
            let result = save_bill(editing, body)
                .await
                .map_err(api::ApiFailure::from);
            form.sending.set(false);
            match result {
                Ok(saved) => on_saved(saved),
                Err(api::ApiFailure::Answered {
                    violations,
                    message,
                    ..
                }) if !violations.is_empty() || !message.is_empty() => {
                    if violations.is_empty() {
                        form.error.set(Some(message));
                    } else {
                        form.violations.set(violations);
                        form.error.set(Some("Please fix the marked fields.".into()));
                    }
                }
                Err(failure) => form.error.set(Some(failure.message())),
            }
        });
    };
    let custom = move || cadence.get().starts_with("custom");
    view! {
        <form class="bill-form" on:submit=submit novalidate>
            <TextField id="name" label="Name" value=name error=form.error_for("name") required=true maxlength=200/>
            <div class="field-row">
                <TextField id="amountMinor" inputmode="decimal" label="Amount" value=amount error=form.error_for("amountMinor") required=true maxlength=20/>
                <TextField id="currency" label="Currency" value=currency error=form.error_for("currency") required=true maxlength=3/>
            </div>
            <div class="field-row">
                <div class="field">
                    <label for="cadence">"How often"</label>
                    <select id="cadence" on:change=move |ev| cadence.set(event_target_value(&ev)) prop:value=move || cadence.get()>
                        <option value="weekly">"Weekly"</option>
                        <option value="biweekly">"Every two weeks"</option>
                        <option value="monthly">"Monthly"</option>
                        <option value="quarterly">"Quarterly"</option>
                        <option value="yearly">"Yearly"</option>
                        <option value="custom_days">"Every N days"</option>
                        <option value="custom_months">"Every N months"</option>
                    </select>
                    <p class="field-error">{move || form.error_for("cadence").get()}</p>
                </div>
                <Show when=custom>
                    <TextField id="cadenceInterval" label="N" kind="number" value=interval error=form.error_for("cadenceInterval") required=true maxlength=3/>
                </Show>
            </div>
            <TextField id="anchorDate" label="First due date" kind="date" value=anchor error=form.error_for("anchorDate") required=true maxlength=10/>
            <div class="field">
                <label for="category">"Category"</label>
                <input id="category" list="categories" maxlength="60" prop:value=move || category.get() on:input=move |ev| category.set(event_target_value(&ev))/>
                <datalist id="categories">{CATEGORIES.iter().map(|c| view! { <option value=*c></option> }).collect_view()}</datalist>
                <p class="field-error">{move || form.error_for("category").get()}</p>
            </div>
            <TextField id="notes" label="Notes" value=notes error=form.error_for("notes") multiline=true maxlength=2000/>
            <fieldset class="checks">
                <legend>"This bill"</legend>
                <label><input type="checkbox" prop:checked=move || autopay.get() on:change=move |ev| autopay.set(event_target_checked(&ev))/>" is paid by autopay"</label>
                <label><input type="checkbox" prop:checked=move || subscription.get() on:change=move |ev| subscription.set(event_target_checked(&ev))/>" is a subscription"</label>
                <label><input type="checkbox" prop:checked=move || debt.get() on:change=move |ev| debt.set(event_target_checked(&ev))/>" is a debt (a balance with interest)"</label>
            </fieldset>
            <Show when=move || subscription.get()>
                <div class="field">
                    <label for="catalogId">"Known service (optional; type to search)"</label>
                    <input id="catalogId" list="catalog-services" autocomplete="off" maxlength="200"
                        aria-describedby="catalogId-linked catalogId-error"
                        prop:value=move || catalog_text.get()
                        on:input=move |ev| {
                            let text = event_target_value(&ev);
                            let list = catalog.get_untracked().and_then(Result::ok);
                            let found = list.as_ref().and_then(|list| list.find(&text));
                            // A bill still in the default category takes the service's.
                            let service_category = list.as_ref().zip(found).and_then(|(list, id)| {
                                list.services.iter().find(|service| service.id == id).map(|service| service.category.clone())
                            });
                            if let Some(service_category) = service_category {
                                if matches!(category.get_untracked().trim(), "" | "Other") {
                                    category.set(service_category);
                                }
                            }
                            catalog_id.set(found);
                            catalog_text.set(text);
                        }/>
                    <datalist id="catalog-services">
                        {move || catalog.get().and_then(Result::ok).map(|list| list.services.iter().map(|service| {
                            view! { <option value=service.label()></option> }
                        }).collect_view())}
                    </datalist>
                    <p class="hint" id="catalogId-linked" aria-live="polite">{move || {
                        let id = catalog_id.get()?;
                        let list = catalog.get()?.ok()?;
                        let service = list.services.iter().find(|service| service.id == id)?;
                        Some(format!("Linked to {}", service.label()))
                    }}</p>
                    <p class="field-error" id="catalogId-error">{move || form.error_for("catalogId").get()}</p>
                </div>
            </Show>
            <Show when=move || debt.get()>
                <div class="field-row">
                    <TextField id="balanceMinor" inputmode="decimal" label="Balance owed" value=balance error=form.error_for("balanceMinor") required=true maxlength=20/>
                    <TextField id="aprBasisPoints" inputmode="decimal" label="Yearly rate (APR %)" value=apr error=form.error_for("aprBasisPoints") maxlength=8/>
                    <TextField id="minimumPaymentMinor" inputmode="decimal" label="Minimum payment" value=minimum error=form.error_for("minimumPaymentMinor") maxlength=20/>
                </div>
                <p class="hint" data-testid="interest-rule">
                    "Tally charges a month's interest (the yearly rate ÷ 12) on the balance once a month, starting with the month the debt is added: with that month's first payment, or when the month ends."
                </p>
            </Show>
            <p class="field-error" role="alert">{move || form.error.get()}</p>
            <button type="submit" class="button" disabled=move || form.sending.get()>
                {move || if form.sending.get() { "Saving…" } else if editing.is_some() { "Save changes" } else { "Add bill" }}
            </button>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn service(id: i64, name: &str, category: &str) -> CatalogService {
        CatalogService {
            id,
            name: name.into(),
            category: category.into(),
            website: None,
            typical_cadence: "monthly".into(),
            starting_monthly_minor: None,
            starting_annual_minor: None,
        }
    }

    #[test]
    fn a_typed_service_is_found_by_label_or_by_a_unique_name() {
        let catalog = Catalog {
            services: vec![
                service(1, "Netflix", "Streaming"),
                service(2, "Proton", "Email"),
                service(3, "Proton", "VPN"),
            ],
        };
        assert_eq!(catalog.find("Netflix (Streaming)"), Some(1));
        assert_eq!(catalog.find("  netflix "), Some(1));
        assert_eq!(catalog.find("Proton (VPN)"), Some(3));
        assert_eq!(catalog.find("Proton"), None, "two services have that name");
        assert_eq!(catalog.find("Netfl"), None);
        assert_eq!(catalog.find(""), None);
    }
}
