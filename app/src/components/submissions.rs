//! Admin: what the public forms received (leads or support requests,
//! newest first, searchable), each with its CRM state, the CRM's health,
//! and re-sending failed posts. Which list, the search and the page are in
//! the address (`/admin?submissions=support&q=…&before=…`), so the list
//! arrives with the page and is searched and paged without JavaScript;
//! Re-send is a form.

use crate::api::admin::{get_crm_status, list_submissions, ResendSubmissions};
use crate::api::{self, ApiFailure, PageResource};
use crate::components::csrf_field::CsrfField;
use crate::contract::contact::{CrmState, CrmStatus, SubmissionKind, SubmissionPage};
use crate::domain::query_string;
use crate::domain::timestamp;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// The page the list is on, and the id of its card there.
const PATH: &str = "/admin";
const ANCHOR: &str = "#submissions";

/// What the address asks of the list.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Asked {
    kind: SubmissionKind,
    q: String,
    before: Option<i64>,
}

impl Asked {
    /// `submissions=support` shows support requests; anything else leads.
    /// A `before` that is no id is the first page.
    fn read(submissions: Option<String>, q: Option<String>, before: Option<String>) -> Self {
        Self {
            kind: match submissions.as_deref() {
                Some("support") => SubmissionKind::Support,
                _ => SubmissionKind::Lead,
            },
            q: q.unwrap_or_default(),
            before: before.and_then(|before| before.parse().ok()),
        }
    }

    fn word(kind: SubmissionKind) -> &'static str {
        match kind {
            SubmissionKind::Lead => "",
            SubmissionKind::Support => "support",
        }
    }

    /// This list, searched as now, from `before` (none: the newest).
    fn link(&self, kind: SubmissionKind, before: Option<i64>) -> String {
        let before = before.map(|id| id.to_string()).unwrap_or_default();
        let q = if kind == self.kind {
            self.q.as_str()
        } else {
            ""
        };
        let path = query_string::link(
            PATH,
            &[
                ("submissions", Self::word(kind)),
                ("q", q),
                ("before", &before),
            ],
        );
        format!("{path}{ANCHOR}")
    }
}

/// One page of the list with the CRM's state.
pub type Loaded = (Asked, CrmStatus, SubmissionPage);

/// The list the address asks for, filled on the server with the page.
/// Made by the page (outside its own `Suspend`), so a search or another
/// page of the list reloads only this.
pub fn page_data() -> PageResource<Result<Loaded, ApiFailure>> {
    let query = use_query_map();
    let asked = move || {
        query.with(|map| Asked::read(map.get("submissions"), map.get("q"), map.get("before")))
    };
    api::page_resource(asked, |asked: Asked| async move {
        let crm = get_crm_status().await.map_err(ApiFailure::from)?;
        let page = list_submissions(asked.kind, asked.q.clone(), asked.before)
            .await
            .map_err(ApiFailure::from)?;
        Ok((asked, crm, page))
    })
}

#[component]
pub fn Submissions(data: PageResource<Result<Loaded, ApiFailure>>) -> impl IntoView {
    // One action for every Re-send on the card: a refusal the address
    // carries (a post without JavaScript) is shown once, here.
    let resend = ServerAction::<ResendSubmissions>::new();
    let error = RwSignal::new(None::<String>);
    api::each_answer(resend, move |answer| match answer {
        Ok(_) => {
            error.set(None);
            data.refetch();
        }
        Err(failure) => error.set(Some(failure.message())),
    });

    view! {
        <section class="card" id="submissions" aria-labelledby="submissions-title">
            <h2 id="submissions-title">"Leads and support requests"</h2>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Err(failure) => view! { <p class="field-error" role="alert">{failure.message()}</p> }.into_any(),
                        Ok((asked, crm, page)) => view! { <Listed asked crm page resend/> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

/// The CRM's health in words, with how many posts are in each state.
fn health(status: &CrmStatus) -> String {
    let counts = status
        .counts
        .iter()
        .map(|(state, n)| format!("{n} {}", state.as_str()))
        .collect::<Vec<_>>()
        .join(", ");
    match (status.health.configured, &status.health.paused_until) {
        (false, _) => format!("CRM not configured; submissions are only stored. ({counts})"),
        (true, Some(until)) => format!(
            "CRM sync paused until {until}: {}. ({counts})",
            status.health.last_error.clone().unwrap_or_default()
        ),
        (true, None) => format!("CRM sync running. ({counts})"),
    }
}

/// The loaded list: which one, the search, the rows and the pages.
#[component]
fn Listed(
    asked: Asked,
    crm: CrmStatus,
    page: SubmissionPage,
    resend: ServerAction<ResendSubmissions>,
) -> impl IntoView {
    let kind = asked.kind;
    let choice = |shown: SubmissionKind, label: &'static str| {
        view! {
            // A plain link: the router's <A> would mark each kind current.
            <a href=asked.link(shown, None) class="button button--quiet"
                aria-current=(shown == kind).then_some("page")>{label}</a>
        }
    };
    let newest = asked.before.is_some().then(|| asked.link(kind, None));
    let older = page.next_before.map(|next| asked.link(kind, Some(next)));
    view! {
        <p data-testid="crm-health">{health(&crm)}</p>
        <nav class="actions" aria-label="Which submissions">
            {choice(SubmissionKind::Lead, "Leads")}
            {choice(SubmissionKind::Support, "Support requests")}
        </nav>
        <form method="get" action=format!("{PATH}{ANCHOR}") role="search" class="inline-form">
            {(kind == SubmissionKind::Support).then(|| view! {
                <input type="hidden" name="submissions" value="support"/>
            })}
            <label for="submission-search">"Search"</label>
            <input id="submission-search" name="q" type="search" maxlength="200" value=asked.q.clone()
                placeholder="Name, email or message"/>
            <button type="submit" class="button">"Search"</button>
        </form>
        <ActionForm action=resend attr:class="inline-form">
            <CsrfField/>
            <input type="hidden" name="kind" value=kind.as_str()/>
            <button type="submit" class="button button--quiet">"Re-send all failed"</button>
        </ActionForm>
        <div class="table-wrap">
            <table class="data-table" data-testid="submissions">
                <thead>
                    <tr>
                        <th scope="col">"Received (UTC)"</th>
                        <th scope="col">"From"</th>
                        <th scope="col">{if kind == SubmissionKind::Lead { "Company" } else { "Subject" }}</th>
                        <th scope="col">"Message"</th>
                        <th scope="col">"CRM"</th>
                    </tr>
                </thead>
                <tbody>
                    {page.items.into_iter().map(|row| view! {
                        <tr>
                            <td>{timestamp::minute(&row.created_at)}</td>
                            <td>{row.name.clone()} <br/> <span class="hint">{row.email.clone()}</span></td>
                            <td>{row.headline.clone().unwrap_or_default()}</td>
                            <td class="truncate">{row.message.clone()}</td>
                            <td>
                                {row.crm_state.as_str()}
                                {row.crm_last_error.clone().map(|e| view! { <br/> <span class="hint">{e}</span> })}
                                {(row.crm_state == CrmState::Failed).then(|| view! {
                                    <ActionForm action=resend attr:class="inline-form">
                                        <CsrfField/>
                                        <input type="hidden" name="kind" value=kind.as_str()/>
                                        <input type="hidden" name="id" value=row.id/>
                                        <button type="submit" class="button button--quiet"
                                            aria-label=format!("Re-send {}", row.name)>"Re-send"</button>
                                    </ActionForm>
                                })}
                            </td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <p>
            {newest.map(|href| view! { <a href=href>"Newest"</a> " " })}
            {older.map(|href| view! { <a href=href>"Older"</a> })}
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_picks_the_list_and_a_link_keeps_the_search_of_its_own_list() {
        let asked = Asked::read(Some("support".into()), Some("a b".into()), Some("x".into()));
        assert_eq!(asked.kind, SubmissionKind::Support);
        assert_eq!(
            asked.before, None,
            "a `before` that is no id is the first page"
        );
        assert_eq!(
            asked.link(SubmissionKind::Support, Some(7)),
            "/admin?submissions=support&q=a%20b&before=7#submissions"
        );
        assert_eq!(asked.link(SubmissionKind::Lead, None), "/admin#submissions");
        assert_eq!(
            Asked::read(Some("nonsense".into()), None, None).kind,
            SubmissionKind::Lead
        );
    }
}
