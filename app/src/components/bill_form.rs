//! The form that creates or edits a bill: a form posting the fields as
//! typed (`bill[…]`) to the `save_bill` server function, which
//! turns them into minor units and basis points and checks the whole bill
//! with the shared rules (`domain::bill_input`). With JavaScript the same
//! rules run before anything is sent, every bad field shows its message,
//! and the page's `ServerAction` sends what was typed (as `ActionForm`
//! would, without decoding the form in the browser); without it the browser posts the form itself and the server
//! opens the new bill's page, or sends the browser back to the form with
//! the messages. The parts only some bills need (the N of a custom
//! cadence, the catalog service, a debt's terms) are shown by the
//! stylesheet from the form's own choices, so they work without
//! JavaScript too.

use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

use crate::api;
use crate::api::bills::{get_catalog, SaveBill};
use crate::components::csrf_field::CsrfField;
use crate::components::submission_form::FormState;
use crate::components::text_field::TextField;
use crate::contract::bills::BillRecord;
use crate::domain::bill::CATEGORIES;
use crate::domain::bill_input::BillInput;
use crate::domain::money::minor_to_input;

const CADENCES: &[(&str, &str)] = &[
    ("weekly", "Weekly"),
    ("biweekly", "Every two weeks"),
    ("monthly", "Monthly"),
    ("quarterly", "Quarterly"),
    ("yearly", "Yearly"),
    ("custom_days", "Every N days"),
    ("custom_months", "Every N months"),
];

/// `existing`: the bill being edited (None creates one). `on_saved` gets the
/// stored bill (with JavaScript; without it the server opens its page).
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
    // due date changes: the form carries both as stored).
    let kept = editing.map(|_| (start.anchor_date.clone(), start.due_day.to_string()));
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
    let save = ServerAction::<SaveBill>::new();
    form.follow(save, on_saved);
    let kept_as_stored = kept.clone();

    // What was typed, from the form's signals (the same fields the form
    // posts without JavaScript).
    let typed = move || {
        let on = |ticked: bool| ticked.then(|| "on".to_owned());
        BillInput {
            name: name.get_untracked(),
            amount: amount.get_untracked(),
            currency: currency.get_untracked(),
            cadence: cadence.get_untracked(),
            cadence_interval: interval.get_untracked(),
            anchor_date: anchor.get_untracked(),
            kept_anchor: kept_as_stored.as_ref().map(|(anchor, _)| anchor.clone()),
            kept_due_day: kept_as_stored.as_ref().map(|(_, day)| day.clone()),
            category: category.get_untracked(),
            notes: notes.get_untracked(),
            autopay: on(autopay.get_untracked()),
            subscription: on(subscription.get_untracked()),
            debt: on(debt.get_untracked()),
            balance: balance.get_untracked(),
            apr: apr.get_untracked(),
            minimum_payment: minimum.get_untracked(),
            catalog: catalog_text.get_untracked(),
            catalog_id: catalog_id.get_untracked().map(|id| id.to_string()),
        }
    };
    // With JavaScript: the shared rules first, then the same server
    // function with what was typed (no form decoding in the bundle).
    let submit = move |event: SubmitEvent| {
        event.prevent_default();
        let bill = typed();
        let list = catalog.get_untracked().and_then(Result::ok);
        let checked = bill
            .to_form(|text| list.as_ref().and_then(|list| list.find(text)))
            .map(|_| ());
        if !form.holds_back(checked) {
            save.dispatch(SaveBill { id: editing, bill });
        }
    };
    view! {
        <form class="bill-form" method="post" action=SaveBill::url() novalidate on:submit=submit>
            <CsrfField/>
            {editing.map(|id| view! { <input type="hidden" name="id" value=id/> })}
            {kept.map(|(anchor, day)| view! {
                <input type="hidden" name="bill[kept_anchor]" value=anchor/>
                <input type="hidden" name="bill[kept_due_day]" value=day/>
            })}
            <TextField id="name" name="bill[name]" label="Name" value=name error=form.error_for("name") required=true maxlength=200/>
            <div class="field-row">
                <TextField id="amountMinor" name="bill[amount]" inputmode="decimal" label="Amount" value=amount error=form.error_for("amountMinor") required=true maxlength=20/>
                <TextField id="currency" name="bill[currency]" label="Currency" value=currency error=form.error_for("currency") required=true maxlength=3/>
            </div>
            <div class="field-row">
                <div class="field">
                    <label for="cadence">"How often"</label>
                    <select id="cadence" name="bill[cadence]" on:change=move |ev| cadence.set(event_target_value(&ev)) prop:value=move || cadence.get()>
                        {CADENCES.iter().map(|(value, label)| view! {
                            <option value=*value selected=cadence.get_untracked() == *value>{*label}</option>
                        }).collect_view()}
                    </select>
                    <p class="field-error">{move || form.error_for("cadence").get()}</p>
                </div>
                <div class="when-custom">
                    <TextField id="cadenceInterval" name="bill[cadence_interval]" label="N" kind="number" value=interval error=form.error_for("cadenceInterval") required=true maxlength=3/>
                </div>
            </div>
            <TextField id="anchorDate" name="bill[anchor_date]" label="First due date" kind="date" value=anchor error=form.error_for("anchorDate") required=true maxlength=10/>
            <div class="field">
                <label for="category">"Category"</label>
                <input id="category" name="bill[category]" list="categories" maxlength="60" value=category.get_untracked() prop:value=move || category.get() on:input=move |ev| category.set(event_target_value(&ev))/>
                <datalist id="categories">{CATEGORIES.iter().map(|c| view! { <option value=*c></option> }).collect_view()}</datalist>
                <p class="field-error">{move || form.error_for("category").get()}</p>
            </div>
            <TextField id="notes" name="bill[notes]" label="Notes" value=notes error=form.error_for("notes") multiline=true maxlength=2000/>
            <fieldset class="checks">
                <legend>"This bill"</legend>
                <label><input type="checkbox" id="autopay" name="bill[autopay]" checked=autopay.get_untracked() prop:checked=move || autopay.get() on:change=move |ev| autopay.set(event_target_checked(&ev))/>" is paid by autopay"</label>
                <label><input type="checkbox" id="subscription" name="bill[subscription]" checked=subscription.get_untracked() prop:checked=move || subscription.get() on:change=move |ev| subscription.set(event_target_checked(&ev))/>" is a subscription"</label>
                <label><input type="checkbox" id="debt" name="bill[debt]" checked=debt.get_untracked() prop:checked=move || debt.get() on:change=move |ev| debt.set(event_target_checked(&ev))/>" is a debt (a balance with interest)"</label>
            </fieldset>
            <div class="field when-subscription">
                <label for="catalogId">"Known service (optional; type to search)"</label>
                <input id="catalogId" name="bill[catalog]" list="catalog-services" autocomplete="off" maxlength="200"
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
                <input type="hidden" name="bill[catalog_id]"
                    value=catalog_id.get_untracked().map(|id| id.to_string())
                    prop:value=move || catalog_id.get().map(|id| id.to_string()).unwrap_or_default()/>
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
            <div class="when-debt">
                <div class="field-row">
                    <TextField id="balanceMinor" name="bill[balance]" inputmode="decimal" label="Balance owed" value=balance error=form.error_for("balanceMinor") required=true maxlength=20/>
                    <TextField id="aprBasisPoints" name="bill[apr]" inputmode="decimal" label="Yearly rate (APR %)" value=apr error=form.error_for("aprBasisPoints") maxlength=8/>
                    <TextField id="minimumPaymentMinor" name="bill[minimum_payment]" inputmode="decimal" label="Minimum payment" value=minimum error=form.error_for("minimumPaymentMinor") maxlength=20/>
                </div>
                <p class="hint" data-testid="interest-rule">
                    "Tally charges a month's interest (the yearly rate ÷ 12) on the balance once a month, starting with the month the debt is added: with that month's first payment, or when the month ends."
                </p>
            </div>
            <p class="field-error" role="alert">{move || form.error.get()}</p>
            <button type="submit" class="button" disabled=move || form.sending.get()>
                {move || if form.sending.get() { "Saving…" } else if editing.is_some() { "Save changes" } else { "Add bill" }}
            </button>
        </form>
    }
}

/// What the form opens with, for [`bill_form`].
pub struct BillFormOpen {
    pub existing: Option<BillRecord>,
    pub default_currency: String,
    pub today: String,
    pub on_saved: Callback<BillRecord>,
}

/// The bill form from a chunk of its own (`bill_form`): a page fetches its
/// code the first time it shows the form, so a bill's page or the bill
/// list opened first does not carry it. On the server the form is
/// rendered in place, and the page's `<head>` preloads the chunk.
pub async fn bill_form(open: BillFormOpen) -> AnyView {
    split::bill_form(open).await
}

/// Runs `hydrate` once the form's code is here, when the page the server
/// sent already shows the form (`/bills?new`, `/bills/{id}?edit` opened
/// directly): hydration cannot wait for it, and would find the server's
/// form where the browser has nothing yet. Other pages hydrate at once.
#[cfg(feature = "hydrate")]
pub fn hydrate_when_ready(hydrate: impl FnOnce() + 'static) {
    let on_page = leptos::prelude::document()
        .query_selector("form.bill-form")
        .ok()
        .flatten()
        .is_some();
    if on_page {
        wasm_bindgen_futures::spawn_local(async move {
            split::preload_bill_form().await;
            hydrate();
        });
    } else {
        hydrate();
    }
}

fn form_view(open: BillFormOpen) -> AnyView {
    let on_saved = open.on_saved;
    view! {
        <BillFormView existing=open.existing default_currency=open.default_currency
            today=open.today on_saved=move |bill| on_saved.run(bill)/>
    }
    .into_any()
}

mod split {
    use super::{form_view, BillFormOpen};
    use leptos::prelude::AnyView;

    #[cfg(feature = "hydrate")]
    #[::leptos::wasm_split::wasm_split(bill_form, wasm_split_path = ::leptos::wasm_split, preload(preload_bill_form))]
    pub(super) fn bill_form(open: BillFormOpen) -> AnyView {
        form_view(open)
    }

    #[cfg(not(feature = "hydrate"))]
    pub(super) async fn bill_form(open: BillFormOpen) -> AnyView {
        #[cfg(feature = "ssr")]
        crate::backend::wasm_packs::preload("bill_form");
        form_view(open)
    }
}
