//! `/bills/:id`: one bill: its details and next due date, its payments
//! (record, undo, flag a failed autopay), editing, ending or restarting it,
//! and for a debt the payoff curve.

use super::split_route::split_route;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};

use crate::api::bills::{get_autopay_trust, get_bill, get_bills, get_payments, BillAct, PayBill};
use crate::api::{self, ApiFailure};
use crate::components::bill_form::{bill_form, BillFormOpen};
use crate::components::csrf_field::CsrfField;
use crate::components::payoff_chart::PayoffChart;
use crate::contract::bills::PaymentInput;
use crate::domain::date::Date;
use crate::domain::money::{minor_to_input, Locale, Money};
use crate::domain::tracker::due_dates_around;

#[component]
pub fn BillPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || {
        params.with(|p| {
            p.get("id")
                .and_then(|id| id.parse::<i64>().ok())
                .unwrap_or(0)
        })
    };
    // Rendered on the server with the page (blocking resources), asked
    // again after every change.
    let bill = crate::api::page_resource(id, |id| async move {
        get_bill(id).await.map_err(ApiFailure::from)
    });
    let payments = crate::api::page_resource(id, |id| async move {
        get_payments(id).await.map_err(ApiFailure::from)
    });
    // How its autopay has fared against the bank (`✓ 12/12`).
    let trust = crate::api::page_resource(id, |id| async move {
        get_autopay_trust(id).await.map_err(ApiFailure::from)
    });
    // The user's locale and today's date.
    let context = api::page_data(get_bills);
    // Editing and the delete question are in the address (`?edit`,
    // `?delete`), so their links open them without JavaScript too.
    let query = use_query_map();
    let editing = Memo::new(move |_| query.with(|query| query.get("edit").is_some()));
    let confirming = Memo::new(move |_| query.with(|query| query.get("delete").is_some()));
    let error = RwSignal::new(None::<String>);
    let pay_amount = RwSignal::new(String::new());
    let pay_date = RwSignal::new(String::new());
    let pay_method = RwSignal::new(String::new());
    let pay_for = RwSignal::new(String::new());
    let reason = RwSignal::new(String::new());
    let navigate = use_navigate();
    // Saved from the edit form: the bill's page without `?edit`. The
    // router's navigation is not `Send`, so an effect (which runs in the
    // browser only) takes it, not the form's callback.
    let edit_saved = RwSignal::new(false);
    {
        let navigate = navigate.clone();
        Effect::new(move || {
            if edit_saved.get() {
                edit_saved.set(false);
                navigate(&format!("/bills/{}", id()), Default::default());
            }
        });
    }

    let refresh = move || {
        bill.refetch();
        payments.refetch();
        trust.refetch();
    };
    // After a change: the error cleared and the bill asked again, or why not.
    let settled = move |done: Result<(), ApiFailure>| match done {
        Ok(()) => {
            error.set(None);
            refresh();
        }
        Err(failure) => error.set(Some(failure.message())),
    };
    // Every write is a form posting to its server function; with
    // JavaScript the page sends it the same fields and then asks again.
    let pay = ServerAction::<PayBill>::new();
    api::each_answer(pay, move |done| settled(done.map(drop)));
    let act = ServerAction::<BillAct>::new();
    api::each_answer(act, move |done| match done {
        // Deleted: the bill list (a post without JavaScript opens it too).
        Ok(true) => navigate("/bills", Default::default()),
        other => settled(other.map(drop)),
    });
    let send = move |ev: leptos::ev::SubmitEvent, what: &str, payment: Option<i64>| {
        ev.prevent_default();
        act.dispatch(BillAct {
            act: what.to_owned(),
            bill: id(),
            payment,
            reason: (what == "end").then(|| reason.get_untracked()),
        });
    };
    view! {
        <Title text="Bill"/>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
        {move || {
        Suspend::new(async move {
            let context = context.await.ok();
            let locale = Locale::parse(&context.as_ref().map(|c| c.locale.clone()).unwrap_or_default());
            let today = context.map(|c| c.today).unwrap_or_default();
            let listed = payments.await.map(|list| list.payments).unwrap_or_default();
            let delete_detail = format!(
                "Its {} recorded payment{} go with it, and this cannot be undone. To keep the history, end the bill instead.",
                listed.len(),
                if listed.len() == 1 { "" } else { "s" },
            );
            let trust = trust.await.ok().filter(|trust| !trust.label.is_empty());
            let no_payments = listed.is_empty();
            match bill.await {
                Err(failure) => view! { <h1>"Bill"</h1><p class="field-error">{failure.message()}</p> }.into_any(),
                Ok(record) => {
                    let currency = record.currency();
                    let delete_question = format!("Delete {} for good?", record.name);
                    let money = move |minor: i64| Money::new(minor, currency).format(locale);
                    let bill_id = record.id;
                    let here = format!("/bills/{bill_id}");
                    let (edit_open, edit_closed) = (format!("{here}?edit"), here.clone());
                    let here_for_keep = here.clone();
                    let for_edit = record.clone();
                    let digits = currency.digits();
                    let default_amount = minor_to_input(record.amount_minor, digits);
                    // With JavaScript the same server function as the
                    // form's own post, after the amount is checked here.
                    let record_payment = move |ev: leptos::ev::SubmitEvent| {
                        ev.prevent_default();
                        let typed = PaymentInput {
                            amount: pay_amount.get_untracked(),
                            paid_on: pay_date.get_untracked(),
                            method: pay_method.get_untracked(),
                            for_occurrence: pay_for.get_untracked(),
                        };
                        if let Err(problem) = typed.to_payment(digits) {
                            error.set(Some(format!("Amount: {}", problem.description)));
                            return;
                        }
                        pay.dispatch(PayBill { bill: bill_id, payment: typed });
                        pay_amount.set(String::new());
                        pay_for.set(String::new());
                    };
                    // "Paid on" starts at today (the page's and the form's).
                    if pay_date.get_untracked().is_empty() {
                        pay_date.set(today.clone());
                    }
                    // The due dates this payment could be for.
                    let choices: Vec<String> = record
                        .cadence()
                        .zip(Date::parse(&record.anchor_date).ok())
                        .zip(u8::try_from(record.due_day).ok())
                        .zip(Date::parse(&today).ok())
                        .map(|(((cadence, anchor), due_day), today)| {
                            due_dates_around(cadence, anchor, due_day, today)
                                .iter()
                                .map(ToString::to_string)
                                .collect()
                        })
                        .unwrap_or_default();
                    let payoff = record.debt.then(|| {
                        let payment = record.minimum_payment_minor.unwrap_or(record.amount_minor);
                        view! { <PayoffChart balance=record.balance_minor.unwrap_or(0) apr=record.apr_basis_points.unwrap_or(0) payment=payment/> }
                    });
                    view! {
                        <h1>{record.name.clone()}</h1>
                        <p class="field-error" role="alert">{move || error.get()}</p>
                        <dl class="facts" data-testid="bill-facts">
                            <dt>"Amount"</dt><dd>{money(record.amount_minor)}</dd>
                            <dt>"How often"</dt><dd>{record.cadence().map(|c| c.to_string()).unwrap_or_default()}</dd>
                            <dt>"Next due"</dt><dd>{record.next_due.clone().unwrap_or_else(|| "—".into())}</dd>
                            <dt>"Category"</dt><dd>{record.category.clone()}</dd>
                            {record.catalog_name.clone().map(|service| view! { <dt>"Known service"</dt><dd data-testid="catalog-service">{service}</dd> })}
                            <dt>"Autopay"</dt><dd>{if record.autopay {
                                match &record.autopay_verified_at {
                                    Some(at) => format!("on, verified {}", &at[..10.min(at.len())]),
                                    None => "on, not verified by a bank yet".to_owned(),
                                }
                            } else { "off".to_owned() }}</dd>
                            {record.autopay.then_some(trust).flatten().map(|trust| view! {
                                <dt>"Autopay record"</dt>
                                <dd data-testid="autopay-trust">{trust.label.clone()}
                                    <span class="hint">{format!(" (of its last {} due date{}, {} went through)", trust.due_dates, if trust.due_dates == 1 { "" } else { "s" }, trust.kept)}</span></dd>
                            })}
                            <dt>"State"</dt><dd>{if record.active { "Active".to_owned() } else {
                                format!("Ended{}", record.inactive_reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default())
                            }}</dd>
                            {record.debt.then(|| view! {
                                <dt>"Balance"</dt><dd data-testid="balance">{money(record.balance_minor.unwrap_or(0))}</dd>
                                <dt>"APR"</dt><dd>{format!("{} %", minor_to_input(record.apr_basis_points.unwrap_or(0), 2))}</dd>
                            })}
                            {record.interest_pending_minor.map(|pending| view! {
                                <dt>"Interest not yet charged"</dt>
                                <dd data-testid="interest-pending">{money(pending)}
                                    <span class="hint">" (charged with the next payment, or when the month ends)"</span></dd>
                            })}
                        </dl>
                        {(!record.notes.is_empty()).then(|| view! { <p class="notes">{record.notes.clone()}</p> })}
                        {payoff}
                        <section class="card" aria-labelledby="pay-title">
                            <h2 id="pay-title">"Record a payment"</h2>
                            <form class="field-row" method="post" action=PayBill::url() on:submit=record_payment>
                                <CsrfField/>
                                <input type="hidden" name="bill" value=bill_id/>
                                <div class="field"><label for="pay-amount">"Amount"</label>
                                    <input id="pay-amount" name="payment[amount]" placeholder=default_amount.clone() prop:value=move || pay_amount.get() on:input=move |ev| pay_amount.set(event_target_value(&ev))/></div>
                                <div class="field"><label for="pay-date">"Paid on"</label>
                                    <input id="pay-date" name="payment[paid_on]" type="date" value=today.clone() prop:value=move || pay_date.get() on:input=move |ev| pay_date.set(event_target_value(&ev))/></div>
                                <div class="field"><label for="pay-method">"Method"</label>
                                    <input id="pay-method" name="payment[method]" placeholder="manual" maxlength="40" prop:value=move || pay_method.get() on:input=move |ev| pay_method.set(event_target_value(&ev))/></div>
                                {(!choices.is_empty()).then(|| view! {
                                    <div class="field"><label for="pay-for">"Which due date does it pay?"</label>
                                        <select id="pay-for" name="payment[for_occurrence]" aria-describedby="pay-for-hint" prop:value=move || pay_for.get() on:change=move |ev| pay_for.set(event_target_value(&ev))>
                                            <option value="">"Worked out from its date"</option>
                                            {choices.into_iter().map(|due| view! { <option value=due.clone()>{due.clone()}</option> }).collect_view()}
                                        </select>
                                        <span id="pay-for-hint" class="hint">"A payment from before the bill's first due date is history and pays none."</span></div>
                                })}
                                <button type="submit" class="button">"Record payment"</button>
                            </form>
                        </section>
                        <section class="card" aria-labelledby="payments-title">
                            <h2 id="payments-title">"Payments"</h2>
                            {no_payments.then(|| view! {
                                <p class="hint" data-testid="no-payments">"No payments yet. Record one above, or match a bank charge to this bill on "<a href="/data/transactions">"the Transactions page"</a>"."</p>
                            })}
                            <div class="table-wrap" hidden=no_payments><table class="data-table data-table--cards" data-testid="payments">
                                <thead><tr><th scope="col">"Paid on"</th><th scope="col">"Amount"</th><th scope="col">"Pays"</th><th scope="col">"Interest charged"</th>
                                    <th scope="col">"Method"</th><th scope="col">"Autopay failed"</th><th scope="col"><span class="visually-hidden">"Actions"</span></th></tr></thead>
                                <tbody>
                                    {listed.into_iter().map(|payment| {
                                        let id = payment.id;
                                        let failed = payment.autopay_failure;
                                        if payment.is_interest_charge() {
                                            // The month's interest, charged by the accrual: not
                                            // a payment, so nothing to undo or flag.
                                            return view! {
                                                <tr data-testid="payment-row" class="interest-row">
                                                    <td class="cell-title">{payment.paid_on.clone()}</td>
                                                    <td class="cell-wide-only">"—"</td>
                                                    <td></td>
                                                    <td data-label="Interest charged">{money(payment.interest_delta_minor)}</td>
                                                    <td>"Monthly interest"</td>
                                                    <td></td>
                                                    <td></td>
                                                </tr>
                                            }.into_any();
                                        }
                                        view! {
                                            <tr data-testid="payment-row">
                                                <td class="cell-title">{payment.paid_on.clone()}</td>
                                                <td data-label="Amount">{money(payment.amount_minor)}</td>
                                                <td data-label="Pays" data-testid="payment-pays">{match payment.pays.clone() {
                                                    Some(due) => format!("the {due} due date"),
                                                    None => "nothing: history, from before the first due date".to_owned(),
                                                }}</td>
                                                <td data-label="Interest charged">{money(payment.interest_delta_minor)}</td>
                                                <td data-label="Method">{payment.method.clone()}</td>
                                                <td data-label="Autopay failed">
                                                    <BillActForm bill=bill_id what=if failed { "autopay-ok" } else { "autopay-failed" } payment=id send>
                                                        <button type="submit" class="button button--quiet" aria-pressed=failed.to_string()
                                                            aria-label=format!("Autopay of {} failed", payment.paid_on)>{if failed { "Failed" } else { "No" }}</button>
                                                    </BillActForm>
                                                </td>
                                                <td>
                                                    <BillActForm bill=bill_id what="undo-payment" payment=id send>
                                                        <button type="submit" class="button button--quiet">"Undo"</button>
                                                    </BillActForm>
                                                </td>
                                            </tr>
                                        }.into_any()
                                    }).collect_view()}
                                </tbody>
                            </table></div>
                        </section>
                        <section class="card" aria-labelledby="manage-title">
                            <h2 id="manage-title">"Manage"</h2>
                            <div class="actions">
                                <a href=move || if editing.get() { edit_closed.clone() } else { edit_open.clone() }
                                    class="button" role="button" data-noscroll=true
                                    aria-expanded=move || editing.get().to_string()>"Edit"</a>
                                {if record.active {
                                    view! {
                                        <BillActForm bill=bill_id what="end" send>
                                            <label for="end-reason" class="visually-hidden">"Why it ended"</label>
                                            <input id="end-reason" name="reason" placeholder="Why it ended (optional)" maxlength="500"
                                                on:input=move |ev| reason.set(event_target_value(&ev))/>
                                            <button type="submit" class="button button--quiet">"End this bill"</button>
                                        </BillActForm>
                                    }.into_any()
                                } else {
                                    view! {
                                        <BillActForm bill=bill_id what="restart" send>
                                            <button type="submit" class="button button--quiet">"Restart this bill"</button>
                                        </BillActForm>
                                    }.into_any()
                                }}
                                <a href=format!("{here}?delete") class="button button--danger" role="button" data-noscroll=true
                                    aria-expanded=move || confirming.get().to_string()>"Delete"</a>
                            </div>
                            <Show when=move || confirming.get()>
                                <div class="notice notice--danger" role="alertdialog" aria-labelledby="delete-title" data-testid="delete-confirm">
                                    <p id="delete-title"><strong>{delete_question.clone()}</strong></p>
                                    <p>{delete_detail.clone()}</p>
                                    <div class="actions">
                                        <BillActForm bill=bill_id what="delete" send>
                                            <button type="submit" class="button button--danger">"Delete for good"</button>
                                        </BillActForm>
                                        <a href=here_for_keep.clone() class="button button--quiet" role="button" data-noscroll=true>"Keep it"</a>
                                    </div>
                                </div>
                            </Show>
                            <Show when=move || editing.get()>
                                {
                                    let open = BillFormOpen {
                                        existing: Some(for_edit.clone()),
                                        default_currency: String::new(),
                                        today: String::new(),
                                        on_saved: Callback::new(move |_| { edit_saved.set(true); refresh(); }),
                                    };
                                    Suspend::new(bill_form(open))
                                }
                            </Show>
                        </section>
                    }.into_any()
                }
            }
        })}}
        </Transition>
    }
}

/// One write of a bill's page as a form: the browser posts it without
/// JavaScript; with it, `send` hands the same fields to the page's action.
#[component]
fn BillActForm(
    bill: i64,
    what: &'static str,
    #[prop(optional)] payment: Option<i64>,
    send: impl Fn(leptos::ev::SubmitEvent, &str, Option<i64>) + Copy + 'static,
    children: Children,
) -> impl IntoView {
    view! {
        <form class="inline-form" method="post" action=BillAct::url() on:submit=move |ev| send(ev, what, payment)>
            <CsrfField/>
            <input type="hidden" name="act" value=what/>
            <input type="hidden" name="bill" value=bill/>
            {payment.map(|payment| view! { <input type="hidden" name="payment" value=payment/> })}
            {children()}
        </form>
    }
}

/// `BillPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct BillRoute;

split_route!(BillRoute => BillPage in bills);
