use leptos::ev::SubmitEvent;
use leptos::prelude::*;

use crate::api::account::{ConfirmTotp, StartTotp, StopTotp};
use crate::api::{self, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::contract::two_factor::{TotpEnrolment, TotpStatus};

/// Two-factor sign-in with an authenticator app: set up with a QR code,
/// confirm with a first code, keep the recovery codes; turn it off with the
/// password. `status` is what the page was rendered with.
///
/// Turning it off is a form posting to `totp/stop`, with or without
/// JavaScript. Setting it up shows a key and then recovery codes once, so
/// without JavaScript its forms post to `/profile/two-factor…`, which
/// answer with pages of their own; with JavaScript the same forms
/// dispatch `totp/start` and `totp/confirm` and show them here.
#[component]
pub fn TwoFactor(status: TotpStatus) -> impl IntoView {
    let enrolment = RwSignal::new(None::<TotpEnrolment>);
    let recovery = RwSignal::new(None::<Vec<String>>);
    let code = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let status = RwSignal::new(status);
    let password = RwSignal::new(String::new());
    let heard = move |failure: ApiFailure| error.set(Some(failure.message()));

    let turn_off = ServerAction::<StopTotp>::new();
    api::each_answer(turn_off, move |answer| match answer {
        Ok(()) => {
            password.set(String::new());
            recovery.set(None);
            error.set(None);
            status.set(TotpStatus {
                enabled: false,
                recovery_codes_left: 0,
            });
        }
        Err(failure) => heard(failure),
    });
    let begin = ServerAction::<StartTotp>::new();
    api::each_answer(begin, move |answer| match answer {
        Ok(started) => {
            enrolment.set(Some(started));
            error.set(None);
        }
        Err(failure) => heard(failure),
    });
    let finish = ServerAction::<ConfirmTotp>::new();
    api::each_answer(finish, move |answer| match answer {
        Ok(confirmed) => {
            status.set(TotpStatus {
                enabled: true,
                recovery_codes_left: confirmed.recovery_codes.len() as i64,
            });
            recovery.set(Some(confirmed.recovery_codes));
            enrolment.set(None);
            error.set(None);
            code.set(String::new());
        }
        Err(failure) => heard(failure),
    });
    let start = move |event: SubmitEvent| {
        event.prevent_default();
        begin.dispatch(StartTotp {});
    };
    let confirm = move |event: SubmitEvent| {
        event.prevent_default();
        finish.dispatch(ConfirmTotp {
            code: code.get_untracked().trim().to_owned(),
        });
    };

    view! {
        <section class="card" aria-labelledby="two-factor-title">
            <h2 id="two-factor-title">"Two-factor sign-in"</h2>
            {move || match (recovery.get(), enrolment.get()) {
                (Some(codes), _) => {
                    view! {
                        <div class="notice" role="status">
                            <p>"Two-factor sign-in is on. Keep these recovery codes somewhere safe; each works once, and they will not be shown again:"</p>
                            <ul class="recovery-codes" data-testid="recovery-codes">
                                {codes.into_iter().map(|code| view! { <li><code>{code}</code></li> }).collect_view()}
                            </ul>
                        </div>
                    }
                        .into_any()
                }
                (None, Some(started)) => {
                    view! {
                        <p>"Scan this code with your authenticator app, or type the key by hand."</p>
                        <div class="qr" inner_html=started.qr_svg.clone()></div>
                        <p>"Key: " <code data-testid="totp-secret">{started.secret.clone()}</code></p>
                        <form class="inline-form" method="post" action="/profile/two-factor/confirm" on:submit=confirm>
                            <CsrfField/>
                            <label for="totp-code">"Code from the app"</label>
                            <input
                                id="totp-code"
                                name="code"
                                type="text"
                                inputmode="numeric"
                                autocomplete="one-time-code"
                                prop:value=move || code.get()
                                on:input=move |ev| code.set(event_target_value(&ev))
                            />
                            <button type="submit" class="button" disabled=move || finish.pending().get()>"Turn on"</button>
                        </form>
                    }
                        .into_any()
                }
                (None, None) if status.get().enabled => {
                    let left = status.get().recovery_codes_left;
                    view! {
                        <p data-testid="totp-on">{format!("Two-factor sign-in with an authenticator app is on; {left} recovery codes left.")}</p>
                        <ActionForm action=turn_off attr:class="inline-form">
                            <CsrfField/>
                            <label for="totp-off-password">"Your password, to turn it off"</label>
                            <input
                                id="totp-off-password"
                                name="request[currentPassword]"
                                type="password"
                                autocomplete="current-password"
                                prop:value=move || password.get()
                                on:input=move |ev| password.set(event_target_value(&ev))
                            />
                            <button type="submit" class="button button--quiet" disabled=move || turn_off.pending().get()>"Turn off"</button>
                        </ActionForm>
                    }
                        .into_any()
                }
                (None, None) => {
                    view! {
                        <p>"Ask for a code from an authenticator app as well as your password."</p>
                        // Without JavaScript the form posts and the server
                        // answers with the setup page.
                        <form method="post" action="/profile/two-factor" on:submit=start>
                            <CsrfField/>
                            <button type="submit" class="button" disabled=move || begin.pending().get()>"Set up two-factor sign-in"</button>
                        </form>
                    }
                        .into_any()
                }
            }}
            <p class="field-error" role="alert">{move || error.get()}</p>
        </section>
    }
}
