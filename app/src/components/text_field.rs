use leptos::prelude::*;

/// A labelled input (or textarea) with its error under it, wired for
/// screen readers: `aria-invalid` and `aria-describedby` follow the error.
#[component]
pub fn TextField(
    id: &'static str,
    label: &'static str,
    value: RwSignal<String>,
    #[prop(into)] error: Signal<Option<String>>,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] autocomplete: &'static str,
    #[prop(optional)] multiline: bool,
    #[prop(optional)] required: bool,
    #[prop(default = 1000)] maxlength: usize,
    /// The phone keyboard to offer: `decimal` for amounts.
    #[prop(optional)]
    inputmode: &'static str,
    /// The name the form posts it under (`form[email]`); the id when none.
    #[prop(optional)]
    name: &'static str,
) -> impl IntoView {
    let name = if name.is_empty() { id } else { name };
    let error_id = format!("{id}-error");
    let invalid = move || error.get().is_some().then_some("true");
    let input = if multiline {
        view! {
            <textarea
                id=id
                name=name
                rows="6"
                maxlength=maxlength
                required=required
                aria-invalid=invalid
                aria-describedby=error_id.clone()
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            ></textarea>
        }
        .into_any()
    } else {
        view! {
            <input
                id=id
                name=name
                type=kind
                inputmode=(!inputmode.is_empty()).then_some(inputmode)
                autocomplete=autocomplete
                maxlength=maxlength
                required=required
                aria-invalid=invalid
                aria-describedby=error_id.clone()
                // The attribute carries the value into the server-rendered
                // HTML; the property keeps it live after hydration.
                value=value.get_untracked()
                prop:value=move || value.get()
                // Writing a date input's value back while it is typed
                // resets the segment being typed (12/0… came out blank),
                // so a date keeps its value without telling `prop:value`.
                on:input=move |ev| {
                    let typed = event_target_value(&ev);
                    if kind == "date" {
                        value.update_untracked(|kept| *kept = typed);
                    } else {
                        value.set(typed);
                    }
                }
            />
        }
        .into_any()
    };
    view! {
        <div class="field">
            <label for=id>{label}{(!required).then_some(" (optional)")}</label>
            {input}
            <p id=error_id class="field-error">{move || error.get()}</p>
        </div>
    }
}
