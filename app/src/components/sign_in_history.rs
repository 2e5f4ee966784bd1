use crate::contract::account::SignInRecord;
use crate::domain::timestamp;
use leptos::prelude::*;

/// Recent sign-ins (and failed attempts) on this account, as the page was
/// rendered with: how each was made (password, single sign-on or a
/// security key's second step) and what it came to.
#[component]
pub fn SignInHistory(history: Vec<SignInRecord>) -> impl IntoView {
    view! {
        <section class="card" aria-labelledby="history-title">
            <h2 id="history-title">"Recent sign-ins"</h2>
            <div class="table-wrap">
                <table class="data-table" data-testid="sign-in-history">
                    <thead>
                        <tr>
                            <th scope="col">"When (UTC)"</th>
                            <th scope="col">"How"</th>
                            <th scope="col">"Result"</th>
                            <th scope="col">"Address"</th>
                            <th scope="col">"Location"</th>
                            <th scope="col">"Browser"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {
                            history
                                .into_iter()
                                .map(|row| {
                                    view! {
                                        <tr>
                                            <td>{timestamp::minute(&row.at)}</td>
                                            <td data-method=row.method.as_str()>{row.method.label()}</td>
                                            <td>{row.method.outcome(row.success)}</td>
                                            <td>{row.ip.unwrap_or_default()}</td>
                                            <td>{row.location.unwrap_or_else(|| "—".into())}</td>
                                            <td class="truncate">{row.user_agent.unwrap_or_default()}</td>
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }
                    </tbody>
                </table>
            </div>
        </section>
    }
}
